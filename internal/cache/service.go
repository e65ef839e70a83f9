package cache

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"catalog/internal/catalog"
	"catalog/internal/httpx"
)

// This file is what both services' read handlers share beyond the
// response cache itself: the version they key on and writing a cached
// answer.

// ForStore returns the Reads of one service over store: keyed on kind's
// own version (a write to the other kind leaves the cached answers
// alone), caching at most DefaultMaxBytes.
func ForStore(store catalog.Store, kind catalog.SearchKind) *Reads {
	return NewReads(func(ctx context.Context) (int64, error) { return store.KindVersion(ctx, kind) }, 0)
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

// DayKey is the cache key of an answer that may carry hits: the counts
// of the day, week and month served depend on the UTC day (catalog.Hits.
// At) as well as on the data, so a new day needs new answers even when
// nothing was written.
func DayKey(key string, now time.Time) string {
	return key + "\x00d" + strconv.FormatInt(int64(catalog.HitDayOf(now)), 10)
}
