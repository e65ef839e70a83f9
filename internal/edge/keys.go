// Package edge keeps an edge cache (Varnish, Fastly, Cloudflare) fresh
// (contract 7): read responses name what they contain with surrogate
// keys, and every committed write announces the keys it changed to a
// purge URL, so the edge drops just those objects instead of serving an
// edited movie for the day its max-age allows.
//
// The keys:
//
//	movies      every movie-service list and detail (/api/movies, /api/jav, ...)
//	movie-ID    the detail of movie ID, in both forms (/api/movies/ID, /api/jav/ID)
//	clips       every clip list and detail
//	clip-ID     the detail of clip ID
//	snapshot    the movie snapshot, and nothing else
//
// A write announces the collection key and the keys of the records it
// touched. Since a change to one record can change any list (a new
// title matches other searches, totals move), the collection key must
// be purged on every write, and it is on details too, so that a batch of
// 25,000 imported movies is one short purge ("movies") instead of
// 25,000 item keys. The item keys are still sent for small batches and
// still tag the details: an operator can purge one record by hand, and
// an edge that tags differently can purge narrower.
//
// The snapshot carries only "snapshot": it changes when it is rebuilt
// (every --snapshot-every), not on a write, and its max-age already
// ends at the next rebuild; a rebuild announces "snapshot".
package edge

import (
	"net/http"
	"strconv"
	"strings"
)

// The collection keys.
const (
	Movies   = "movies"
	Clips    = "clips"
	Snapshot = "snapshot"
)

// MovieKey is the key of one movie's detail.
func MovieKey(id int64) string { return "movie-" + strconv.FormatInt(id, 10) }

// ClipKey is the key of one clip's detail.
func ClipKey(id int64) string { return "clip-" + strconv.FormatInt(id, 10) }

// SetKeys sets the surrogate keys of a response in the two common
// spellings: Surrogate-Key (Fastly, Varnish xkey; space-separated) and
// Cache-Tag (Cloudflare, Akamai; comma-separated).
func SetKeys(h http.Header, keys ...string) {
	h.Set("Surrogate-Key", strings.Join(keys, " "))
	h.Set("Cache-Tag", strings.Join(keys, ","))
}

// HasKeys reports whether a response already names its keys.
func HasKeys(h http.Header) bool { return h.Get("Surrogate-Key") != "" }

// ItemKeys wraps a detail handler whose route has an {id}: its answer
// carries the collection key and, when the id is well formed, the
// item's key. Only a parsed number goes into the header, never the raw
// path text.
func ItemKeys(collection string, item func(int64) string, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if id, err := strconv.ParseInt(r.PathValue("id"), 10, 64); err == nil && id > 0 {
			SetKeys(w.Header(), collection, item(id))
		} else {
			SetKeys(w.Header(), collection)
		}
		h.ServeHTTP(w, r)
	})
}

// WithKeys wraps a handler whose answers always carry keys.
func WithKeys(h http.Handler, keys ...string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		SetKeys(w.Header(), keys...)
		h.ServeHTTP(w, r)
	})
}
