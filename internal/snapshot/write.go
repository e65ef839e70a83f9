// Package snapshot builds and serves the movie snapshot (contract 4.4):
// the whole catalog in the /api/movies list envelope, streamed from the
// store into a gzip file that is swapped in atomically, and served from
// that file with conditional and range requests.
package snapshot

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"catalog/internal/catalog"
	"catalog/internal/durable"
)

// ErrChanged reports that the catalog changed between counting and
// streaming it, so the document's total would not match its list. The
// bytes already written are unusable; builders that write to a temporary
// file simply try again.
var ErrChanged = errors.New("snapshot: catalog changed while it was written")

// writeAttempts bounds the retries after ErrChanged: under a steady import
// stream every attempt could race, and a slightly later snapshot is better
// than none.
const writeAttempts = 3

// Write streams the whole catalog to w in the /api/movies list envelope,
// every movie in full, highest id first, plus generated_at. Movies are
// encoded one at a time through a buffer, so memory does not grow with
// the catalog. The envelope puts total before list, so the count is taken
// first; when the streamed rows do not match it Write returns ErrChanged
// (the store interface offers no read transaction spanning both calls).
//
// Contract 4.4 fixes page 1 and pagecount 1 (the whole catalog is one
// page), and pagecount 0 for an empty catalog as in contract 4.2: limit "0",
// total 0, an empty list.
func Write(ctx context.Context, movies catalog.MovieStore, w io.Writer, generatedAt time.Time) error {
	total, err := movies.CountMovies(ctx)
	if err != nil {
		return fmt.Errorf("count movies: %w", err)
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	b := make([]byte, 0, 4<<10)
	b = append(b, `{"code":1,"msg":"data list","page":1,"pagecount":`...)
	b = strconv.AppendInt(b, min(total, 1), 10)
	b = append(b, `,"limit":"`...)
	b = strconv.AppendInt(b, total, 10)
	b = append(b, `","total":`...)
	b = strconv.AppendInt(b, total, 10)
	b = append(b, `,"list":[`...)
	if _, err := bw.Write(b); err != nil {
		return err
	}

	fields := catalog.AllFields(false)
	var streamed int64
	err = movies.EachMovie(ctx, func(m *catalog.Movie) error {
		b = b[:0]
		if streamed > 0 {
			b = append(b, ',')
		}
		streamed++
		b = m.AppendJSON(b, fields, false)
		_, err := bw.Write(b)
		return err
	})
	if err != nil {
		return fmt.Errorf("stream movies: %w", err)
	}
	if streamed != total {
		return fmt.Errorf("%w: counted %d, streamed %d", ErrChanged, total, streamed)
	}

	b = append(b[:0], `],"generated_at":`...)
	b = catalog.AppendJSONString(b, generatedAt.UTC().Format(time.RFC3339))
	b = append(b, '}')
	if _, err := bw.Write(b); err != nil {
		return err
	}
	return bw.Flush()
}

// WriteFile writes one snapshot to path, gzip-compressed when path ends
// in ".gz" (one gzip member with full-flush points, as the service
// writes it), plain JSON otherwise. The file appears complete or not at all: it is written
// beside path under a temporary name, synced and renamed over path.
func WriteFile(ctx context.Context, movies catalog.MovieStore, path string, now time.Time) error {
	compress := strings.HasSuffix(path, ".gz")
	_, err := writeAtomic(filepath.Dir(path), filepath.Base(path), func(f io.Writer) error {
		return WriteTo(ctx, movies, f, compress, now)
	})
	return err
}

// WriteTo writes one snapshot to w, gzip-compressed when compress is set
// (one member with full-flush points, as the service writes it), plain
// JSON otherwise.
func WriteTo(ctx context.Context, movies catalog.MovieStore, w io.Writer, compress bool, now time.Time) error {
	if !compress {
		return Write(ctx, movies, w, now)
	}
	zw, err := newIndexedGzipWriter(w, flushEvery)
	if err != nil {
		return err
	}
	if err := Write(ctx, movies, zw, now); err != nil {
		return err
	}
	return zw.Close()
}

// tempPrefix marks this package's temporary files, so that leftovers of
// a crash can be recognised and removed.
const tempPrefix = ".snapshot-tmp-"

// writeAtomic runs fill on a fresh temporary file in dir and renames it
// to name. On ErrChanged fill is retried on a truncated file. It returns
// the final file's info.
func writeAtomic(dir, name string, fill func(w io.Writer) error) (os.FileInfo, error) {
	f, err := os.CreateTemp(dir, tempPrefix+"*")
	if err != nil {
		return nil, fmt.Errorf("create temporary snapshot file: %w", err)
	}
	tmp := f.Name()
	done := false
	defer func() {
		if !done {
			f.Close()
			os.Remove(tmp)
		}
	}()
	for attempt := 1; ; attempt++ {
		err = fill(f)
		if !errors.Is(err, ErrChanged) || attempt == writeAttempts {
			break
		}
		if err := f.Truncate(0); err != nil {
			return nil, err
		}
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return nil, err
		}
	}
	if err != nil {
		return nil, err
	}
	if err := f.Sync(); err != nil {
		return nil, fmt.Errorf("sync snapshot: %w", err)
	}
	// The identity of the file written here (a rename keeps it), not of
	// whatever the final name points to once renamed: what the caller
	// learnt while writing describes exactly this file.
	info, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("stat snapshot: %w", err)
	}
	if err := f.Close(); err != nil {
		return nil, fmt.Errorf("close snapshot: %w", err)
	}
	final := filepath.Join(dir, name)
	if err := os.Rename(tmp, final); err != nil {
		return nil, fmt.Errorf("install snapshot: %w", err)
	}
	done = true
	durable.SyncDir(dir) // failure only weakens durability after a power cut
	return info, nil
}
