// Package dataset reads samples × features tables and prepares them for the
// selectors.
//
// # Reading
//
// Read accepts comma-, semicolon- or tab-separated text, optionally gzip
// compressed (recognised by its magic bytes, whatever the file is called),
// with or without a UTF-8 byte-order mark, with LF or CRLF line ends and
// RFC 4180 quoting. The delimiter and the presence of a header row are
// detected unless Options fixes them. One column holds the class label
// (by default the last); every other column must be numeric.
//
// Errors a person can cause (a ragged row, text in a numeric column, an empty
// file, a single class, missing values) are returned as *Error values whose
// message names the line of the file, the column number (1-based, as a
// spreadsheet shows it) and the column's name.
//
// # Conventions
//
// Rows are samples and columns features, as in the file. A missing cell (an
// empty cell, NA, NaN, N/A, null or ?) is stored as NaN in X; by default Read
// rejects a file that has any, and with Options.Missing = ImputeMean it keeps
// them for the preprocessing step to replace with the training mean.
//
// Classes are the distinct label strings, sorted numerically when every label
// parses as a number (so −1/1 and 1…c both work) and lexicographically
// otherwise; Y holds each sample's class index into Classes.
//
// # Preprocessing
//
// A Scaler is fitted on one part of the data (a training part) and applied to
// any other, so that no statistic of a test part ever leaks into a model.
package dataset
