package catalog_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"catalog/internal/catalog"
)

// words returns n distinct words "w1 w2 ... wn".
func words(n int) string {
	w := make([]string, n)
	for i := range w {
		w[i] = fmt.Sprintf("w%d", i+1)
	}
	return strings.Join(w, " ")
}

// The numbers of contract 2 (256 characters after trimming, 16 distinct
// words) are written out here, not taken from the constants.
func TestParseSearchLimits(t *testing.T) {
	tests := []struct {
		name    string
		q       string
		wantErr string // "" = accepted
	}{
		{"empty", "", ""},
		{"256 characters", strings.Repeat("a", 256), ""},
		{"257 characters", strings.Repeat("a", 257), "q must be at most 256 characters"},
		{"256 characters inside spaces", "   " + strings.Repeat("a", 256) + "   ", ""},
		{"256 Thai characters (768 bytes)", strings.Repeat("ก", 256), ""},
		{"257 Thai characters", strings.Repeat("ก", 257), "q must be at most 256 characters"},
		{"256 characters with ideographic spaces", strings.Repeat("東\u3000", 128), ""},
		{"16 distinct words", words(16), ""},
		{"17 distinct words", words(17), "q must have at most 16 distinct words"},
		{"16 distinct words repeated", words(16) + " " + strings.ToUpper(words(16)), ""},
		{"100 KB of words", strings.Repeat("abcd ", 20000), "q must be at most 256 characters"},
		{"NUL", "abc\x00def", "q must not contain control characters"},
		{"tab", "a\tb", "q must not contain control characters"},
		{"newline at the end", "abc\n", "q must not contain control characters"},
		{"U+001F", "a\x1fb", "q must not contain control characters"},
		{"DEL", "a\x7fb", "q must not contain control characters"},
		{"invalid UTF-8", "caf\xe9", "q must be valid UTF-8"},
		{"truncated UTF-8", "\xe0\xb8", "q must be valid UTF-8"},
		{"encoded surrogate", "\xed\xa0\x80", "q must be valid UTF-8"},
		{"long run of spaces then a word", strings.Repeat(" ", 5000) + "bay", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			terms, err := catalog.ParseSearch("q", tt.q)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("ParseSearch(%.40q): %v, want accepted", tt.q, err)
				}
				if want := catalog.SearchTerms(tt.q); !slices.Equal(terms, want) {
					t.Errorf("terms = %q, want %q", terms, want)
				}
				return
			}
			if catalog.ErrorCode(err) != catalog.EINVALID || catalog.ErrorMessage(err) != tt.wantErr {
				t.Fatalf("ParseSearch(%.40q) = %v, want EINVALID %q", tt.q, err, tt.wantErr)
			}
		})
	}
}

func TestParseSearchNamesParameter(t *testing.T) {
	_, err := catalog.ParseSearch("wd", strings.Repeat("x", 300))
	if got, want := catalog.ErrorMessage(err), "wd must be at most 256 characters"; got != want {
		t.Errorf("message %q, want %q", got, want)
	}
}

func TestSearchTermsManyRepeats(t *testing.T) {
	// 20,000 words of which 2 are distinct: the set keeps the first of each.
	got := catalog.SearchTerms(strings.Repeat("abcd ABCD efgh ", 10000))
	if want := []string{"abcd", "efgh"}; !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// BenchmarkParseSearchHostile is a 100 KB q of 20,000 distinct words: it
// must be refused without folding or deduplicating them.
func BenchmarkParseSearchHostile(b *testing.B) {
	var sb strings.Builder
	for i := range 20000 {
		fmt.Fprintf(&sb, "%04x ", i)
	}
	q := sb.String()
	b.SetBytes(int64(len(q)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := catalog.ParseSearch("q", q); err == nil {
			b.Fatal("accepted")
		}
	}
}

// BenchmarkSearchTermsDistinct is the dedupe of 20,000 distinct words
// (what an unbounded q cost before the limits: a quadratic scan).
func BenchmarkSearchTermsDistinct(b *testing.B) {
	var sb strings.Builder
	for i := range 20000 {
		fmt.Fprintf(&sb, "%04x ", i)
	}
	q := sb.String()
	b.ReportAllocs()
	for b.Loop() {
		catalog.SearchTerms(q)
	}
}
