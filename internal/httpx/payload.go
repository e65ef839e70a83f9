package httpx

import (
	"bytes"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"catalog/internal/fixedgzip"

	"github.com/cespare/xxhash/v2"
	"github.com/klauspost/compress/gzip"
)

// GzipMinSize is the smallest body sent gzip-compressed (contract 2).
const GzipMinSize = 1024

// Payload is an encoded JSON body with its strong ETag; the gzip form is
// made once, on first demand, so a cached Payload serves both kinds of
// client without recompressing.
type Payload struct {
	Plain       []byte
	ETag        string // quoted strong tag of Plain
	ContentType string // "" = JSON (application/json; charset=utf-8)

	gzipOnce sync.Once
	gzipped  []byte
}

// NewPayload wraps an encoded JSON body. The tag depends only on the
// bytes, so every instance behind a load balancer gives the same tag.
// The sum is xxHash64: every fresh answer pays for it, so it must be
// far cheaper than the encoding it tags.
func NewPayload(plain []byte) *Payload {
	sum := xxhash.Sum64(plain)
	tag := make([]byte, 0, 24)
	tag = append(tag, '"')
	tag = strconv.AppendUint(tag, sum, 36)
	tag = append(tag, '-')
	tag = strconv.AppendInt(tag, int64(len(plain)), 36)
	tag = append(tag, '"')
	return &Payload{Plain: plain, ETag: string(tag)}
}

// NewPayloadAs wraps a body of contentType ("" = JSON), tagged as
// NewPayload tags it.
func NewPayloadAs(plain []byte, contentType string) *Payload {
	p := NewPayload(plain)
	p.ContentType = contentType
	return p
}

// gzipTag is the tag of the gzip representation (a strong tag must
// differ between encodings).
func (p *Payload) gzipTag() string { return p.ETag[:len(p.ETag)-1] + `-gz"` }

// gzipWriter is what a Payload needs of a gzip encoder: klauspost's
// *gzip.Writer and *fixedgzip.Writer both are one.
type gzipWriter interface {
	io.WriteCloser
	Reset(io.Writer)
}

// Bodies up to fixedgzip.MaxSize go through fixed codes, which build no
// tables; longer ones through klauspost's fastest level, whose tables
// pay for themselves there.
var (
	smallGzip = sync.Pool{New: func() any { return fixedgzip.NewWriter(nil) }}
	largeGzip = sync.Pool{New: func() any {
		w, _ := gzip.NewWriterLevel(nil, gzip.BestSpeed)
		return w
	}}
)

// Gzipped returns the gzip-compressed body, compressing it once.
func (p *Payload) Gzipped() []byte {
	p.gzipOnce.Do(func() {
		pool, room := &largeGzip, len(p.Plain)/4+64
		if len(p.Plain) <= fixedgzip.MaxSize {
			pool, room = &smallGzip, len(p.Plain)/3+64
		}
		var buf bytes.Buffer
		buf.Grow(room)
		zw := pool.Get().(gzipWriter)
		zw.Reset(&buf)
		zw.Write(p.Plain)
		zw.Close()
		zw.Reset(nil) // the pooled writer keeps no reference to this body's buffer
		pool.Put(zw)
		p.gzipped = buf.Bytes()
	})
	return p.gzipped
}

// AcceptsGzip reports whether the request allows a gzip body.
func AcceptsGzip(r *http.Request) bool {
	for _, v := range r.Header.Values("Accept-Encoding") {
		for part := range strings.SplitSeq(v, ",") {
			name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
			if !strings.EqualFold(strings.TrimSpace(name), "gzip") {
				continue
			}
			return !zeroQuality(params)
		}
	}
	return false
}

// zeroQuality reports whether the parameters of one Accept-Encoding
// member say q=0, i.e. "not acceptable". Parameter names are
// case-insensitive (RFC 9110 12.4.2), so "Q=0" counts too.
func zeroQuality(params string) bool {
	for param := range strings.SplitSeq(params, ";") {
		name, value, _ := strings.Cut(param, "=")
		if strings.EqualFold(strings.TrimSpace(name), "q") {
			q, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
			return err == nil && q == 0
		}
	}
	return false
}

// ETagMatches reports whether an If-None-Match header value matches tag
// (weak comparison, as RFC 9110 prescribes for If-None-Match).
func ETagMatches(ifNoneMatch string, tags ...string) bool {
	for part := range strings.SplitSeq(ifNoneMatch, ",") {
		part = strings.TrimPrefix(strings.TrimSpace(part), "W/")
		if part == "*" {
			return true
		}
		for _, t := range tags {
			if part == t {
				return true
			}
		}
	}
	return false
}

// WritePayload writes p (JSON unless it names another type) with status. GET and HEAD
// requests whose If-None-Match matches get 304 with no body; bodies over
// GzipMinSize go gzip-compressed to clients that accept it. The caller
// sets Cache-Control and CORS headers before.
func WritePayload(w http.ResponseWriter, r *http.Request, status int, p *Payload) {
	h := w.Header()
	if p.ContentType != "" {
		h.Set("Content-Type", p.ContentType)
	} else {
		h.Set("Content-Type", "application/json; charset=utf-8")
	}
	body, gzipped := p.Plain, false
	if len(p.Plain) > GzipMinSize {
		h.Add("Vary", "Accept-Encoding")
		if AcceptsGzip(r) {
			body, gzipped = p.Gzipped(), true
			h.Set("Content-Encoding", "gzip")
		}
	}
	// Contract 2: every GET response carries a strong ETag, errors
	// included; only a 200 can become a 304. Other methods get none.
	if r.Method == http.MethodGet || r.Method == http.MethodHead {
		tag := p.ETag
		if gzipped {
			tag = p.gzipTag()
		}
		h.Set("ETag", tag)
		if status == http.StatusOK && ETagMatches(r.Header.Get("If-None-Match"), tag) {
			h.Del("Content-Type")
			h.Del("Content-Encoding")
			w.WriteHeader(http.StatusNotModified)
			return
		}
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		w.Write(body)
	}
}

// WriteJSON encodes nothing itself: it wraps already-encoded JSON bytes
// in a Payload and writes it. Only a GET or HEAD answer carries an
// ETag, so only theirs hash the body.
func WriteJSON(w http.ResponseWriter, r *http.Request, status int, body []byte) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		WritePayload(w, r, status, &Payload{Plain: body})
		return
	}
	WritePayload(w, r, status, NewPayload(body))
}
