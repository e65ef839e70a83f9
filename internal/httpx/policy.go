package httpx

import "net/http"

// NoStore is the Cache-Control of every error answer and of answers no
// cache may keep (health, writes).
const NoStore = "no-store"

// Policy is a service's one header policy for its public reads, decided
// when the status is known: every answer carries
// Access-Control-Allow-Origin: * (reads carry no credentials); an error
// (4xx, 5xx) is NoStore; a successful GET or HEAD gets Success unless
// the handler chose its own Cache-Control (health, the snapshot).
type Policy struct {
	Success string // Cache-Control of a successful read
}

// Wrap applies the policy to every answer of h.
func (p *Policy) Wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := Record(w, r)
		rec.Header().Set("Access-Control-Allow-Origin", "*")
		read := r.Method == http.MethodGet || r.Method == http.MethodHead
		rec.OnHeader(func(status int, h http.Header) {
			switch {
			case status >= 400:
				h.Set("Cache-Control", NoStore)
			case read && h.Get("Cache-Control") == "":
				h.Set("Cache-Control", p.Success)
			}
		})
		h.ServeHTTP(rec, r)
	})
}
