package snapshot

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/klauspost/compress/flate"

	"catalog/internal/catalog"
	"catalog/internal/httpx"
)

const (
	// FileName is the current snapshot inside Config.Dir.
	FileName = "movies-snapshot.json.gz"
	// DefaultEvery is the refresh interval when Config.Every is not set.
	DefaultEvery = time.Hour
	// retryAfterFailure is how soon a failed build is tried again.
	retryAfterFailure = time.Minute
	// DefaultLockRetry is how soon a build deferred by Config.Lock is
	// tried again when Config.LockRetry is not set.
	DefaultLockRetry = 15 * time.Second
	// notReadyRetryAfter is the Retry-After (seconds) of the 503 sent
	// before the first snapshot exists.
	notReadyRetryAfter = "10"
	// staleTempAge: a temporary file untouched for this long belongs to a
	// build that died (a live build writes to it continuously).
	staleTempAge = 15 * time.Minute
	// staleWhileRevalidate matches the rest of the movie service.
	staleWhileRevalidate = 600
)

// Config configures a Service.
type Config struct {
	Store catalog.MovieStore
	// Dir holds the snapshot file; created when missing. Empty means
	// "catalog-snapshot" in the OS temp dir.
	Dir string
	// Every is the refresh interval; 0 means DefaultEvery.
	Every  time.Duration
	Logger *slog.Logger
	// Lock, when set, is held around every build, so that instances
	// sharing one database take turns reading the whole catalog instead
	// of all doing it at once. ok is false when another instance holds
	// it: this one keeps serving its previous file and tries again after
	// LockRetry.
	Lock func(ctx context.Context) (unlock func(), ok bool, err error)
	// LockRetry is the wait after finding the lock taken; 0 means
	// DefaultLockRetry. It never exceeds Every.
	LockRetry time.Duration
	// Observe, when set, hears of every build that ran (not one deferred
	// to another instance), for metrics and edge purges.
	Observe func(Build)
}

// errLockTaken says that another instance is building right now.
var errLockTaken = errors.New("snapshot: another instance is building")

// Service builds the snapshot in the background and serves it. Only the
// file's metadata is kept in memory; the bytes stay on disk.
type Service struct {
	cfg Config // with the defaults filled in

	current atomic.Pointer[built]
	// nextRefresh (Unix nanoseconds) drives the served max-age.
	nextRefresh atomic.Int64

	rebuildNow chan struct{} // Rebuild's request to the build loop
	// builds is the part of Status that the build loop writes.
	builds struct {
		sync.Mutex
		last Status
	}

	// flushEvery is the decompressed length between the full-flush
	// points written; flushEvery unless a test or benchmark writes
	// another spacing.
	flushEvery int64
	// inflated counts the bytes decompressed to answer plain requests:
	// the cost contract 4.4 bounds for a Range.
	inflated atomic.Int64
}

// built describes one installed snapshot file.
type built struct {
	path        string
	info        os.FileInfo // identifies the file, to detect a swap between load and open
	generatedAt time.Time
	plainTag    string // strong ETag of the JSON document
	plainSize   int64
	gzipTag     string // strong ETag of the gzip file
	gzipSize    int64
	index       []flushPoint // the file's full-flush points, from the same write
}

// New returns a Service; call Run to start building.
func New(cfg Config) *Service {
	if cfg.Dir == "" {
		cfg.Dir = filepath.Join(os.TempDir(), "catalog-snapshot")
	}
	if cfg.Every <= 0 {
		cfg.Every = DefaultEvery
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.LockRetry <= 0 {
		cfg.LockRetry = DefaultLockRetry
	}
	cfg.LockRetry = min(cfg.LockRetry, cfg.Every)
	return &Service{cfg: cfg, rebuildNow: make(chan struct{}, 1), flushEvery: flushEvery}
}

// Run builds a snapshot now and then every Every until ctx is done. A
// failed build is logged, the previous snapshot stays served, and the
// build is retried sooner.
func (s *Service) Run(ctx context.Context) {
	if err := os.MkdirAll(s.cfg.Dir, 0o755); err != nil {
		s.cfg.Logger.Error("snapshot directory unusable", "err", err)
	}
	s.removeStaleTemps()
	for {
		next := time.Now().Add(s.cfg.Every)
		s.nextRefresh.Store(next.UnixNano())
		start := time.Now()
		err := s.refresh(ctx)
		if ctx.Err() != nil {
			return
		}
		s.report(start, err)
		switch {
		case errors.Is(err, errLockTaken):
			s.cfg.Logger.Info("snapshot build deferred: another instance is building", "retry_in", s.cfg.LockRetry.String())
			next = time.Now().Add(s.cfg.LockRetry)
			s.nextRefresh.Store(next.UnixNano())
		case err != nil:
			s.cfg.Logger.Error("snapshot build failed", "err", err)
			next = time.Now().Add(min(retryAfterFailure, s.cfg.Every))
			s.nextRefresh.Store(next.UnixNano())
		}
		timer := time.NewTimer(time.Until(next))
		select {
		case <-ctx.Done():
			timer.Stop()
			return
		case <-timer.C:
		case <-s.rebuildNow:
			timer.Stop()
		}
	}
}

// refresh builds a snapshot and, when that succeeds, serves it. With a
// Lock it returns errLockTaken, building nothing, while another instance
// holds the lock.
func (s *Service) refresh(ctx context.Context) (err error) {
	s.started()
	start := time.Now()
	counted := &countingStore{MovieStore: s.cfg.Store}
	defer func() { s.finished(err, time.Since(start), counted.n) }()
	if s.cfg.Lock != nil {
		unlock, ok, err := s.cfg.Lock(ctx)
		if err != nil {
			return fmt.Errorf("snapshot lock: %w", err)
		}
		if !ok {
			return errLockTaken
		}
		defer unlock()
	}
	b, err := s.build(ctx, counted, start)
	if err != nil {
		return err
	}
	s.current.Store(b)
	s.cfg.Logger.Info("snapshot built", "movies_bytes", b.plainSize, "gzip_bytes", b.gzipSize,
		"duration", time.Since(start))
	return nil
}

// build writes a new gzip snapshot and installs it over the current file,
// hashing both representations on the way for their ETags.
func (s *Service) build(ctx context.Context, store catalog.MovieStore, now time.Time) (*built, error) {
	generatedAt := catalog.StoredTime(now)
	var plain, zipped hashCounter
	var index []flushPoint
	// Made again each time: an operator may have removed it.
	if err := os.MkdirAll(s.cfg.Dir, 0o755); err != nil {
		return nil, fmt.Errorf("snapshot directory: %w", err)
	}
	info, err := writeAtomic(s.cfg.Dir, FileName, func(f io.Writer) error {
		plain.reset()
		zipped.reset()
		zw, err := newIndexedGzipWriter(io.MultiWriter(f, &zipped), s.flushEvery)
		if err != nil {
			return err
		}
		if err := Write(ctx, store, io.MultiWriter(zw, &plain), generatedAt); err != nil {
			return err
		}
		index = zw.index
		return zw.Close()
	})
	if err != nil {
		return nil, err
	}
	plainTag := plain.tag("")
	return &built{
		path:        filepath.Join(s.cfg.Dir, FileName),
		info:        info,
		generatedAt: generatedAt,
		plainTag:    plainTag,
		plainSize:   plain.n,
		gzipTag:     zipped.tag("-gz"),
		gzipSize:    zipped.n,
		index:       index,
	}, nil
}

// removeStaleTemps deletes temporary files left by builds that died.
func (s *Service) removeStaleTemps() {
	entries, err := os.ReadDir(s.cfg.Dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), tempPrefix) {
			continue
		}
		if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > staleTempAge {
			os.Remove(filepath.Join(s.cfg.Dir, e.Name()))
		}
	}
}

// sameFile reports whether info is the file built: the same inode, and
// the same size and time, since a file written after ours was removed
// can get its inode number.
func sameFile(info, built os.FileInfo) bool {
	return os.SameFile(info, built) && info.Size() == built.Size() && info.ModTime().Equal(built.ModTime())
}

// Serve answers a snapshot request from the current file, or returns an
// error for the caller to write: EUNAVAILABLE (with Retry-After set)
// before the first snapshot exists. Conditional requests and ranges are
// handled by http.ServeContent.
func (s *Service) Serve(w http.ResponseWriter, r *http.Request) error {
	// A rebuild can rename a new file over the path between loading the
	// metadata and opening the file; then the metadata is loaded again.
	for range 3 {
		b := s.current.Load()
		if b == nil {
			w.Header().Set("Retry-After", notReadyRetryAfter)
			return catalog.Errorf(catalog.EUNAVAILABLE, "snapshot not ready")
		}
		f, err := os.Open(b.path)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return fmt.Errorf("open snapshot: %w", err)
		}
		if info, err := f.Stat(); err != nil || !sameFile(info, b.info) {
			f.Close()
			continue
		}
		err = s.serveFile(w, r, b, f)
		f.Close()
		return err
	}
	// The file is gone or is not the one built here: the directory was
	// cleaned out, or another process wrote over it. Build it again and
	// answer as before the first snapshot, never with a 500.
	s.cfg.Logger.Warn("snapshot file missing or replaced; rebuilding", "path", filepath.Join(s.cfg.Dir, FileName))
	s.Rebuild()
	w.Header().Set("Retry-After", notReadyRetryAfter)
	return catalog.Errorf(catalog.EUNAVAILABLE, "snapshot not ready")
}

// serveFile serves one snapshot file. A Range outside the content comes
// back as an ERANGE error, so that the 416 is written in the movie
// service's error shape rather than ServeContent's plain text.
func (s *Service) serveFile(w http.ResponseWriter, r *http.Request, b *built, f *os.File) error {
	rec := httpx.Record(w, r)
	refused := rec.HoldBack(http.StatusRequestedRangeNotSatisfiable)
	r = byteRangesOnly(r)
	h := rec.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Add("Vary", "Accept-Encoding")
	maxAge := max(0, (time.Until(time.Unix(0, s.nextRefresh.Load()))+time.Second-1)/time.Second)
	h.Set("Cache-Control", "public, max-age="+strconv.FormatInt(int64(maxAge), 10)+
		", stale-while-revalidate="+strconv.Itoa(staleWhileRevalidate))
	size := b.plainSize
	if httpx.AcceptsGzip(r) {
		size = b.gzipSize
		h.Set("ETag", b.gzipTag)
		h.Set("Content-Encoding", "gzip")
		// ServeContent leaves Content-Length out of a full response when
		// Content-Encoding is set; ranges and 304 replace or drop it.
		h.Set("Content-Length", strconv.FormatInt(b.gzipSize, 10))
		http.ServeContent(rec, r, "", b.generatedAt, f)
	} else {
		h.Set("ETag", b.plainTag)
		if strings.Contains(r.Header.Get("Range"), ",") {
			// Each part of a multi-range request can cost up to a flush
			// interval's decompression, so hundreds of parts would cost hundreds of
			// MiB; serving the whole document is allowed and bounds the work.
			r = withoutRange(r)
		}
		g := &gunzipSeeker{f: f, size: b.plainSize, index: b.index}
		http.ServeContent(rec, r, "", b.generatedAt, g)
		s.inflated.Add(g.inflated)
	}
	if !refused() {
		return nil
	}
	// RFC 9110 15.5.17 wants the size on every 416; ServeContent leaves
	// it out for a malformed byte range.
	if h.Get("Content-Range") == "" {
		h.Set("Content-Range", "bytes */"+strconv.FormatInt(size, 10))
	}
	return catalog.Errorf(httpx.ERANGE, "range not satisfiable")
}

// byteRangesOnly ignores a Range in another unit than bytes, as RFC 9110
// 14.2 requires (ServeContent would refuse it with a 416), spells the
// unit the way ServeContent reads it (units are case-insensitive), and
// drops empty suffix ranges ("-0"), which ServeContent would answer with
// a 206 whose Content-Range ends before it starts.
func byteRangesOnly(r *http.Request) *http.Request {
	v := r.Header.Get("Range")
	unit, spec, _ := strings.Cut(v, "=")
	if v == "" {
		return r
	}
	if !strings.EqualFold(strings.TrimSpace(unit), "bytes") {
		return withoutRange(r)
	}
	fixed := dropEmptySuffixes(spec)
	if unit == "bytes" && fixed == spec {
		return r
	}
	r2 := withoutRange(r)
	r2.Header.Set("Range", "bytes="+fixed)
	return r2
}

// dropEmptySuffixes removes the suffix ranges of length 0 from a byte
// range set. When none is left the set becomes one that starts past any
// file: RFC 9110 14.1.1 calls a set without a non-empty suffix range or
// a start inside the file unsatisfiable, a 416.
func dropEmptySuffixes(spec string) string {
	parts := strings.Split(spec, ",")
	kept := parts[:0]
	for _, p := range parts {
		start, end, ok := strings.Cut(p, "-")
		n, err := strconv.ParseInt(strings.TrimSpace(end), 10, 64)
		if ok && strings.TrimSpace(start) == "" && err == nil && n == 0 {
			continue
		}
		kept = append(kept, p)
	}
	if len(kept) == len(parts) {
		return spec
	}
	if strings.TrimSpace(strings.Join(kept, "")) == "" {
		return "9223372036854775807-"
	}
	return strings.Join(kept, ",")
}

// withoutRange is a shallow copy of r without its Range header.
func withoutRange(r *http.Request) *http.Request {
	r2 := *r
	r2.Header = r.Header.Clone()
	r2.Header.Del("Range")
	return &r2
}

// gunzipSeeker presents a snapshot file as its uncompressed content
// with Seek, which http.ServeContent needs for sizes and ranges. The size
// is known from the build, so seeking to the end costs nothing. A read
// elsewhere than where decompression stands starts a raw inflater at the
// nearest full-flush point at or before it (index) and discards up to
// there: at most one flush interval of decompression, wherever the range
// starts. The gzip header and trailer are never read: the file's identity
// was checked against the build that wrote it and the index.
type gunzipSeeker struct {
	f        *os.File
	size     int64        // uncompressed
	index    []flushPoint // the file's flush points; never empty
	zr       io.ReadCloser
	pos      int64 // offset of zr in the uncompressed stream
	want     int64 // offset the next Read starts at
	inflated int64 // bytes decompressed, discarded ones included
}

func (g *gunzipSeeker) Seek(offset int64, whence int) (int64, error) {
	switch whence {
	case io.SeekStart:
	case io.SeekCurrent:
		offset += g.want
	case io.SeekEnd:
		offset += g.size
	default:
		return 0, errors.New("gunzipSeeker: bad whence")
	}
	if offset < 0 {
		return 0, errors.New("gunzipSeeker: negative position")
	}
	g.want = offset
	return offset, nil
}

func (g *gunzipSeeker) Read(p []byte) (int, error) {
	if g.want >= g.size {
		return 0, io.EOF
	}
	start := nearest(g.index, g.want)
	if g.zr == nil || g.want < g.pos || start.off > g.pos {
		if err := g.restart(start); err != nil {
			return 0, err
		}
	}
	if g.want > g.pos {
		n, err := io.CopyN(io.Discard, g.zr, g.want-g.pos)
		g.pos += n
		g.inflated += n
		if err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return 0, err
		}
	}
	n, err := g.zr.Read(p)
	g.pos += int64(n)
	g.inflated += int64(n)
	g.want = g.pos
	return n, err
}

// restart points the inflater at flush point start.
func (g *gunzipSeeker) restart(start flushPoint) error {
	if _, err := g.f.Seek(start.zoff, io.SeekStart); err != nil {
		return err
	}
	if g.zr == nil {
		g.zr = flate.NewReader(g.f)
	} else if err := g.zr.(flate.Resetter).Reset(g.f, nil); err != nil {
		return err
	}
	g.pos = start.off
	return nil
}

// hashCounter hashes and counts the bytes written through it.
type hashCounter struct {
	h hash.Hash
	n int64
}

func (c *hashCounter) reset() { c.h, c.n = sha256.New(), 0 }

func (c *hashCounter) Write(p []byte) (int, error) {
	c.h.Write(p)
	c.n += int64(len(p))
	return len(p), nil
}

// tag is a strong ETag of the bytes seen; suffix tells representations
// apart.
func (c *hashCounter) tag(suffix string) string {
	sum := c.h.Sum(nil)
	return `"` + base64.RawURLEncoding.EncodeToString(sum[:18]) + suffix + `"`
}
