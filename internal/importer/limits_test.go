package importer_test

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"catalog/internal/catalog"
	"catalog/internal/importer"
)

// Ids above 2^53-1 (9007199254740991) reject their record, naming the
// line, in every format; the records around them are imported, and a
// later movie still gets an id.
func TestIDsAbove2To53Rejected(t *testing.T) {
	for name, input := range map[string]string{
		"m.jsonl": `{"id":9007199254740991,"name":"largest"}
{"id":9007199254740992,"name":"one past"}
{"id":9223372036854775807,"name":"int64 max"}
{"id":99999999999999999999,"name":"past int64"}
{"name":"no id"}
`,
		"m.json": `[{"id":9007199254740991,"name":"largest"},
{"id":9007199254740992,"name":"one past"},
{"id":9223372036854775807,"name":"int64 max"},
{"id":99999999999999999999,"name":"past int64"},
{"name":"no id"}]`,
		"m.csv": "id,name\n9007199254740991,largest\n9007199254740992,one past\n9223372036854775807,int64 max\n99999999999999999999,past int64\n,no id\n",
	} {
		t.Run(name, func(t *testing.T) {
			s := openStore(t)
			sum := importMovies(t, s, name, input, importer.Options{})
			wantSummary(t, sum, 5, 2, 3)
			first := 2
			if strings.HasSuffix(name, ".csv") {
				first = 3
			}
			wantRejects(t, sum, map[int]string{
				first: "id: must be at most 9007199254740991", first + 1: "id: must be at most 9007199254740991",
				first + 2: "id: must be at most 9007199254740991"})
			c := catalog.Clip{Title: "after", IframeURL: "https://example.com/v"}
			if err := s.CreateClip(context.Background(), &c); err != nil {
				t.Fatalf("CreateClip after the import: %v", err)
			}
		})
	}
}

// brokenOff reads as s, then fails as a connection that broke off.
type brokenOff struct{ r *strings.Reader }

func (b brokenOff) Read(p []byte) (int, error) {
	if b.r.Len() == 0 {
		return 0, io.ErrUnexpectedEOF
	}
	return b.r.Read(p)
}

// An input that breaks off (a cut upload) still writes every record read
// whole before the break, and says where the last one starts; the line
// the break cut short is neither written nor rejected.
func TestInputBrokenOffKeepsWhatWasRead(t *testing.T) {
	for name, input := range map[string]string{
		"m.jsonl": "{\"name\":\"one\"}\n{\"name\":\"\"}\n{\"name\":\"three\"}\n{\"name\":\"fo",
		"m.json":  "[{\"name\":\"one\"},\n{\"name\":\"\"},\n{\"name\":\"three\"},\n{\"name\":\"fo",
		"m.csv":   "name\none\n\"\"\nthree\nfo",
	} {
		t.Run(name, func(t *testing.T) {
			s := openStore(t)
			sum, err := importer.Movies(context.Background(), s, name, brokenOff{strings.NewReader(input)}, importer.Options{})
			if !errors.Is(err, io.ErrUnexpectedEOF) {
				t.Fatalf("error: got %v, want the input's", err)
			}
			last := 3
			if name == "m.csv" {
				last = 4
			}
			if sum.Imported != 2 || sum.LastLine != last {
				t.Fatalf("summary: got %d imported up to line %d, want 2 up to line %d (%+v)", sum.Imported, sum.LastLine, last, sum)
			}
			if n, _ := s.CountMovies(context.Background()); n != 2 {
				t.Fatalf("movies stored: got %d, want 2", n)
			}
		})
	}
}
