package importer

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
)

// valueKind is the JSON type of a member's value.
type valueKind uint8

const (
	kindNull valueKind = iota // null, or an empty CSV cell: absent
	kindString
	kindNumber
	kindList
	kindRaw   // an array of objects, kept as its JSON text (episodes)
	kindOther // bool, object, or an array holding something other than strings or objects
)

// member is one field of a record, whatever the input format.
type member struct {
	name string
	kind valueKind
	text string   // kindString, kindNumber (the literal)
	list []string // kindList
	raw  []byte   // kindRaw
}

// record is one input record.
type record struct {
	line    int
	err     string // set when the record could not be decoded at all
	members []member
	// csv records split list cells on "|" rather than ",".
	csv bool
}

// maxLine bounds one JSON Lines record.
const maxLine = 16 << 20

var utf8BOM = []byte("\xef\xbb\xbf")

// decodeJSONLines reads one JSON object per line; blank lines are skipped.
func decodeJSONLines(r io.Reader, _ []string, emit func(record) error, _ func(int, string)) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	line := 0
	for sc.Scan() {
		line++
		b := sc.Bytes()
		if line == 1 {
			b = bytes.TrimPrefix(b, utf8BOM)
		}
		b = bytes.TrimSpace(b)
		if len(b) == 0 {
			continue
		}
		if err := emit(objectRecord(line, b)); err != nil {
			return err
		}
	}
	if errors.Is(sc.Err(), bufio.ErrTooLong) {
		return fmt.Errorf("line %d: longer than %d MiB", line+1, maxLine>>20)
	}
	return sc.Err()
}

// decodeJSONArray reads a JSON array of objects, streaming, and reports
// each element at the line where it starts.
func decodeJSONArray(r io.Reader, _ []string, emit func(record) error, fail func(int, string)) error {
	lines := &lineTracker{r: skipBOM(r), line: 1}
	dec := json.NewDecoder(lines)
	// Token turns a number into a float64 and fails on one out of its
	// range (a bare 1e999 instead of the array); json.Number keeps it a
	// value like any other, so it is refused as "not an array".
	dec.UseNumber()
	syntax := func(err error) error {
		var se *json.SyntaxError
		switch {
		case errors.As(err, &se):
			fail(lines.lineAt(se.Offset), "invalid JSON: "+se.Error()+"; the rest of the file was not read")
			return nil
		case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
			fail(lines.lineAt(dec.InputOffset()), "invalid JSON: the array is not closed")
			return nil
		}
		return err
	}
	tok, err := dec.Token()
	if err == io.EOF {
		fail(1, "expected a JSON array of records, found an empty file")
		return nil
	}
	if err != nil {
		return syntax(err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '[' {
		fail(lines.lineAt(dec.InputOffset()), "expected a JSON array of records ([{...}, {...}])")
		return nil
	}
	for dec.More() {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return syntax(err)
		}
		// The raw value carries no surrounding space, so it starts
		// exactly len(raw) bytes before the decoder's position.
		line := lines.lineAt(dec.InputOffset() - int64(len(raw)))
		if err := emit(objectRecord(line, raw)); err != nil {
			return err
		}
	}
	if _, err := dec.Token(); err != nil { // the closing ']'
		return syntax(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		if err != nil {
			return syntax(err)
		}
		fail(lines.lineAt(dec.InputOffset()), "unexpected data after the JSON array")
	}
	return nil
}

// lineTracker passes reads through and turns byte offsets into line
// numbers. It keeps only the bytes after the last offset asked about,
// and offsets must not decrease.
type lineTracker struct {
	r    io.Reader
	buf  []byte // bytes from base on
	base int64
	line int // line number at base
}

func (t *lineTracker) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	t.buf = append(t.buf, p[:n]...)
	return n, err
}

func (t *lineTracker) lineAt(off int64) int {
	k := int(min(max(off-t.base, 0), int64(len(t.buf))))
	t.line += bytes.Count(t.buf[:k], []byte{'\n'})
	t.buf = append(t.buf[:0], t.buf[k:]...)
	t.base += int64(k)
	return t.line
}

// skipBOM drops the UTF-8 byte order mark that spreadsheet programs put
// at the start of exported files.
func skipBOM(r io.Reader) io.Reader {
	br := bufio.NewReader(r)
	if b, err := br.Peek(len(utf8BOM)); err == nil && bytes.Equal(b, utf8BOM) {
		br.Discard(len(utf8BOM))
	}
	return br
}

// objectRecord decodes one JSON object.
func objectRecord(line int, b []byte) record {
	b = bytes.TrimPrefix(b, utf8BOM)
	if rec, ok := fastObject(line, b); ok {
		return rec
	}
	return generalObject(line, b)
}

// generalObject decodes any JSON value, and says what is wrong with it
// when it is not an object.
func generalObject(line int, b []byte) record {
	rec := record{line: line}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			rec.err = "not a JSON object"
		} else {
			rec.err = "not valid JSON: " + err.Error()
		}
		return rec
	}
	if raw == nil {
		rec.err = "not a JSON object"
		return rec
	}
	names := make([]string, 0, len(raw))
	for k := range raw {
		names = append(names, k)
	}
	sort.Strings(names)
	rec.members = make([]member, 0, len(names))
	for _, name := range names {
		rec.members = append(rec.members, jsonMember(name, raw[name]))
	}
	return rec
}

func jsonMember(name string, v json.RawMessage) member {
	m := member{name: name, kind: kindOther}
	switch v[0] {
	case 'n':
		m.kind = kindNull
	case '"':
		if json.Unmarshal(v, &m.text) == nil {
			m.kind = kindString
		}
	case '[':
		if json.Unmarshal(v, &m.list) == nil {
			m.kind = kindList
		} else if bytes.HasPrefix(bytes.TrimLeft(v[1:], " \t\r\n"), []byte("{")) {
			m.kind, m.raw = kindRaw, v
		}
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		m.kind, m.text = kindNumber, string(v)
	}
	return m
}

// decodeCSV reads a header row of column names, then one record per row.
func decodeCSV(r io.Reader, columns []string, emit func(record) error, fail func(int, string)) error {
	cr := csv.NewReader(skipBOM(r))
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	header, err := cr.Read()
	if err == io.EOF {
		return nil
	}
	if err != nil {
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			fail(pe.StartLine, "invalid CSV header: "+pe.Err.Error())
			return nil
		}
		return err
	}
	names := make([]string, len(header))
	for i, h := range header {
		name := strings.ToLower(strings.TrimSpace(h))
		switch {
		case name == "":
			fail(1, fmt.Sprintf("column %d has no name", i+1))
			return nil
		case !slices.Contains(columns, name):
			fail(1, fmt.Sprintf("unknown column %q (known columns: %s)", h, strings.Join(columns, ", ")))
			return nil
		case slices.Contains(names[:i], name):
			fail(1, fmt.Sprintf("column %q appears twice", name))
			return nil
		}
		names[i] = name
	}
	for {
		row, err := cr.Read()
		if err == io.EOF {
			return nil
		}
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			if err := emit(record{line: pe.StartLine, err: "invalid CSV: " + pe.Err.Error()}); err != nil {
				return err
			}
			continue
		}
		if err != nil {
			return err
		}
		line, _ := cr.FieldPos(0)
		rec := record{line: line, csv: true}
		if len(row) != len(names) {
			rec.err = fmt.Sprintf("has %d fields, the header has %d", len(row), len(names))
		} else {
			rec.members = make([]member, 0, len(row))
			for i, cell := range row {
				m := member{name: names[i], kind: kindString, text: cell}
				if strings.TrimSpace(cell) == "" {
					m.kind, m.text = kindNull, ""
				}
				rec.members = append(rec.members, m)
			}
		}
		if err := emit(rec); err != nil {
			return err
		}
	}
}
