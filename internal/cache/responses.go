// Package cache makes the hot read paths cheap without bending the
// contract: encoded responses are kept per normalised query and data
// version, and the version is read from the database for every request,
// never skipped, so no answer is older than the request.
package cache

import (
	"context"
	"net/http"
	"slices"
	"strconv"
	"sync"

	"golang.org/x/sync/singleflight"

	"catalog/internal/catalog"
	"catalog/internal/httpx"
)

// DefaultMaxBytes bounds the encoded bytes (plain and gzip) one
// Reads keeps. The hot answers (first pages, details, popular
// searches) must fit many times over; deep pages and rare searches
// only churn it, so a larger cap buys heap and no hits.
const DefaultMaxBytes = 16 << 20

// entryOverhead approximates the bytes an entry costs beyond its bodies
// and key (map slot, string and Payload headers), so that many tiny
// entries still count against the cap.
const entryOverhead = 160

// MaxKeyBytes is the longest key kept: a normalised query longer than
// this (many long search words) is answered but not cached, so strangers
// cannot fill the cache with keys.
const MaxKeyBytes = 1 << 10

// Versions reads the data version of one kind of record (every
// catalog.Store has it).
type Versions interface {
	KindVersion(ctx context.Context, kind catalog.SearchKind) (int64, error)
}

// Reads answers one service's reads. The data version of its kind is
// read for every request, never skipped, and encoded responses (with
// their gzip form) are kept per normalised query for the newest version
// seen: a newer version empties the cache, so no answer is older than
// the version its request read. Concurrent misses on one key and
// version run one fill.
type Reads struct {
	versions Versions
	kind     catalog.SearchKind
	maxBytes int64

	mu      sync.Mutex
	version int64
	entries map[string]*httpx.Payload
	bytes   int64
	fills   singleflight.Group // by version and key

	stats *Stats // nil: not counted
}

// ForStore returns the Reads of one service over store: keyed on kind's
// own version (a write to the other kind leaves the cached answers
// alone), caching at most DefaultMaxBytes.
func ForStore(store Versions, kind catalog.SearchKind) *Reads {
	return &Reads{versions: store, kind: kind, maxBytes: DefaultMaxBytes, entries: map[string]*httpx.Payload{}}
}

// Serve answers a read from the cache under key, or from an encoding
// of its own when key is "" (an answer that depends on more than the
// query and the data, such as the clock), and writes it with status 200
// and contentType ("": JSON). encode gets the data version read for the
// request (the store's data at that version or newer). An error is
// returned for the service's error writer, nothing written.
func (r *Reads) Serve(w http.ResponseWriter, req *http.Request, key, contentType string, encode func(ctx context.Context, version int64) ([]byte, error)) error {
	ctx := req.Context()
	version, err := r.versions.KindVersion(ctx, r.kind)
	var p *httpx.Payload
	if err == nil {
		p, err = r.payload(ctx, version, key, contentType, encode)
	}
	if err != nil {
		if catalog.ErrorCode(err) == catalog.EUNAVAILABLE {
			// The index building, records moving, a read past its
			// deadline: all pass within moments.
			w.Header().Set("Retry-After", "1")
		}
		return err
	}
	httpx.WritePayload(w, req, http.StatusOK, p)
	return nil
}

// payload is key's answer at version: kept, or encoded now. encode must
// read the store after version was read (so its data is at least that
// new); a failed encoding is not kept. Concurrent misses of one key and
// version wait for one encoding, which its caller's read deadline
// bounds; when it fails (perhaps only because its caller went away),
// each waiter encodes on its own.
func (r *Reads) payload(ctx context.Context, version int64, key, contentType string, encode func(ctx context.Context, version int64) ([]byte, error)) (*httpx.Payload, error) {
	if key == "" {
		body, err := encode(ctx, version)
		if err != nil {
			return nil, err
		}
		return httpx.NewPayloadAs(body, contentType), nil
	}
	r.mu.Lock()
	if version == r.version {
		if p, ok := r.entries[key]; ok {
			r.mu.Unlock()
			r.stats.hit()
			return p, nil
		}
	}
	r.mu.Unlock()
	led := false
	v, err, _ := r.fills.Do(strconv.FormatInt(version, 10)+" "+key, func() (any, error) {
		led = true
		p, err := r.fill(ctx, version, contentType, encode)
		if err == nil {
			r.mu.Lock()
			r.store(version, key, p)
			r.mu.Unlock()
		}
		return p, err
	})
	switch {
	case led:
		if err != nil {
			return nil, err
		}
		return v.(*httpx.Payload), nil
	case err != nil:
		return r.fill(ctx, version, contentType, encode)
	}
	r.stats.hit()
	return v.(*httpx.Payload), nil
}

// fill encodes an answer to keep and makes its gzip form now, outside
// any lock, so that hits never compress.
func (r *Reads) fill(ctx context.Context, version int64, contentType string, encode func(ctx context.Context, version int64) ([]byte, error)) (*httpx.Payload, error) {
	r.stats.miss()
	body, err := encode(ctx, version)
	if err != nil {
		return nil, err
	}
	if cap(body) > len(body)+len(body)/8 {
		// Encoders over-allocate; a kept body should not keep the slack.
		body = slices.Clone(body)
	}
	p := httpx.NewPayloadAs(body, contentType)
	if len(p.Plain) > httpx.GzipMinSize {
		p.Gzipped()
	}
	return p, nil
}

// store adds p under key; r.mu is held. An older version is not kept
// (newer entries already replaced it); a newer one empties the cache.
func (r *Reads) store(version int64, key string, p *httpx.Payload) {
	bytes, entries := r.bytes, len(r.entries)
	defer func() { r.stats.kept(r.bytes-bytes, len(r.entries)-entries) }()
	if version < r.version {
		return
	}
	if version > r.version {
		clear(r.entries)
		r.bytes = 0
		r.version = version
	}
	if len(key) > MaxKeyBytes {
		return
	}
	size := entrySize(key, p)
	if size > r.maxBytes/16 {
		return // one huge response must not flush everything else
	}
	if old, ok := r.entries[key]; ok {
		r.bytes -= entrySize(key, old)
	}
	r.entries[key] = p
	r.bytes += size
	// Evict in map order, which Go randomises: random eviction needs no
	// bookkeeping on the hit path, and a uniform load keeps what fits.
	for k, old := range r.entries {
		if r.bytes <= r.maxBytes {
			break
		}
		if k == key {
			continue
		}
		delete(r.entries, k)
		r.bytes -= entrySize(k, old)
	}
}

// entrySize counts the key and the bodies' capacities, not lengths: what
// the cache keeps alive is the allocated memory.
func entrySize(key string, p *httpx.Payload) int64 {
	n := int64(len(key)) + int64(cap(p.Plain)) + entryOverhead
	if len(p.Plain) > httpx.GzipMinSize {
		n += int64(cap(p.Gzipped()))
	}
	return n
}
