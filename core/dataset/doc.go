// Package dataset reads samples × features tables and prepares them for the
// selectors.
//
// # Reading
//
// Read (ReadContext to stop it with a context; Parse for bytes in memory)
// takes an io.Reader and detects the format from the content, whatever the
// file is called; Options.Format fixes it instead. Any of the formats may
// be gzip compressed (recognised by its magic bytes). The same table gives
// the same Dataset in every format: where a format has no names, the
// features are f1, f2, …, as in a CSV file without a header.
//
//   - Delimited text (CSV): comma-, semicolon- or tab-separated, the
//     delimiter and a header row detected unless Options fixes them; UTF-8
//     with or without a byte-order mark, or UTF-16 with one; LF, CRLF or
//     (throughout the file) CR line ends; RFC 4180 quoting. One column
//     holds the class label (by default the last); every other column must
//     be numeric: decimal numbers only (not Go's 0x1p-2 or 1_000), with a
//     decimal comma accepted when the delimiter is not a comma.
//   - XLSX (an Excel workbook): the worksheet Options.Sheet names, or by
//     default the first that holds a table that reads (a workbook often
//     opens with a sheet of notes; each sheet skipped is named in a
//     warning, with why). Its first row that holds anything starts the
//     table and sets its columns; cells may be numbers, booleans (1 and 0),
//     text (shared or inline; text that is a number is read as one), error
//     values (#N/A is missing, any other is refused) or empty (missing).
//     The table is then read as a CSV file's is.
//   - ARFF (Weka): numeric (real, integer) and nominal attributes, dense or
//     sparse rows, ? for missing; the class is the last attribute unless
//     Options.Label names another. A nominal feature whose values are
//     numbers is read as those numbers, any other as the position of its
//     value in the declaration (with a warning). String and date
//     attributes can only be the label; instance weights are ignored.
//   - LIBSVM / SVMlight: "label index:value …" per line, indices from 1,
//     absent values 0, a qid: pair and # comments ignored. The label is a
//     number.
//   - MATLAB MAT-file, level 5 (versions 5 to 7, compressed or not): the
//     variables X (samples × features, a numeric or logical matrix of any
//     element type, dense or sparse) and Y (the labels: a numeric vector,
//     or a char matrix with one name per row), or those Options.XVar and
//     Options.YVar name. Version 7.3 files (HDF5) are refused with the
//     MATLAB command that saves them in version 7.
//
// A typed number used as a label (a workbook's, a LIBSVM or MATLAB label)
// is written as a CSV writer would write it: 1, not 1.0 or 1e+00.
//
// Errors a person can cause (a ragged row, text in a numeric column, an
// empty file, a single class, missing values, an unterminated quote) are
// returned as *Error values whose message names the place: the line and
// column (1-based, as a spreadsheet shows it) and the column's name, the
// worksheet and cell (B7) of a workbook, the variable, row and column of a
// MAT-file. A value quoted in a message is cut to a few dozen characters.
// A file that is binary, of another known kind (an .xls or .ods workbook,
// a PDF, an HDF5 file, …) or UTF-16 text without a byte-order mark is
// refused with a message that names it.
//
// # Limits
//
// A read stops, with an *Error that wraps ErrLimit, as soon as it has
// consumed more than Options.MaxBytes bytes after decompression (default
// DefaultMaxBytes, 1 GiB) or the table has more than Options.MaxCells cells
// (default DefaultMaxCells, 50 million): a decompression bomb is refused
// while it streams, not after. A cell of a text table is at most 1 MiB.
// ReadContext returns ctx.Err() soon after ctx is done.
//
// # Conventions
//
// Rows are samples and columns features, as in the file. A missing cell (an
// empty cell, NA, NaN, N/A, null, ? or #N/A) is stored as NaN in X; by
// default Read rejects a file that has any, and with Options.Missing =
// ImputeMean it keeps them for the preprocessing step to replace with the
// training mean.
//
// Classes are the distinct label strings, sorted numerically when every label
// parses as a number (so −1/1 and 1…c both work) and lexicographically
// otherwise; Y holds each sample's class index into Classes. A label column
// whose every value differs (as many classes as samples) is refused: it is
// not a class label. Dataset.Warnings tell of classes of a single sample,
// of one number written as several labels (1, 1.0 and 01 are three
// classes), of a first row of column numbers taken for a header, of a first
// row read as data whose label occurs nowhere else, and of names that are
// not UTF-8 (read as Windows-1252).
//
// # Preprocessing
//
// A Scaler is fitted on one part of the data (a training part) and applied to
// any other, so that no statistic of a test part ever leaks into a model.
package dataset
