package catalog_test

import (
	"testing"

	"catalog/internal/catalog"
)

// A score is stored with one decimal from 0.0 to 10.0 (contract 12);
// the forms people write it in are accepted, anything else is refused.
func TestNormalizeScore(t *testing.T) {
	tests := []struct {
		in, want string
		ok       bool
	}{
		{"", "", true},
		{"  ", "", true},
		{"7.5", "7.5", true},
		{"8", "8.0", true},
		{" 08.50 ", "8.5", true},
		{"0", "0.0", true},
		{"0.0", "0.0", true},
		{".5", "0.5", true},
		{"10", "10.0", true},
		{"10.00", "10.0", true},
		{"9.9", "9.9", true},
		{"10.1", "", false},
		{"11", "", false},
		{"100", "", false},
		{"7.55", "", false},
		{"-1", "", false},
		{"+5", "", false},
		{"1e1", "", false},
		{"7,5", "", false},
		{".", "", false},
		{"NaN", "", false},
		{"٧.٥", "", false}, // Arabic-Indic digits are not ASCII digits
		{"7.5.1", "", false},
	}
	for _, tt := range tests {
		got, problem := catalog.NormalizeScore(tt.in)
		if (problem == "") != tt.ok || (tt.ok && got != tt.want) {
			t.Errorf("NormalizeScore(%q) = %q, %q; want %q, ok %v", tt.in, got, problem, tt.want, tt.ok)
		}
	}
}

func TestNormalizeDoubanID(t *testing.T) {
	tests := []struct {
		in, want string
		ok       bool
	}{
		{"", "", true},
		{"1292052", "1292052", true},
		{" 1292052 ", "1292052", true},
		{"0", "", true}, // MacCMS's "none"
		{"000", "", true},
		{"0042", "42", true},
		{"999999999999999", "999999999999999", true},
		{"1000000000000000", "", false}, // 16 digits
		{"12a", "", false},
		{"-5", "", false},
		{"1.0", "", false},
		{"https://movie.douban.com/subject/1292052/", "", false},
	}
	for _, tt := range tests {
		got, problem := catalog.NormalizeDoubanID(tt.in)
		if (problem == "") != tt.ok || (tt.ok && got != tt.want) {
			t.Errorf("NormalizeDoubanID(%q) = %q, %q; want %q, ok %v", tt.in, got, problem, tt.want, tt.ok)
		}
	}
}

// Normalize applies both forms: stored values come out normalised, and
// a bad value is a field error naming the member.
func TestMovieNormalizeScore(t *testing.T) {
	m := catalog.Movie{Name: "Scored", Score: " 8 ", DoubanID: "01292052"}
	if err := m.Normalize(); err != nil || m.Score != "8.0" || m.DoubanID != "1292052" {
		t.Errorf("Normalize: score %q, douban_id %q, %v; want 8.0, 1292052, nil", m.Score, m.DoubanID, err)
	}
	m = catalog.Movie{Name: "Scored", Score: "11", DoubanID: "tt0111161"}
	err := m.Normalize()
	if got := errorFields(t, err); len(got) != 2 || got[0] != "douban_id" || got[1] != "score" {
		t.Errorf("failing fields = %q, want douban_id and score", got)
	}
}

func TestScoreNumbers(t *testing.T) {
	for id, want := range map[string]int64{"": 0, "1292052": 1292052} {
		if got := catalog.DoubanNumber(id); got != want {
			t.Errorf("DoubanNumber(%q) = %d, want %d", id, got, want)
		}
	}
}
