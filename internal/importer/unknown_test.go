package importer_test

import (
	"context"
	"strings"
	"testing"

	"catalog/internal/importer"
)

// Contract 4.6: a member that is not a known field rejects the record,
// naming the member; the records around it are imported. Every format,
// both record kinds, and both JSON paths (the fast flat-object one and
// the general one, which a nested value forces).
func TestUnknownMemberRejectsRecord(t *testing.T) {
	const (
		movieA = `{"name": "Before", "id_code": "U-1"}`
		movieB = `{"name": "After", "id_code": "U-2"}`
		clipA  = `{"title": "Before", "iframe_url": "https://dai.ly/x1"}`
		clipB  = `{"title": "After", "iframe_url": "https://dai.ly/x2"}`
	)
	tests := []struct {
		name, file, input string
		clips             bool
		want              string
	}{
		{"movie jsonl fast path", "m.jsonl", movieA + "\n" + `{"name": "X", "rating": "5"}` + "\n" + movieB, false, `rating: is not a known field`},
		{"movie jsonl general path", "m.jsonl", movieA + "\n" + `{"name": "X", "extra": {"a": [1]}}` + "\n" + movieB, false, `extra: is not a known field`},
		{"movie jsonl case differs", "m.jsonl", movieA + "\n" + `{"Name": "X"}` + "\n" + movieB, false, `Name: is not a known field`},
		{"movie json array", "m.json", "[" + movieA + ",\n" + `{"name": "X", "rating": 5}` + ",\n" + movieB + "]", false, `rating: is not a known field`},
		{"clip jsonl fast path", "c.jsonl", clipA + "\n" + `{"title": "X", "iframe_url": "https://dai.ly/x3", "views": "3"}` + "\n" + clipB, true, `views: is not a known field`},
		{"clip jsonl general path", "c.jsonl", clipA + "\n" + `{"title": "X", "iframe_url": "https://dai.ly/x3", "meta": {}}` + "\n" + clipB, true, `meta: is not a known field`},
		{"clip json array", "c.json", "[" + clipA + ",\n" + `{"title": "X", "iframe_url": "https://dai.ly/x3", "views": 3}` + ",\n" + clipB + "]", true, `views: is not a known field`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := openStore(t)
			var sum importer.Summary
			var err error
			if tc.clips {
				sum, err = importer.Clips(context.Background(), s, defaultPlatforms(t), tc.file, strings.NewReader(tc.input), importer.Options{})
			} else {
				sum, err = importer.Movies(context.Background(), s, tc.file, strings.NewReader(tc.input), importer.Options{})
			}
			if err != nil {
				t.Fatal(err)
			}
			wantSummary(t, sum, 3, 2, 1)
			wantRejects(t, sum, map[int]string{2: tc.want})
		})
	}
	// CSV carries members as columns: an unknown column is named and no
	// row is written.
	t.Run("movie csv", func(t *testing.T) {
		s := openStore(t)
		sum := importMovies(t, s, "m.csv", "name,id_code,rating\nA,U-1,5\nB,U-2,4\n", importer.Options{})
		wantRejects(t, sum, map[int]string{1: `unknown column "rating"`})
		if n := len(allMovies(t, s)); n != 0 {
			t.Errorf("stored %d movies, want none", n)
		}
	})
	t.Run("clip csv", func(t *testing.T) {
		s := openStore(t)
		sum, err := importer.Clips(context.Background(), s, defaultPlatforms(t), "c.csv",
			strings.NewReader("title,iframe_url,views\nA,https://dai.ly/x1,3\n"), importer.Options{})
		if err != nil {
			t.Fatal(err)
		}
		wantRejects(t, sum, map[int]string{1: `unknown column "views"`})
		if sum.Imported != 0 {
			t.Errorf("imported %d clips, want none", sum.Imported)
		}
	})
}
