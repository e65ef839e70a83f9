package importer

import "strings"

// formulaStart are the first characters that make a spreadsheet run a
// cell as a formula (=HYPERLINK(...), @SUM(...), -2+3), or, for tab and
// carriage return, hide one.
const formulaStart = "=+-@\t\r"

// EscapeFormula is the CSV cell that export writes for v: v with a
// leading "'" when a spreadsheet would take it for a formula, which the
// spreadsheet then shows as text. A value that already reads as an
// escaped one (apostrophes, then one of formulaStart) gets one more, so
// that UnescapeFormula gives every value back byte for byte.
func EscapeFormula(v string) string {
	if startsFormula(v) {
		return "'" + v
	}
	return v
}

// UnescapeFormula is what the importer reads from a CSV cell: the value
// EscapeFormula was given.
func UnescapeFormula(cell string) string {
	if strings.HasPrefix(cell, "'") && startsFormula(cell) {
		return cell[1:]
	}
	return cell
}

// startsFormula reports whether v, past any leading apostrophes, starts
// with one of formulaStart.
func startsFormula(v string) bool {
	rest := strings.TrimLeft(v, "'")
	return rest != "" && strings.IndexByte(formulaStart, rest[0]) >= 0
}
