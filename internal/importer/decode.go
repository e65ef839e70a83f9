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

	"catalog/internal/catalog"
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

// MaxRecord bounds one record in every format: a JSON Lines line or a
// CSV row (line ending not counted), a JSON array element. A larger one
// stops the input with ETOOLARGE naming its line: no decoder can skip
// it without holding it, and memory must stay bounded whatever one
// record holds.
const MaxRecord = 16 << 20

// recordSlack is what a decoder may read beyond a record's MaxRecord
// bytes before it can tell the record is over: its read-ahead buffer,
// the separators and blank space between records.
const recordSlack = 64 << 10

// tooLarge is the error of a record over MaxRecord starting at line.
func tooLarge(line int) error {
	return catalog.Errorf(catalog.ETOOLARGE, "line %d: the record is larger than %d bytes (%d MiB); the rest of the input was not read",
		line, MaxRecord, MaxRecord>>20)
}

// capReader reads from r up to cap bytes in all; past it, it fails
// with errOverCap. The decoders raise cap as each record ends, so that a
// decoder that holds a whole record holds at most MaxRecord+recordSlack.
type capReader struct {
	r        io.Reader
	read     int64
	cap      int64
	overLine func() int // the line the record over the cap starts at
}

func (c *capReader) Read(p []byte) (int, error) {
	if c.read >= c.cap {
		return 0, tooLarge(c.overLine())
	}
	if int64(len(p)) > c.cap-c.read {
		p = p[:c.cap-c.read]
	}
	n, err := c.r.Read(p)
	c.read += int64(n)
	return n, err
}

var utf8BOM = []byte("\xef\xbb\xbf")

// decodeJSONLines reads one JSON object per line; blank lines are skipped.
func decodeJSONLines(r io.Reader, _ []string, emit func(record) error, _ func(int, string)) error {
	src := &failReader{r: r}
	sc := bufio.NewScanner(src)
	sc.Buffer(make([]byte, 0, 64<<10), MaxRecord+len("\r\n"))
	sc.Split(func(data []byte, atEOF bool) (int, []byte, error) {
		if atEOF && src.failed && len(data) > 0 && bytes.IndexByte(data, '\n') < 0 {
			return len(data), nil, nil // the line an input that broke off cut short
		}
		return bufio.ScanLines(data, atEOF)
	})
	line := 0
	for sc.Scan() {
		line++
		b := sc.Bytes()
		if len(b) > MaxRecord {
			return tooLarge(line)
		}
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
		return tooLarge(line + 1)
	}
	return sc.Err()
}

// failReader remembers whether its reader failed (other than io.EOF).
type failReader struct {
	r      io.Reader
	failed bool
}

func (f *failReader) Read(p []byte) (int, error) {
	n, err := f.r.Read(p)
	if err != nil && err != io.EOF {
		f.failed = true
	}
	return n, err
}

// decodeJSONArray reads a JSON array of objects, streaming, and reports
// each element at the line where it starts.
func decodeJSONArray(r io.Reader, _ []string, emit func(record) error, fail func(int, string)) error {
	lines := &lineTracker{line: 1}
	dec := json.NewDecoder(lines)
	limit := &capReader{r: r, cap: MaxRecord + recordSlack, overLine: func() int { return lines.lineAt(dec.InputOffset()) }}
	src := &failReader{r: limit}
	lines.r = skipBOM(src)
	// Token turns a number into a float64 and fails on one out of its
	// range (a bare 1e999 instead of the array); json.Number keeps it a
	// value like any other, so it is refused as "not an array".
	dec.UseNumber()
	a := &arrayDecoder{dec: dec, lines: lines, src: src, fail: fail}
	tok, err := dec.Token()
	if err == io.EOF {
		fail(1, "expected a JSON array of records, found an empty file")
		return nil
	}
	if err != nil {
		return a.syntax(err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '[' {
		fail(lines.lineAt(dec.InputOffset()), "expected a JSON array of records ([{...}, {...}])")
		return nil
	}
	for dec.More() {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return a.syntax(err)
		}
		// The raw value carries no surrounding space, so it starts
		// exactly len(raw) bytes before the decoder's position.
		line := lines.lineAt(dec.InputOffset() - int64(len(raw)))
		if len(raw) > MaxRecord {
			return tooLarge(line)
		}
		limit.cap = dec.InputOffset() + MaxRecord + recordSlack
		if err := emit(objectRecord(line, raw)); err != nil {
			return err
		}
	}
	return a.end()
}

// arrayDecoder is what decodeJSONArray reads with: the decoder, the
// line of each offset, and whether the input itself broke off.
type arrayDecoder struct {
	dec   *json.Decoder
	lines *lineTracker
	src   *failReader
	fail  func(int, string)
}

// syntax reports a JSON error as the file's fault at its line, after
// which the rest is not read (nil), or returns it when the input broke
// off or failed otherwise.
func (a *arrayDecoder) syntax(err error) error {
	var se *json.SyntaxError
	switch {
	case a.src.failed:
		return err // the input broke off: not a fault of the file
	case errors.As(err, &se):
		a.fail(a.lines.lineAt(se.Offset), "invalid JSON: "+se.Error()+"; the rest of the file was not read")
		return nil
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		a.fail(a.lines.lineAt(a.dec.InputOffset()), "invalid JSON: the array is not closed")
		return nil
	}
	return err
}

// end reads the array's closing ']' and checks that nothing follows.
func (a *arrayDecoder) end() error {
	if _, err := a.dec.Token(); err != nil {
		return a.syntax(err)
	}
	if _, err := a.dec.Token(); err != io.EOF {
		if err != nil {
			return a.syntax(err)
		}
		a.fail(a.lines.lineAt(a.dec.InputOffset()), "unexpected data after the JSON array")
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
		var list []string // left unset when the array holds anything else
		if json.Unmarshal(v, &list) == nil {
			m.kind, m.list = kindList, list
		} else if bytes.HasPrefix(bytes.TrimLeft(v[1:], " \t\r\n"), []byte("{")) {
			m.kind, m.raw = kindRaw, compactJSON(v)
		}
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		m.kind, m.text = kindNumber, string(v)
	}
	return m
}

// rowBytes is the size of a CSV row as a record: its cells, unquoted,
// with the commas between them. (A row over the limit as written is
// stopped before it is whole.)
func rowBytes(row []string) int {
	n := max(len(row)-1, 0)
	for _, cell := range row {
		n += len(cell)
	}
	return n
}

// compactJSON is b without insignificant white space, so that both
// decoders give an array of objects the same text.
func compactJSON(b []byte) []byte {
	var buf bytes.Buffer
	if json.Compact(&buf, b) != nil {
		return b
	}
	return buf.Bytes()
}

// decodeCSV reads a header row of column names, then one record per row.
func decodeCSV(r io.Reader, columns []string, emit func(record) error, fail func(int, string)) error {
	// next is the line where the next row starts: the line of a row over
	// the limit, which the CSV reader cannot tell before the row is whole.
	next := 1
	limit := &capReader{r: r, cap: MaxRecord + recordSlack, overLine: func() int { return next }}
	cr := csv.NewReader(skipBOM(limit))
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	names, err := csvHeader(cr, columns, fail)
	if names == nil || err != nil {
		return err
	}
	next = 2
	for {
		limit.cap = cr.InputOffset() + MaxRecord + recordSlack
		row, err := cr.Read()
		if err == io.EOF {
			return nil
		}
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			next = pe.Line + 1
			if err := emit(record{line: pe.StartLine, err: "invalid CSV: " + pe.Err.Error()}); err != nil {
				return err
			}
			continue
		}
		if err != nil {
			return err
		}
		line, _ := cr.FieldPos(0)
		if rowBytes(row) > MaxRecord {
			return tooLarge(line)
		}
		last, _ := cr.FieldPos(len(row) - 1)
		next = last + strings.Count(row[len(row)-1], "\n") + 1
		if err := emit(csvRecord(line, row, names)); err != nil {
			return err
		}
	}
}

// csvHeader reads the header row: the column names, or nil (with the
// problem given to fail) when there is none or it is not usable.
func csvHeader(cr *csv.Reader, columns []string, fail func(int, string)) ([]string, error) {
	header, err := cr.Read()
	if err == io.EOF {
		return nil, nil
	}
	if err != nil {
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			fail(pe.StartLine, "invalid CSV header: "+pe.Err.Error())
			return nil, nil
		}
		return nil, err
	}
	names := make([]string, len(header))
	for i, h := range header {
		name := strings.ToLower(strings.TrimSpace(h))
		switch {
		case name == "":
			fail(1, fmt.Sprintf("column %d has no name", i+1))
			return nil, nil
		case !slices.Contains(columns, name):
			fail(1, fmt.Sprintf("unknown column %q (known columns: %s)", h, strings.Join(columns, ", ")))
			return nil, nil
		case slices.Contains(names[:i], name):
			fail(1, fmt.Sprintf("column %q appears twice", name))
			return nil, nil
		}
		names[i] = name
	}
	return names, nil
}

// csvRecord is one row as a record; an empty cell is an absent member.
func csvRecord(line int, row, names []string) record {
	rec := record{line: line, csv: true}
	if len(row) != len(names) {
		rec.err = fmt.Sprintf("has %d fields, the header has %d", len(row), len(names))
		return rec
	}
	rec.members = make([]member, 0, len(row))
	for i, cell := range row {
		cell = UnescapeFormula(cell) // what export escaped for spreadsheets
		m := member{name: names[i], kind: kindString, text: cell}
		if strings.TrimSpace(cell) == "" {
			m.kind, m.text = kindNull, ""
		}
		rec.members = append(rec.members, m)
	}
	return rec
}
