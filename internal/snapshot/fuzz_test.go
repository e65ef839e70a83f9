package snapshot

import (
	"bytes"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"

	"catalog/internal/catalog"
	"catalog/internal/httpx"
)

// FuzzServeRange sends arbitrary Range headers, plain and gzip, to a
// snapshot written with a full-flush point every 1,000 bytes: every
// answer is the whole document, the right slice of it, or a 416 left to
// the movie service's error writer; a plain range never decompresses
// more than one flush interval besides the bytes it sends.
func FuzzServeRange(f *testing.F) {
	for _, s := range []string{
		"bytes=0-0", "bytes=-1", "bytes=5-", "bytes=0-999999999", "bytes=999-1000", "bytes=1000-1999", "bytes=-0",
		"bytes=9223372036854775807-", "bytes=-9223372036854775808", "bytes=1-0", "bytes=--1", "bytes=+1-2",
		"bytes=0-0,5-5", "bytes=0-1,1-2,-3", "bytes = 1-2", "items=0-1", "bytes=\x00-1", "bytes=\xff", "bytes=,",
		"bytes=99999999999999999999-", "", "BYTES=0-9", "Bytes=-0,0-0", "bytes=-0,,-00", "bytes=" + strings.Repeat("1-2,", 300),
	} {
		f.Add(s, false)
		f.Add(s, true)
	}
	store := newTestStore(f)
	addNumbered(f, store, 1, 200)
	s := newTestService(f, store)
	s.flushEvery = 1000
	refresh(f, s)
	plain := serve(f, s, http.MethodGet).body
	zipped := serve(f, s, http.MethodGet, "Accept-Encoding", "gzip").body
	if len(plain) < 20_000 || len(s.current.Load().index) < 20 {
		f.Fatalf("%d bytes in %d flush intervals: too small to fuzz ranges", len(plain), len(s.current.Load().index))
	}
	f.Fuzz(func(t *testing.T, rng string, gzip bool) {
		header := []string{"Range", rng}
		doc := plain
		if gzip {
			header = append(header, "Accept-Encoding", "gzip")
			doc = zipped
		}
		before := s.inflated.Load()
		r := serve(t, s, http.MethodGet, header...)
		cost := s.inflated.Load() - before
		if r.err != nil {
			if catalog.ErrorCode(r.err) != httpx.ERANGE || len(r.body) != 0 {
				t.Fatalf("%q: got error %v with %d bytes", rng, r.err, len(r.body))
			}
			if want := fmt.Sprintf("bytes */%d", len(doc)); r.header.Get("Content-Range") != want {
				t.Fatalf("%q: 416 with Content-Range %q, want %q", rng, r.header.Get("Content-Range"), want)
			}
			return
		}
		switch r.status {
		case http.StatusOK:
			if !bytes.Equal(r.body, doc) {
				t.Fatalf("%q: 200 with %d bytes, want the %d-byte document", rng, len(r.body), len(doc))
			}
		case http.StatusPartialContent:
			if mt, params, _ := mime.ParseMediaType(r.header.Get("Content-Type")); mt == "multipart/byteranges" {
				if !gzip {
					t.Fatalf("%q: a plain multipart answer", rng)
				}
				mr := multipart.NewReader(bytes.NewReader(r.body), params["boundary"])
				for {
					p, err := mr.NextPart()
					if err == io.EOF {
						break
					}
					if err != nil {
						t.Fatalf("%q: multipart: %v", rng, err)
					}
					body, _ := io.ReadAll(p)
					checkPart(t, rng, p.Header.Get("Content-Range"), body, doc)
				}
				return
			}
			checkPart(t, rng, r.header.Get("Content-Range"), r.body, doc)
			if !gzip && cost > 1000+int64(len(r.body)) {
				t.Fatalf("%q: decompressed %d bytes to send %d", rng, cost, len(r.body))
			}
		default:
			t.Fatalf("%q: got status %d", rng, r.status)
		}
	})
}

// checkPart checks that body is the slice of doc its Content-Range names.
func checkPart(t *testing.T, rng, contentRange string, body, doc []byte) {
	t.Helper()
	var first, last, size int
	if _, err := fmt.Sscanf(contentRange, "bytes %d-%d/%d", &first, &last, &size); err != nil {
		t.Fatalf("%q: Content-Range %q: %v", rng, contentRange, err)
	}
	if size != len(doc) || first < 0 || first > last || last >= size || !bytes.Equal(body, doc[first:last+1]) {
		t.Fatalf("%q: %d bytes for Content-Range %q of a %d-byte document", rng, len(body), contentRange, len(doc))
	}
}
