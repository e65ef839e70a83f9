package httpx

import "net/http"

// HandlerFunc is the one handler shape of both services: it writes its
// answer, or returns the error that the service's ErrorWriter answers,
// so that no handler writes an error of its own.
type HandlerFunc func(http.ResponseWriter, *http.Request) error

// Handler adapts h to net/http: an error that h returns goes through
// writeErr, the service's one error writer.
func (writeErr ErrorWriter) Handler(h HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := h(w, r); err != nil {
			writeErr(w, r, err)
		}
	})
}
