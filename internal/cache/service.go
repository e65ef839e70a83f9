package cache

import (
	"context"
	"log/slog"
	"net/http"
	"sync"

	"catalog/internal/catalog"
	"catalog/internal/httpx"
)

// This file is what both services' read handlers share beyond the
// response cache itself: the version they key on, the change order of
// the MacCMS list, and writing a cached answer.

// ForStore returns the Reads of one service over store: keyed on kind's
// own version (a write to the other kind leaves the cached answers
// alone), caching at most DefaultMaxBytes, with orders that log to log.
func ForStore(store catalog.Store, kind catalog.SearchKind, log *slog.Logger) *Reads {
	r := NewReads(func(ctx context.Context) (int64, error) { return store.KindVersion(ctx, kind) }, 0)
	r.log = log
	return r
}

// orders are a service's id orders by name.
type orders struct {
	mu sync.Mutex
	m  map[string]*Order
}

// Order returns the id order called name (one list, or one filtered
// form of it) over walk, created, and its first build started, on first
// use. Every call with one name must pass the same walk.
func (r *Reads) Order(name string, walk func(ctx context.Context, fn func(id int64)) (int64, error)) *Order {
	r.orders.mu.Lock()
	defer r.orders.mu.Unlock()
	o, ok := r.orders.m[name]
	if !ok {
		if r.orders.m == nil {
			r.orders.m = map[string]*Order{}
		}
		o = NewOrder(walk, r.log)
		r.orders.m[name] = o
		o.Refresh()
	}
	return o
}

// Serve answers a read from the cache under key, or from an encoding
// of its own when key is "" (an answer that depends on more than the
// query and the data, such as the clock), and writes it with status 200
// and contentType ("": JSON). encode gets the data version read for the
// request (see Reads.Get). An error is returned for the service's error
// writer, nothing written.
func (r *Reads) Serve(w http.ResponseWriter, req *http.Request, key, contentType string, encode func(ctx context.Context, version int64) ([]byte, error)) error {
	fill := func(ctx context.Context, version int64) (*httpx.Payload, error) {
		body, err := encode(ctx, version)
		if err != nil {
			return nil, err
		}
		return httpx.NewPayloadAs(body, contentType), nil
	}
	var p *httpx.Payload
	var err error
	if key != "" {
		p, err = r.Get(req.Context(), key, fill)
	} else {
		p, err = r.Uncached(req.Context(), fill)
	}
	if catalog.ErrorCode(err) == catalog.EUNAVAILABLE {
		// The index building, records moving, a read past its deadline:
		// all pass within moments.
		w.Header().Set("Retry-After", "1")
	}
	if err != nil {
		return err
	}
	httpx.WritePayload(w, req, http.StatusOK, p)
	return nil
}
