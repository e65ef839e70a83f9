package catalog_test

import (
	"slices"
	"strings"
	"testing"

	"catalog/internal/catalog"
)

func TestSearchTerms(t *testing.T) {
	tests := []struct {
		name, q string
		want    []string
	}{
		{"empty", "", nil},
		{"spaces only", "   ", nil},
		{"white space only", " \t\n\u3000 ", nil},
		{"one word", "Sunset", []string{"sunset"}},
		{"several words", "  Sunset   over\tthe BAY ", []string{"sunset", "over", "the", "bay"}},
		{"duplicates collapsed", "bay Bay BAY sea", []string{"bay", "sea"}},
		{"accents kept, case folded", "CAFÉ Déjà", []string{"café", "déjà"}},
		{"sharp s", "STRASSE straße", []string{"strasse"}},
		{"greek final sigma", "ΟΔΥΣΣΕΥΣ οδυσσευς", []string{"οδυσσευσ"}},
		{"greek final sigma alone", "ς", []string{"σ"}},
		{"thai unchanged", "คลิปหลุด ทวิต", []string{"คลิปหลุด", "ทวิต"}},
		{"cjk unchanged", "東京 タワー 서울", []string{"東京", "タワー", "서울"}},
		{"nfd input composed", "Cafe\u0301", []string{"café"}},
		{"nfc and nfd duplicates", "café Cafe\u0301", []string{"café"}},
		{"ideographic space separates", "東京\u3000タワー", []string{"東京", "タワー"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := catalog.SearchTerms(tt.q)
			if !slices.Equal(got, tt.want) {
				t.Errorf("SearchTerms(%q) = %q, want %q", tt.q, got, tt.want)
			}
			if tt.want == nil && got != nil {
				t.Errorf("SearchTerms(%q) = %#v, want nil (no filter)", tt.q, got)
			}
		})
	}
}

func TestFold(t *testing.T) {
	equal := []struct{ a, b string }{
		{"Sunset Over The Bay", "sunset over the bay"},
		{"CAFÉ", "café"},
		{"Cafe\u0301", "café"}, // NFD vs NFC
		{"CAFE\u0301", "Café"}, // NFD upper vs NFC mixed
		{"Ångström", "A\u030angstro\u0308m"},
		{"ΣΊΣΥΦΟΣ", "σίσυφος"}, // final sigma
		{"Straße", "STRASSE"},
		{"คลิปหลุด", "คลิปหลุด"},
		{"東京タワー", "東京タワー"},
	}
	for _, tt := range equal {
		if fa, fb := catalog.Fold(tt.a), catalog.Fold(tt.b); fa != fb {
			t.Errorf("Fold(%q) = %q, Fold(%q) = %q, want equal", tt.a, fa, tt.b, fb)
		}
	}
	unchanged := []string{"คลิปหลุด", "ทวิต", "東京タワー", "서울", "abc 123", ""}
	for _, s := range unchanged {
		if got := catalog.Fold(s); got != s {
			t.Errorf("Fold(%q) = %q, want it unchanged", s, got)
		}
	}
	// A folded term is found inside a folded title whatever the case and
	// normal form of either side: this is how stores match.
	title := catalog.Fold("Sunset over the BAY at CAFÉ Déjà Vu — คลิปหลุด 東京")
	for _, q := range []string{"bay", "Cafe\u0301", "DÉJÀ", "หลุด", "東京", "vu —"} {
		for _, term := range catalog.SearchTerms(q) {
			if !strings.Contains(title, term) {
				t.Errorf("term %q of %q not found in folded title %q", term, q, title)
			}
		}
	}
}
