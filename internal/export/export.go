// Package export writes every clip or movie in the importer's record
// form (contract 4.6 for movies, contract 3.5 plus id and created_at for clips),
// as JSON Lines or CSV, so that importing the output into an empty
// database gives the same API answers. Records stream from the store
// lowest id first, one at a time, so memory does not grow with the
// catalog.
//
// CSV list cells hold the items separated by "|", as the importer reads
// them. Two lists need more care, because the importer falls back to
// commas in a cell without "|":
//   - one item that holds a comma is written with a trailing "|"
//     ("Smith, John|"), which the importer reads as that one item;
//   - a list with an item holding "|", or whose first item starts with
//     "[", is written as a JSON array of strings (["a|b","c"]), which
//     the importer reads as that array.
//
// A CSV cell that a spreadsheet would run as a formula (it starts with
// =, +, -, @, a tab or a carriage return) is written with a leading "'",
// which the importer strips, so the round trip stays byte-exact.
package export

import (
	"bufio"
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"catalog/internal/catalog"
	"catalog/internal/importer"
)

// Format is an output format.
type Format int

const (
	JSONL Format = iota // one JSON object per line
	CSV                 // a header row, then one row per record
)

// ParseFormat reads a --format value: jsonl or csv.
func ParseFormat(s string) (Format, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "jsonl", "ndjson":
		return JSONL, nil
	case "csv":
		return CSV, nil
	}
	return 0, fmt.Errorf("unknown format %q: use jsonl or csv", s)
}

func (f Format) String() string {
	if f == CSV {
		return "csv"
	}
	return "jsonl"
}

// Progress, when set, is called once per record written.
type Progress func()

// MovieColumns are the members of an exported movie, in output order
// (contract 4.6).
var MovieColumns = catalog.MovieMembers()

// ClipColumns are the members of an exported clip: the create fields
// (contract 3.5) plus the id and created_at that an import may set.
var ClipColumns = slices.Concat([]string{"id", "created_at"}, catalog.ClipFields)

// Movies writes every movie of store to w and returns how many.
func Movies(ctx context.Context, store catalog.MovieStore, w io.Writer, f Format, progress Progress) (int64, error) {
	var enc encoder[catalog.Movie]
	if f == CSV {
		enc = newCSV(w, MovieColumns, movieCells)
	} else {
		enc = newJSONL(w, appendMovie)
	}
	return run(ctx, enc, progress, store.ExportMovies)
}

// Clips writes every clip of store to w and returns how many.
func Clips(ctx context.Context, store catalog.ClipStore, w io.Writer, f Format, progress Progress) (int64, error) {
	var enc encoder[catalog.Clip]
	if f == CSV {
		enc = newCSV(w, ClipColumns, clipCells)
	} else {
		enc = newJSONL(w, appendClip)
	}
	return run(ctx, enc, progress, store.ExportClips)
}

// encoder writes records of one kind in one format.
type encoder[T any] interface {
	start() error
	write(v *T) error
	flush() error
}

func run[T any](ctx context.Context, enc encoder[T], progress Progress, each func(context.Context, func(*T) error) error) (int64, error) {
	if err := enc.start(); err != nil {
		return 0, err
	}
	var n int64
	err := each(ctx, func(v *T) error {
		if err := enc.write(v); err != nil {
			return err
		}
		n++
		if progress != nil {
			progress()
		}
		return nil
	})
	if err != nil {
		return n, err
	}
	return n, enc.flush()
}

// jsonl writes one object per line through a buffer.
type jsonl[T any] struct {
	w   *bufio.Writer
	buf []byte
	add func([]byte, *T) []byte
}

func newJSONL[T any](w io.Writer, add func([]byte, *T) []byte) *jsonl[T] {
	return &jsonl[T]{w: bufio.NewWriterSize(w, 256<<10), buf: make([]byte, 0, 4<<10), add: add}
}

func (j *jsonl[T]) start() error { return nil }

func (j *jsonl[T]) write(v *T) error {
	j.buf = append(j.add(j.buf[:0], v), '\n')
	_, err := j.w.Write(j.buf)
	return err
}

func (j *jsonl[T]) flush() error { return j.w.Flush() }

// appendMovie appends m as a JSON object with the members of
// MovieColumns. The lists are the stored JSON arrays, written as they are.
func appendMovie(b []byte, m *catalog.Movie) []byte {
	b = append(b, `{"id":`...)
	b = strconv.AppendInt(b, m.ID, 10)
	catalog.EachMovieMember(m, func(name string, v catalog.MemberValue) {
		if v.Kind == catalog.MemberText {
			b = appendMember(b, name, v.Text)
			return
		}
		b = append(b, ',', '"')
		b = append(b, name...)
		b = append(b, '"', ':')
		switch {
		case v.Kind == catalog.MemberInt:
			b = strconv.AppendInt(b, v.Int, 10)
		case v.Kind == catalog.MemberEpisodes:
			b = catalog.AppendEpisodesJSON(b, v.Episodes)
		case v.List.JSON == "":
			b = append(b, "[]"...)
		default:
			b = append(b, v.List.JSON...)
		}
	})
	return append(b, '}')
}

func appendClip(b []byte, c *catalog.Clip) []byte {
	b = append(b, `{"id":`...)
	b = strconv.AppendInt(b, c.ID, 10)
	for i, v := range clipCells(c)[1:] {
		b = appendMember(b, ClipColumns[i+1], v)
	}
	return append(b, '}')
}

// appendMember appends ,"name":"value".
func appendMember(b []byte, name, value string) []byte {
	b = append(b, ',', '"')
	b = append(b, name...)
	b = append(b, '"', ':')
	return catalog.AppendJSONString(b, value)
}

// csvEncoder writes a header row and one row per record.
type csvEncoder[T any] struct {
	w      *csv.Writer
	header []string
	cells  func(*T) []string
}

// newCSV writes through a 256 KB buffer: csv.NewWriter's own
// bufio.NewWriter returns a *bufio.Writer of at least 4 KB as it is, so
// csv.Writer.Flush empties this one.
func newCSV[T any](w io.Writer, header []string, cells func(*T) []string) *csvEncoder[T] {
	return &csvEncoder[T]{w: csv.NewWriter(bufio.NewWriterSize(w, 256<<10)), header: header, cells: cells}
}

func (c *csvEncoder[T]) start() error { return c.w.Write(c.header) }

// write writes v's row, every cell escaped for spreadsheets
// (importer.EscapeFormula), which the importer undoes.
func (c *csvEncoder[T]) write(v *T) error {
	row := c.cells(v)
	for i, cell := range row {
		row[i] = importer.EscapeFormula(cell)
	}
	return c.w.Write(row)
}

// flush empties the buffer (see newCSV).
func (c *csvEncoder[T]) flush() error {
	c.w.Flush()
	return c.w.Error()
}

func movieCells(m *catalog.Movie) []string {
	row := make([]string, 0, len(MovieColumns))
	row = append(row, strconv.FormatInt(m.ID, 10))
	catalog.EachMovieMember(m, func(_ string, v catalog.MemberValue) {
		switch v.Kind {
		case catalog.MemberList:
			row = append(row, ListCell(*v.List))
		case catalog.MemberEpisodes:
			row = append(row, EpisodesCell(v.Episodes))
		case catalog.MemberInt:
			row = append(row, strconv.FormatInt(v.Int, 10))
		default:
			row = append(row, v.Text)
		}
	})
	return row
}

func clipCells(c *catalog.Clip) []string {
	row := make([]string, 0, len(ClipColumns))
	row = append(row, strconv.FormatInt(c.ID, 10), c.CreatedAt.UTC().Format(time.RFC3339))
	catalog.EachClipField(c, func(_, value string) { row = append(row, value) })
	return row
}

// EpisodesCell is the CSV cell of a movie's episodes: their JSON text
// (contract 9), empty when there are none.
func EpisodesCell(servers []catalog.Server) string {
	if len(servers) == 0 {
		return ""
	}
	return catalog.EpisodesJSON(servers)
}

// ListCell is the CSV cell of a list (see the package comment).
func ListCell(l catalog.List) string {
	if l.JSON == "" || l.JSON == "[]" {
		return ""
	}
	var items []string
	catalog.ListItems(l.JSON, func(it string) { items = append(items, it) })
	if len(items) == 0 {
		// Stored lists are always arrays of strings; keep the stored
		// form rather than lose the value.
		return l.JSON
	}
	if strings.HasPrefix(items[0], "[") || strings.Contains(l.JSON, "|") {
		return l.JSON
	}
	cell := strings.Join(items, "|")
	if len(items) == 1 && strings.Contains(cell, ",") {
		cell += "|"
	}
	return cell
}
