// Package cache makes the hot read paths cheap without bending the
// contract: encoded responses are kept per normalised query and data
// version, and the version is read from the database for every request,
// never skipped, so no answer is older than the request.
package cache

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/sync/singleflight"

	"catalog/internal/catalog"
	"catalog/internal/httpx"
)

// DefaultMaxBytes bounds the encoded bytes (plain and gzip) one
// Responses keeps. The hot answers (first pages, details, popular
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

// Responses keeps encoded responses (with their gzip form) per
// normalised query for one data version. Every entry belongs to the
// newest version seen; a newer version empties the cache, so a caller
// that passes the version it just read never gets bytes older than that
// version. Concurrent misses on one key and version run one fill.
type Responses struct {
	maxBytes int64

	mu      sync.Mutex
	version int64
	entries map[string]*httpx.Payload
	bytes   int64
	fills   singleflight.Group // by version and key

	stats *Stats // nil: not counted
}

// NewResponses returns a cache of at most maxBytes (0: DefaultMaxBytes).
func NewResponses(maxBytes int64) *Responses {
	if maxBytes <= 0 {
		maxBytes = DefaultMaxBytes
	}
	return &Responses{maxBytes: maxBytes, entries: map[string]*httpx.Payload{}}
}

// Get returns the response for key at version, calling fill on a miss.
// fill must read the store after version was read (so its data is at
// least that new) and is not cached when it fails. Concurrent misses of
// one key and version wait for one fill, which its caller's read
// deadline bounds; when that fill fails (perhaps only because its
// caller went away), each waiter fills on its own.
func (c *Responses) Get(ctx context.Context, version int64, key string, fill func(context.Context) (*httpx.Payload, error)) (*httpx.Payload, error) {
	c.mu.Lock()
	if version == c.version {
		if p, ok := c.entries[key]; ok {
			c.mu.Unlock()
			c.stats.hit()
			return p, nil
		}
	}
	c.mu.Unlock()
	led := false
	v, err, _ := c.fills.Do(strconv.FormatInt(version, 10)+" "+key, func() (any, error) {
		led = true
		p, err := c.fill(ctx, fill)
		if err == nil {
			c.mu.Lock()
			c.store(version, key, p)
			c.mu.Unlock()
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
		return c.fill(ctx, fill)
	}
	c.stats.hit()
	return v.(*httpx.Payload), nil
}

// fill runs f and makes the gzip form now, outside any lock, so that
// hits never compress.
func (c *Responses) fill(ctx context.Context, f func(context.Context) (*httpx.Payload, error)) (*httpx.Payload, error) {
	c.stats.miss()
	p, err := f(ctx)
	if err != nil {
		return nil, err
	}
	if cap(p.Plain) > len(p.Plain)+len(p.Plain)/8 {
		// Encoders over-allocate; a kept body should not keep the slack.
		trimmed := httpx.NewPayload(slices.Clone(p.Plain))
		trimmed.ContentType = p.ContentType
		p = trimmed
	}
	if len(p.Plain) > httpx.GzipMinSize {
		p.Gzipped()
	}
	return p, nil
}

// store adds p under key; c.mu is held. An older version is not kept
// (newer entries already replaced it); a newer one empties the cache.
func (c *Responses) store(version int64, key string, p *httpx.Payload) {
	bytes, entries := c.bytes, len(c.entries)
	defer func() { c.stats.kept(c.bytes-bytes, len(c.entries)-entries) }()
	if version < c.version {
		return
	}
	if version > c.version {
		clear(c.entries)
		c.bytes = 0
		c.version = version
	}
	if len(key) > MaxKeyBytes {
		return
	}
	size := entrySize(key, p)
	if size > c.maxBytes/16 {
		return // one huge response must not flush everything else
	}
	if old, ok := c.entries[key]; ok {
		c.bytes -= entrySize(key, old)
	}
	c.entries[key] = p
	c.bytes += size
	// Evict in map order, which Go randomises: random eviction needs no
	// bookkeeping on the hit path, and a uniform load keeps what fits.
	for k, old := range c.entries {
		if c.bytes <= c.maxBytes {
			break
		}
		if k == key {
			continue
		}
		delete(c.entries, k)
		c.bytes -= entrySize(k, old)
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

// Len reports the number of cached responses and their bytes.
func (c *Responses) Len() (entries int, bytes int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries), c.bytes
}

// Reads combines the per-request version read with a Responses: what
// each service's read handlers share.
type Reads struct {
	version   func(context.Context) (int64, error)
	responses *Responses
}

// NewReads returns Reads over a store's DataVersion, caching at most
// maxBytes (0: DefaultMaxBytes).
func NewReads(dataVersion func(context.Context) (int64, error), maxBytes int64) *Reads {
	return &Reads{version: dataVersion, responses: NewResponses(maxBytes)}
}

// Get reads the data version, then answers key from the cache or from
// fill, which gets that version (see Responses.Get).
func (r *Reads) Get(ctx context.Context, key string, fill func(ctx context.Context, version int64) (*httpx.Payload, error)) (*httpx.Payload, error) {
	version, err := r.version(ctx)
	if err != nil {
		return nil, err
	}
	return r.responses.Get(ctx, version, key, func(ctx context.Context) (*httpx.Payload, error) {
		return fill(ctx, version)
	})
}

// Uncached reads the data version and calls fill, for answers that
// depend on more than the query (the clock).
func (r *Reads) Uncached(ctx context.Context, fill func(ctx context.Context, version int64) (*httpx.Payload, error)) (*httpx.Payload, error) {
	version, err := r.version(ctx)
	if err != nil {
		return nil, err
	}
	return fill(ctx, version)
}

// AppendTerms writes search terms into a cache key, length-prefixed: a
// term may contain any byte, and ["a b"] must not meet ["a", "b"].
func AppendTerms(b *strings.Builder, terms []string) {
	for _, t := range terms {
		b.WriteString("\x00t")
		b.WriteString(strconv.Itoa(len(t)))
		b.WriteByte(':')
		b.WriteString(t)
	}
}

// AppendMatch writes value filters (catalog.ParseValueFilters) into a cache
// key, each value length-prefixed as terms are.
func AppendMatch(b *strings.Builder, match []catalog.FieldValue) {
	for _, m := range match {
		b.WriteString("\x00v")
		b.WriteString(m.Field.String())
		b.WriteByte('=')
		b.WriteString(strconv.Itoa(len(m.Value)))
		b.WriteByte(':')
		b.WriteString(m.Value)
	}
}
