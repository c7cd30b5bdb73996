#!/usr/bin/python3
"""Writes the small files of core/dataset's corpus of broken and awkward
inputs (corpus_test.go says what each must give). The large ones (a gzip
bomb, a 50 MB cell, 100,000 classes, a workbook bomb) are made by the test.
Run with python3 from this folder; the files are committed."""
import gzip
import io
import struct
import zipfile

import numpy as np
import scipy.io as sio


def w(name, data):
    if isinstance(data, str):
        data = data.encode("utf-8")
    with open(name, "wb") as f:
        f.write(data)


GOOD = "a,b,label\n1,2,x\n3,4,y\n5,6,x\n7,8,y\n"

# Delimited text.
w("empty.csv", "")
w("blank-lines.csv", " \n\n\t\r\n")
w("header-only.csv", "a,b,label\n")
w("single-row.csv", "a,b,label\n1,2,x\n")
w("single-column.csv", "label\nx\ny\n")
w("ragged-short.csv", "a,b,label\n1,2,x\n3,y\n5,6,x\n")
w("ragged-long.csv", "a,b,label\n1,2,x\n3,4,y,9\n")
w("text-in-number.csv", "a,b,label\n1,2,x\n3,abc,y\n5,6,x\n")
w("out-of-range.csv", "a,b,label\n1e400,2,x\n3,4,y\n5,6,x\n")
w("infinite.csv", "a,b,label\n1,2,x\n3,-inf,y\n5,6,x\n")
w("hex-float.csv", "a,b,label\n1,2,x\n0x1p-2,4,y\n5,6,x\n")
w("underscore.csv", "a,b,label\n1,2,x\n3,1_000,y\n5,6,x\n")
lines = ["a,b,label"] + ["%d,%d,%s" % (i, i + 1, "xy"[i % 2]) for i in range(30)]
lines[4] = '4,"5,x'  # line 5: a quote that never closes; the file has 31 lines
w("unterminated-quote.csv", "\n".join(lines) + "\n")
w("bare-quote.csv", 'a,b,label\n1,2"3,x\n3,4,y\n')
w("text-after-quote.csv", 'a,b,label\n1,"2"x,x\n3,4,y\n')
w("lone-cr.csv", "a,b,label\n1,2,x\n3,4\r,y\n5,6,x\n")
w("cr-only.csv", GOOD.replace("\n", "\r"))
w("crlf.csv", GOOD.replace("\n", "\r\n"))
w("utf16le-bom.csv", b"\xff\xfe" + GOOD.encode("utf-16-le"))
w("utf16be-bom.csv", b"\xfe\xff" + GOOD.encode("utf-16-be"))
w("utf16-nobom.csv", GOOD.encode("utf-16-le"))
late = "a,b,label\n" + "".join("%d,%d,%s\n" % (i, i, "xy"[i % 2]) for i in range(600))
w("nul-late.csv", late + "7,\x008,x\n")
w("non-utf8-header.csv", "Größe,b,label\n1,2,x\n3,4,y\n5,6,x\n7,8,y\n".encode("latin-1"))
w("non-utf8-label.csv", "a,b,label\n1,2,Müller\n3,4,Maier\n5,6,Müller\n7,8,Maier\n".encode("cp1252"))
w("label-spellings.csv", "a,b,label\n1,2,1\n3,4,1.0\n5,6,01\n7,8,2\n9,10,2\n11,12,1\n")
w("numeric-header.csv", "1,2,3,4\n0.5,0.25,0.125,1\n0.1,0.2,0.3,2\n0.4,0.5,0.6,1\n0.7,0.8,0.9,2\n")
w("first-row-singleton.csv", "10,20,99\n1,2,1\n3,4,2\n5,6,1\n7,8,2\n")
w("all-unique-labels.csv", "a,b,c\n1,2,0.31\n3,4,0.72\n5,6,0.93\n7,8,0.14\n")
w("singleton-classes.csv", "a,b,label\n1,2,x\n3,4,x\n5,6,y\n7,8,z\n9,10,x\n")
w("one-class.csv", "a,b,label\n1,2,x\n3,4,x\n")
w("missing-values.csv", "a,b,label\n1,2,x\n3,NA,y\n,5,x\n7,8,y\n")
w("missing-label.csv", "a,b,label\n1,2,x\n3,4,\n5,6,y\n")
w("duplicate-names.csv", "a,a,label\n1,2,x\n3,4,y\n5,6,x\n7,8,y\n")
w("decimal-comma.csv", "a;b;label\n1,5;2;x\n3;4,25;y\n5;6;x\n7;8;y\n")
w("tab.tsv", GOOD.replace(",", "\t"))
w("bom-utf8.csv", b"\xef\xbb\xbf" + GOOD.encode())
w("long-value.csv", "a,b,label\n1,2,x\n" + "3," + "z" * 200 + ",y\n5,6,x\n")
w("trailing-comma.csv", "a,b,label,\n1,2,x,\n3,4,y,\n5,6,x,\n7,8,y,\n")
w("quoted-newline-label.csv", 'a,b,label\n1,2,"two\nlines"\n3,4,y\n5,6,"two\nlines"\n7,8,y\n')
w("mixed-line-ends.csv", "a,b,label\r1,2,x\r3,4,y\n5,6,x\r7,8,y\r")

# Other kinds of file.
w("document.pdf", "%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n")
w("workbook.xls", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 504)
w("data.h5", b"\x89HDF\r\n\x1a\n" + b"\x00" * 64)
w("data.csv.bz2", b"BZh91AY&SY" + b"\x00" * 30)
gz = gzip.compress(GOOD.encode() * 50, mtime=0)
w("truncated.csv.gz", gz[: len(gz) // 2])
bad = bytearray(gz)
for i in range(20, 40):
    bad[i] ^= 0x55
w("corrupt.csv.gz", bytes(bad))
w("twice.csv.gz.gz", gzip.compress(gzip.compress(GOOD.encode(), mtime=0), mtime=0))
w("binary.bin", bytes(range(256)) * 4)


# Workbooks, written by hand so that each holds one fault.
def xlsx(name, sheet, shared=None, extra=None, workbook=None):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>')
        z.writestr("_rels/.rels", '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>')
        z.writestr("xl/workbook.xml", workbook or '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="S1" sheetId="1" r:id="rId1"/></sheets></workbook>')
        rels = '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>'
        if shared is not None:
            rels += '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/>'
            z.writestr("xl/sharedStrings.xml", '<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">' + shared + "</sst>")
        z.writestr("xl/_rels/workbook.xml.rels", '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' + rels + "</Relationships>")
        z.writestr("xl/worksheets/sheet1.xml", '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>' + sheet + "</sheetData></worksheet>")
        for k, v in (extra or {}).items():
            z.writestr(k, v)
    w(name, buf.getvalue())


HEAD = '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c></row>'
SST = "<si><t>a</t></si><si><r><t>b</t></r><r><rPr/><t>ee</t></r><rPh><t>ignored</t></rPh></si><si><t>label</t></si><si><t>x</t></si><si><t>y</t></si>"


def row(r, *cells):
    out = '<row r="%d">' % r
    for ref, t, v in cells:
        tt = ' t="%s"' % t if t else ""
        out += '<c r="%s"%s><v>%s</v></c>' % (ref, tt, v)
    return out + "</row>"


body = row(2, ("A2", "", "1"), ("B2", "", "2"), ("C2", "s", "3")) + row(3, ("A3", "", "3"), ("B3", "", "4"), ("C3", "s", "4")) + \
    row(5, ("A5", "", "5"), ("C5", "s", "3")) + '<row r="6"><c r="A6" t="inlineStr"><is><t>7</t></is></c><c r="B6"><v>8</v></c><c r="C6" t="s"><v>4</v></c></row>'
xlsx("xlsx-shared-gaps.xlsx", HEAD + body, SST)
xlsx("xlsx-error-cell.xlsx", HEAD + row(2, ("A2", "", "1"), ("B2", "", "2"), ("C2", "s", "3")) + row(3, ("A3", "", "3"), ("B3", "e", "#DIV/0!"), ("C3", "s", "4")), SST)
xlsx("xlsx-outside-cell.xlsx", HEAD + row(2, ("A2", "", "1"), ("B2", "", "2"), ("C2", "s", "3")) + row(3, ("A3", "", "3"), ("B3", "", "4"), ("C3", "s", "4"), ("F3", "", "9")), SST)
xlsx("xlsx-bad-shared.xlsx", HEAD + row(2, ("A2", "", "1"), ("B2", "", "2"), ("C2", "s", "99")), SST)
xlsx("xlsx-bad-xml.xlsx", HEAD + '<row r="2"><c r="A2"><v>1</c></row>', SST)
xlsx("xlsx-no-sheets.xlsx", "", SST, workbook='<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheets/></workbook>')
xlsx("xlsx-empty-sheet.xlsx", "", SST)
with zipfile.ZipFile("not-a-workbook.zip", "w") as z:
    z.writestr("notes.txt", "nothing to see")
with zipfile.ZipFile("spreadsheet.ods", "w") as z:
    z.writestr("mimetype", "application/vnd.oasis.opendocument.spreadsheet")
    z.writestr("content.xml", "<office:document-content/>")
with open("../formats/table.xlsx", "rb") as f:
    whole = f.read()
w("truncated.xlsx", whole[: len(whole) // 2])

# ARFF.
ARFF_HEAD = "@relation r\n@attribute a numeric\n@attribute b numeric\n@attribute class {x,y}\n@data\n"
w("arff-no-data.arff", "@relation r\n@attribute a numeric\n@attribute class {x,y}\n")
w("arff-bad-nominal.arff", "@relation r\n@attribute a numeric\n@attribute color {red,green}\n@attribute class {x,y}\n@data\n1,red,x\n2,green,y\n3,purple,x\n")
w("arff-string-feature.arff", "@relation r\n@attribute name string\n@attribute a numeric\n@attribute class {x,y}\n@data\n'p',1,x\n'q',2,y\n")
w("arff-relational.arff", "@relation r\n@attribute bag relational\n@attribute a numeric\n@end bag\n@attribute class {x,y}\n@data\n")
w("arff-wrong-count.arff", ARFF_HEAD + "1,2,x\n3,y\n")
w("arff-weights.arff", ARFF_HEAD + "1,2,x,{2}\n3,4,y,{1}\n5,6,x\n7,8,y\n")
w("arff-nominal-feature.arff", "@relation r\n@attribute a numeric\n@attribute color {red,green,blue}\n@attribute class {x,y}\n@data\n1,red,x\n2,green,y\n3,blue,x\n4,red,y\n")
w("arff-unclosed-quote.arff", "@relation r\n@attribute a numeric\n@attribute class {'x y',z}\n@data\n1,'x y\n2,z\n")
w("arff-sparse-bad-index.arff", ARFF_HEAD + "{0 1, 2 x}\n{0 3, 7 4}\n")
w("arff-quoted-names.arff", "% quoted names and values\n@RELATION 'r r'\n@ATTRIBUTE 'first feature' REAL\n@ATTRIBUTE \"second\" INTEGER\n@ATTRIBUTE 'the class' {'a b', c}\n@DATA\n1.5, 2, 'a b'\n? , 3, c\n4, 5, 'a b'\n6, ?, c\n")
w("arff-bad-number.arff", ARFF_HEAD + "1,2,x\n3,1e999,y\n")

# LIBSVM.
w("libsvm-zero-index.libsvm", "1 0:1 2:3\n2 1:4 2:5\n")
w("libsvm-duplicate.libsvm", "1 1:1 3:3 3:4\n2 1:4\n")
w("libsvm-multilabel.libsvm", "1,2 1:1 2:3\n2 1:4\n")
w("libsvm-bad-value.libsvm", "1 1:1 2:abc\n2 1:4\n")
w("libsvm-unsorted.libsvm", "1 3:3 1:1\n2 2:5 1:4\n1 1:2\n2 3:1\n")
w("libsvm-huge-index.libsvm", "1 4000000000:1\n2 1:1\n")
w("libsvm-label-text.libsvm", "yes 1:1 2:3\nno 1:4\n")

# MAT-files.
X = np.array([[1.0, 2], [3, 4], [5, 6], [7, 8]])
Y = np.array([[1], [2], [1], [2]])
hdr = b"MATLAB 7.3 MAT-file, Platform: GLNXA64, Created on: Mon Jan  1 00:00:00 2024 HDF5 schema 1.00 ."
w("v73.mat", hdr.ljust(116, b" ") + b"\x00" * 8 + struct.pack("<H", 0x0200) + b"IM" + b"\x00" * 384 + b"\x89HDF\r\n\x1a\n" + b"\x00" * 64)
buf = io.BytesIO()
sio.savemat(buf, {"X": X, "Y": Y})
whole = buf.getvalue()
w("mat-truncated.mat", whole[: len(whole) - 40])
sio.savemat("mat-no-y.mat", {"X": X})
sio.savemat("mat-y-length.mat", {"X": X, "Y": np.array([[1], [2], [1]])})
sio.savemat("mat-transposed.mat", {"X": X.T.copy(), "Y": Y})
sio.savemat("mat-nan.mat", {"X": np.array([[1.0, np.nan], [3, 4], [5, 6], [7, 8]]), "Y": Y})
sio.savemat("mat-inf.mat", {"X": np.array([[1.0, 2], [3, np.inf], [5, 6], [7, 8]]), "Y": Y})
# A header declaring X as 100,000 × 100,000 (10^10 cells) with no data.
def tag(t, n):
    return struct.pack("<II", t, n)
name = b"X"
sub = tag(6, 8) + struct.pack("<II", 6, 0) + tag(5, 8) + struct.pack("<ii", 100000, 100000) + tag(1, 1) + name + b"\x00" * 7 + tag(9, 0)
w("mat-huge-dims.mat", b"MATLAB 5.0 MAT-file".ljust(116, b" ") + b"\x00" * 8 + struct.pack("<H", 0x0100) + b"IM" + tag(14, len(sub)) + sub)
w("mat-garbage.mat", b"MATLAB 5.0 MAT-file".ljust(116, b" ") + b"\x00" * 8 + struct.pack("<H", 0x0100) + b"IM" + b"\xff" * 40)
print("written")
