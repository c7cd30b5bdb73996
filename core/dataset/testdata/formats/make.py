#!/usr/bin/python3
"""Writes the format fixtures of core/dataset's tests with independent
writers: Python's csv module, openpyxl 3.0.9 (XLSX), scipy 1.10.1
(scipy.io.savemat, MAT level 5) and plain text for ARFF and LIBSVM, the dense
ARFF file checked by scipy.io.arff.loadarff. Run it with Debian 12's
python3 (apt-get install python3-scipy python3-openpyxl) from this folder;
the files it writes are committed, so the tests do not need it.

TABLE below is the table the tests hold as Go literals (formats_test.go).
"""
import csv

import numpy as np
import openpyxl
import scipy.io as sio
import scipy.io.arff as sarff
import scipy.sparse as sp

FEATURES = ["f1", "f2", "f3", "f4", "f5"]
TABLE = [
    # f1, f2, f3, f4, f5, label
    (0.5, 0, -2.25, 1e5, 3, 1),
    (1.5, 0, 0, 2e-3, 0, 1),
    (-1, 4, 0.125, 0, 7, 2),
    (2, 0, 1, -3.5, 0, 2),
    (0, 0, 0, 0, 1, 3),
    (0.75, -8, 6, 12, 0, 3),
    (3.25, 1, 0, 0.5, 2, 1),
    (-0.5, 0, 9, 0, 0, 2),
    (1, 2, 3, 4, 5, 3),
    (0, 0.001, 0, -7, 0, 1),
    (6, 0, -1, 0, 8, 2),
    (2.5, 3, 0, 1.25, 0, 3),
]


def num(v):
    """The shortest text of a number, as a CSV writer gives it."""
    if float(v) == int(v):
        return str(int(v))
    return repr(float(v))


X = np.array([r[:5] for r in TABLE], dtype=float)
Y = np.array([r[5] for r in TABLE], dtype=float).reshape(-1, 1)

with open("table.csv", "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(FEATURES + ["label"])
    for r in TABLE:
        w.writerow([num(v) for v in r])

wb = openpyxl.Workbook()
ws = wb.active
ws.title = "Notes"
ws["A1"] = "The data are on the sheet Data."
data = wb.create_sheet("Data")
data.append(FEATURES + ["label"])
for r in TABLE:
    data.append([int(v) if float(v) == int(v) else float(v) for v in r])
wb.save("table.xlsx")

# Booleans, empty cells (gaps), text numbers, an error value, a table that
# starts at B3, and numbers typed as text.
wb = openpyxl.Workbook()
ws = wb.active
ws.title = "Mixed"
ws["B3"], ws["C3"], ws["D3"], ws["E3"] = "a", "flag", "b", "class"
rows = [
    (1.5, True, 2, "x"),
    (None, False, 4, "y"),
    ("2.5", True, None, "x"),
    (7, False, 8, "y"),
]
for i, r in enumerate(rows):
    for j, v in enumerate(r):
        if v is not None:
            ws.cell(row=4 + i, column=2 + j, value=v)
wb.save("mixed.xlsx")

with open("table.arff", "w") as f:
    f.write("% The test table (formats_test.go).\n@RELATION 'test table'\n\n")
    for name in FEATURES:
        f.write("@ATTRIBUTE %s NUMERIC\n" % name)
    f.write("@ATTRIBUTE label {1,2,3}\n\n@DATA\n")
    for r in TABLE:
        f.write(",".join(num(v) for v in r) + "\n")

with open("table_sparse.arff", "w") as f:
    f.write("@relation sparse\n")
    for name in FEATURES:
        f.write("@attribute %s real\n" % name)
    f.write("@attribute label {1,2,3}\n@data\n")
    for r in TABLE:
        # The label of class 1 (the nominal's first value) is omitted, as
        # sparse ARFF allows.
        items = ["%d %s" % (j, num(v)) for j, v in enumerate(r[:5]) if v != 0]
        if r[5] != 1:
            items.append("5 %s" % num(r[5]))
        f.write("{" + ", ".join(items) + "}\n")

# scipy reads dense ARFF only.
for name in ("table.arff",):
    data, meta = sarff.loadarff(name)
    got = np.array([[row[k] for k in FEATURES] for row in data], dtype=float)
    assert (got == X).all(), name

with open("table.libsvm", "w") as f:
    for i, r in enumerate(TABLE):
        items = ["%d:%s" % (j + 1, num(v)) for j, v in enumerate(r[:5]) if v != 0]
        qid = " qid:%d" % (1 + i % 2) if i < 4 else ""
        f.write(num(r[5]) + qid + " " + " ".join(items) + ("  # a comment\n" if i == 0 else "\n"))

sio.savemat("table.mat", {"X": X, "Y": Y}, do_compression=False)
sio.savemat("table_z.mat", {"X": X, "Y": Y}, do_compression=True)

# Every numeric element type, named X_<type>, beside the labels as uint8
# (a row vector) and as a char matrix; the data sparse; labels a cell array.
ints = np.array([[1, -2, 3], [4, 5, -6], [-7, 8, 9], [10, 0, 12]])
nat = np.abs(ints)
labels = np.array([1, 2, 1, 2])
v = {
    "X_double": ints.astype(np.float64),
    "X_single": ints.astype(np.float32),
    "X_int8": ints.astype(np.int8),
    "X_int16": ints.astype(np.int16),
    "X_int32": ints.astype(np.int32),
    "X_int64": ints.astype(np.int64),
    "X_uint8": nat.astype(np.uint8),
    "X_uint16": nat.astype(np.uint16),
    "X_uint32": nat.astype(np.uint32),
    "X_uint64": nat.astype(np.uint64),
    "X_logical": (ints > 0),
    "X_sparse": sp.csc_matrix(ints.astype(float)),
    "X_3d": np.zeros((2, 2, 2)),
    "X_complex": ints * (1 + 1j),
    "Y_row": labels.astype(np.uint8).reshape(1, -1),
    "Y_char": np.array(["alpha", "beta ", "alpha", "beta "]),
    "Y_cell": np.array([["a"], ["b"], ["a"], ["b"]], dtype=object),
    "Y_onehot": np.eye(2)[labels - 1],
}
sio.savemat("types.mat", v, do_compression=False)
sio.savemat("types_z.mat", v, do_compression=True)

# Missing values (NaN): the second and third rows, the second and third
# columns hold them.
Xm = np.array([[1.0, 2, 3], [4, np.nan, 6], [7, 8, np.nan], [10, 11, 12], [13, 14, 15]])
sio.savemat("missing.mat", {"X": Xm, "Y": np.array([[1, 2, 1, 2, 1]], dtype=np.uint8)}, do_compression=True)

print("written")
