package dataset

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// isMissing reports whether a cell's text (trimmed of spaces) marks a
// missing value: empty, NA, N/A, NaN, null, ? or #N/A, in any case.

func isMissing(s string) bool {
	switch len(s) {
	case 0:
		return true
	case 1:
		return s == "?"
	case 2:
		return strings.EqualFold(s, "na")
	case 3:
		return strings.EqualFold(s, "n/a") || strings.EqualFold(s, "nan")
	case 4:
		return strings.EqualFold(s, "null") || strings.EqualFold(s, "#n/a")
	}
	return false
}

// numStatus is what parseNumber found.
type numStatus uint8

const (
	numOK         numStatus = iota
	numBad                  // not a number
	numRange                // a number beyond ±1.8e308
	numInf                  // Inf or Infinity
	numHex                  // Go's hexadecimal float syntax (0x1p-2)
	numUnderscore           // Go's digit separators (1_000)
)

// parseNumber parses a cell as a decimal number: an optional sign, digits
// with an optional decimal point, an optional exponent. strconv.ParseFloat
// also accepts Go's literal syntax (hexadecimal mantissas, underscores
// between digits), which no CSV writer produces and which would turn a
// typing slip into a number; those are refused. With decimalComma, a
// number with one comma and no point ("1,5", as spreadsheets in many
// locales write it) is accepted too.
func parseNumber(s string, decimalComma bool) (float64, numStatus) {
	v, err := strconv.ParseFloat(s, 64)
	if err == nil || errors.Is(err, strconv.ErrRange) {
		switch {
		case isHex(s):
			return 0, numHex
		case strings.IndexByte(s, '_') >= 0:
			return 0, numUnderscore
		case math.IsNaN(v):
			return 0, numBad
		case err != nil:
			return v, numRange
		case math.IsInf(v, 0):
			return v, numInf
		}
		return v, numOK
	}
	if decimalComma && strings.Count(s, ",") == 1 && !strings.Contains(s, ".") {
		return parseNumber(strings.Replace(s, ",", ".", 1), false)
	}
	return 0, numBad
}

// isHex reports whether s starts with a hexadecimal prefix (0x, after an
// optional sign).
func isHex(s string) bool {
	if len(s) > 0 && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	return len(s) >= 2 && s[0] == '0' && s[1]|0x20 == 'x'
}

// numberMessage explains why cell s is not a number a feature can hold;
// what is the column's role ("every column but the label must be numeric",
// for instance) for the not-a-number case.
func numberMessage(s string, st numStatus, what string) string {
	switch st {
	case numRange:
		return fmt.Sprintf("%s is out of range: a number's magnitude must be below 1.8e308", quote(s))
	case numInf:
		return fmt.Sprintf("%s is infinite", quote(s))
	case numHex:
		return fmt.Sprintf("%s is a hexadecimal number, which a table's cell cannot be: write it in decimal", quote(s))
	case numUnderscore:
		return fmt.Sprintf("%s has an underscore between digits, which a table's number cannot have: write it without", quote(s))
	}
	return fmt.Sprintf("%s is not a number (%s)", quote(s), what)
}

// numberText writes a number read from a binary or typed format (a
// workbook's cell, a LIBSVM or MATLAB label) as a CSV writer would: an
// integer without a decimal point or exponent, anything else in the
// shortest form that reads back exactly. The same labels then give the same
// classes in every format.
func numberText(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		if v == 0 {
			return "0" // not "-0"
		}
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// cp1252 holds the characters of bytes 0x80–0x9F in Windows-1252 (the
// rest of the high half is Latin-1, byte = code point); 0 marks the five
// bytes the code page leaves undefined.
var cp1252 = [32]rune{
	'€', 0, '‚', 'ƒ', '„', '…', '†', '‡', 'ˆ', '‰', 'Š', '‹', 'Œ', 0, 'Ž', 0,
	0, '‘', '’', '“', '”', '•', '–', '—', '˜', '™', 'š', '›', 'œ', 0, 'ž', 'Ÿ',
}

// fromCP1252 decodes s as Windows-1252 (the code page of spreadsheets saved
// on Windows in Western locales, a superset of Latin-1's printable
// characters), an undefined byte as U+FFFD.
func fromCP1252(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c < 0x80:
			b.WriteByte(c)
		case c < 0xA0:
			r := cp1252[c-0x80]
			if r == 0 {
				r = utf8.RuneError
			}
			b.WriteRune(r)
		default:
			b.WriteRune(rune(c))
		}
	}
	return b.String()
}

// badByte returns the first byte of s that is not part of valid UTF-8.
func badByte(s string) byte {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			return s[i]
		}
		i += size
	}
	return 0
}
