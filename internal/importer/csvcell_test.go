package importer_test

import (
	"testing"

	"catalog/internal/importer"
)

func TestFormulaEscape(t *testing.T) {
	for _, tc := range []struct{ value, cell string }{
		{"=1+1", "'=1+1"}, {"+1", "'+1"}, {"-2+3", "'-2+3"}, {"@SUM(A1)", "'@SUM(A1)"}, {"\tx", "'\tx"}, {"\rx", "'\rx"},
		{"'=x", "''=x"}, {"''-x", "'''-x"}, {"'Til", "'Til"}, {"'", "'"}, {"", ""}, {"a=b", "a=b"}, {"รัก", "รัก"},
	} {
		if got := importer.EscapeFormula(tc.value); got != tc.cell {
			t.Errorf("EscapeFormula(%q): got %q, want %q", tc.value, got, tc.cell)
		}
		if got := importer.UnescapeFormula(tc.cell); got != tc.value {
			t.Errorf("UnescapeFormula(%q): got %q, want %q", tc.cell, got, tc.value)
		}
	}
}
