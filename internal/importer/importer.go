// Package importer reads clips and movies from JSON Lines, JSON array and
// CSV files (contract 4.6) and writes them to a store in batches. A bad
// record is reported with its line number and skipped; the good ones land
// in transactions of at most Options.BatchSize records and about
// Options.BatchBytes of input, so a failure never leaves a record
// half-written and an import's memory does not grow with its records.
package importer

import (
	"context"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"catalog/internal/catalog"
)

// DefaultBatchSize is how many records go into one transaction. Larger
// transactions rewrite fewer index pages per record once the file is
// large (SQLite's slug index takes its inserts all over the tree): a
// million movies took 61.5 s in batches of 10,000 and 52.6 s in batches
// of 25,000; 50,000 saved little more and took half again the memory.
const DefaultBatchSize = 25000

// DefaultBatchBytes bounds a batch by the input it was read from as well:
// a batch ends once its records took 32 MiB of input, whatever their
// number. Memory follows the input of the batches held (the one being
// written and the one being read, a few times their input each), so
// 25,000 records of 300 KB of episodes each no longer make one batch
// of 7 GB. Records of usual size (about 1 KB) fill the 25,000 first.
const DefaultBatchBytes = 32 << 20

// MaxReported bounds Summary.Rejects so that a file of a million bad
// records does not hold a million messages; Summary.Rejected still
// counts them all.
const MaxReported = 1000

// Options tune an import.
type Options struct {
	// DryRun validates every record without writing anything.
	DryRun bool
	// BatchSize is the number of records per transaction; 0 means
	// DefaultBatchSize.
	BatchSize int
	// BatchBytes ends a batch once its records took this much input
	// (counted as read, so it may run over by one record and the
	// decoder's read-ahead); 0 means DefaultBatchBytes.
	BatchBytes int64
	// Progress, when set, is called once per record read, on the
	// goroutine that called the import (progress reports).
	Progress func()
	// Merge (movies) changes only the members a record gives: the movie
	// it names, by id, else id_code, else slug, keeps every other member
	// (its slug included). A record that names no stored movie is added
	// as without Merge. Without Merge a record replaces the whole movie.
	Merge bool
}

// Reject is one record that was not imported.
type Reject struct {
	Line    int    // 1-based line where the record starts
	Message string // "field: problem", several joined with "; "
}

// Summary counts what happened to one input.
type Summary struct {
	Name     string
	Read     int // records found
	Imported int // records written (or that would be, on a dry run)
	Rejected int
	Rejects  []Reject // the first MaxReported rejected records
	// Noted counts the records written with a change (a collection's
	// record whose slug another movie holds); Notes keeps the first
	// MaxReported, each as a Reject would be.
	Noted int
	Notes []Reject
	// LastLine is the line where the last record read starts: where an
	// input that stopped early (a cut upload) can be resumed.
	LastLine int
}

// Note counts one record written with a change and keeps its report
// while fewer than MaxReported are kept.
func (s *Summary) Note(line int, msg string) {
	s.Noted++
	if len(s.Notes) < MaxReported {
		s.Notes = append(s.Notes, Reject{Line: line, Message: msg})
	}
}

// Reject counts one rejected record and keeps its report while fewer
// than MaxReported are kept: records that reach a store another way
// than through a file (a collection) are reported the same.
func (s *Summary) Reject(line int, msg string) {
	s.Rejected++
	if len(s.Rejects) < MaxReported {
		s.Rejects = append(s.Rejects, Reject{Line: line, Message: msg})
	}
}

// Movies upserts the movies read from r. name selects the format by its
// extension (.jsonl, .ndjson, .json, .csv; "-" is JSON Lines) and names
// the input in the Summary. The returned error is for failures that stop the
// whole input (unreadable file, unknown format, database down); rejected
// records are only counted in the Summary.
func Movies(ctx context.Context, store catalog.MovieStore, name string, r io.Reader, opts Options) (Summary, error) {
	write := func(ctx context.Context, batch []catalog.Movie) error {
		return store.UpsertMovies(ctx, batch)
	}
	build := movieFromRecord
	if opts.Merge {
		build = func(rec record) (catalog.Movie, catalog.FieldErrors) { return mergedMovie(ctx, store, rec) }
	}
	return run(ctx, name, r, opts, movieColumns, build, write)
}

// Clips inserts the clips read from r; see Movies for name and errors.
// Every clip is validated like a POST /api/clips body (cover derivation
// included), plus an optional id (replaces that clip) and created_at.
func Clips(ctx context.Context, store catalog.ClipStore, platforms *catalog.Platforms, name string, r io.Reader, opts Options) (Summary, error) {
	build := func(rec record) (catalog.Clip, catalog.FieldErrors) {
		return clipFromRecord(rec, platforms)
	}
	write := func(ctx context.Context, batch []catalog.Clip) error {
		return store.ImportClips(ctx, batch)
	}
	return run(ctx, name, r, opts, clipColumns, build, write)
}

// run drives one import: decode records, build and validate each one,
// write the good ones in batches.
func run[T any](ctx context.Context, name string, r io.Reader, opts Options, columns []string,
	build func(record) (T, catalog.FieldErrors), write func(context.Context, []T) error) (sum Summary, err error) {
	sum = Summary{Name: name}
	decode, err := decoderFor(name)
	if err != nil {
		return sum, err
	}
	size := opts.BatchSize
	if size <= 0 {
		size = DefaultBatchSize
	}
	batchBytes := opts.BatchBytes
	if batchBytes <= 0 {
		batchBytes = DefaultBatchBytes
	}
	in := &countingReader{r: r}
	b := &batcher[T]{sum: &sum, size: size, bytes: batchBytes, in: in, dryRun: opts.DryRun, write: write}
	// The last batch may still be writing when decoding stops, for
	// whatever reason; its outcome belongs in the summary.
	defer func() {
		if werr := b.wait(); err == nil {
			err = werr
		}
		// Batches finish out of step with decoding; report in line order.
		slices.SortStableFunc(sum.Rejects, func(a, b Reject) int { return a.Line - b.Line })
	}()
	// stopped is set when writing stops the decoding (the context, the
	// database); any other error is the input breaking off.
	var stopped error
	err = decode(in, columns, func(rec record) error {
		if err := ctx.Err(); err != nil {
			stopped = err
			return err
		}
		sum.Read++
		sum.LastLine = rec.line
		if opts.Progress != nil {
			opts.Progress()
		}
		if rec.err != "" {
			sum.Reject(rec.line, rec.err)
			return nil
		}
		v, fe := build(rec)
		if len(fe) > 0 {
			sum.Reject(rec.line, fe.Describe(": "))
			return nil
		}
		stopped = b.add(ctx, rec.line, v)
		return stopped
	}, sum.Reject)
	if stopped == nil {
		// The input ended, or broke off (a cut upload): every record
		// read whole is written, so that the report's last line is
		// where a retry resumes.
		if ferr := b.flush(ctx); err == nil {
			err = ferr
		}
	}
	return sum, err
}

// countingReader counts the input read so far.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// batcher collects valid records and writes them a batch at a time. A
// batch is written in the background while the next one is decoded (at
// most one write in flight), so parsing and the database overlap.
type batcher[T any] struct {
	sum    *Summary
	size   int
	bytes  int64           // input per batch
	in     *countingReader // the input, counted
	from   int64           // where the batch being filled started in it
	dryRun bool
	write  func(context.Context, []T) error
	items  []T
	lines  []int
	// pending delivers the outcome of the batch being written, nil when
	// none is in flight.
	pending chan batchResult
}

// batchResult is what a background write did; only the decoding
// goroutine applies it to the Summary.
type batchResult struct {
	imported int
	rejects  []Reject
	err      error
}

func (b *batcher[T]) add(ctx context.Context, line int, v T) error {
	b.items = append(b.items, v)
	b.lines = append(b.lines, line)
	if len(b.items) >= b.size || b.in.n-b.from >= b.bytes {
		return b.flush(ctx)
	}
	return nil
}

// flush starts writing the collected records once the previous write
// has finished, and returns that previous write's error.
func (b *batcher[T]) flush(ctx context.Context) error {
	if err := b.wait(); err != nil {
		return err
	}
	b.from = b.in.n
	if len(b.items) == 0 {
		return nil
	}
	if b.dryRun {
		b.sum.Imported += len(b.items)
		b.items, b.lines = b.items[:0], b.lines[:0]
		return nil
	}
	// The writer owns these slices now; decoding fills new ones.
	items, lines := b.items, b.lines
	b.items, b.lines = make([]T, 0, b.size), make([]int, 0, b.size)
	done := make(chan batchResult, 1)
	b.pending = done
	go func() { done <- b.writeBatch(ctx, items, lines) }()
	return nil
}

// wait applies the outcome of the write in flight, if any.
func (b *batcher[T]) wait() error {
	if b.pending == nil {
		return nil
	}
	res := <-b.pending
	b.pending = nil
	b.sum.Imported += res.imported
	for _, r := range res.rejects {
		b.sum.Reject(r.Line, r.Message)
	}
	return res.err
}

// writeBatch writes items in one transaction. When the store refuses the
// batch because of some record in it (a unique key taken, say), it finds
// the culprit by writing one record at a time, so that the others still
// land and the culprit is reported with its line.
func (b *batcher[T]) writeBatch(ctx context.Context, items []T, lines []int) batchResult {
	err := b.write(ctx, items)
	if err == nil || !isRecordError(err) {
		if err != nil {
			return batchResult{err: err}
		}
		return batchResult{imported: len(items)}
	}
	var res batchResult
	for i := range items {
		err := b.write(ctx, items[i:i+1])
		switch {
		case err == nil:
			res.imported++
		case isRecordError(err):
			res.rejects = append(res.rejects, Reject{Line: lines[i], Message: catalog.ErrorMessage(err)})
		default:
			res.err = err
			return res
		}
	}
	return res
}

// isRecordError reports whether err blames the data rather than the
// database being unavailable or broken.
func isRecordError(err error) bool {
	switch catalog.ErrorCode(err) {
	case catalog.EINVALID, catalog.ECONFLICT, catalog.ETOOLARGE:
		return true
	}
	return false
}

// format is an input format, chosen by file extension.
type format int

const (
	formatJSONL format = iota
	formatJSON
	formatCSV
)

// CheckName reports whether name has a format the importer reads, so
// that callers can refuse a list of inputs before importing any.
func CheckName(name string) error {
	_, err := formatOf(name)
	return err
}

// formatOf picks the format from the input's name; "-" is JSON Lines.
func formatOf(name string) (format, error) {
	if name == "-" {
		return formatJSONL, nil
	}
	switch strings.ToLower(filepath.Ext(name)) {
	case ".jsonl", ".ndjson":
		return formatJSONL, nil
	case ".json":
		return formatJSON, nil
	case ".csv":
		return formatCSV, nil
	}
	return 0, catalog.Errorf(catalog.EINVALID,
		"unknown file type %q: use .jsonl (JSON Lines), .json (an array) or .csv", filepath.Ext(name))
}

// decodeFunc reads records from r and hands each to emit in order.
// columns are the member names a record may have (a CSV header is
// checked against them). Problems that are not one record's (a broken
// CSV header, JSON syntax that cannot be resynchronised) go to fail
// with their line.
type decodeFunc func(r io.Reader, columns []string, emit func(record) error, fail func(line int, msg string)) error

func decoderFor(name string) (decodeFunc, error) {
	f, err := formatOf(name)
	if err != nil {
		return nil, err
	}
	switch f {
	case formatJSON:
		return decodeJSONArray, nil
	case formatCSV:
		return decodeCSV, nil
	}
	return decodeJSONLines, nil
}
