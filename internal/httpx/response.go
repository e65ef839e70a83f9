package httpx

import (
	"context"
	"net/http"
	"strings"
)

// Response is the one http.ResponseWriter wrapper of both services'
// chains. The outermost layer makes it (Record); every layer inside
// finds the same one, so the chain adds one indirection per write
// however many layers look at the answer. It remembers the final status
// and the size written, tells whether the status went out while the
// connection was still there, runs the layers' header hooks once when
// the status is known, and can hold back one status and its body so
// that a handler answers it in its service's own shape instead.
type Response struct {
	http.ResponseWriter
	ctx    context.Context // the request's connection
	status int             // first final status written; 0 = none yet
	bytes  int
	sent   bool // the status went out before the connection went away

	hooks []func(status int, h http.Header)
	hold  int  // status to hold back; 0 = none
	held  bool // a held-back status was written; its body goes nowhere
}

// Record returns the Response of w, wrapping w when no layer outside
// has: the layers of one chain share one.
func Record(w http.ResponseWriter, r *http.Request) *Response {
	if rw, ok := w.(*Response); ok {
		return rw
	}
	return &Response{ResponseWriter: w, ctx: r.Context()}
}

// Status is the final status written, 0 when none was.
func (w *Response) Status() int { return w.status }

// Bytes is the size of the body written.
func (w *Response) Bytes() int { return w.bytes }

// SentBeforeGone reports whether the status went out while the
// connection was still there.
func (w *Response) SentBeforeGone() bool { return w.sent }

// OnHeader runs f once, just before the final status goes out, with
// that status and the headers still open to change. Hooks run in the
// order they were added.
func (w *Response) OnHeader(f func(status int, h http.Header)) {
	w.hooks = append(w.hooks, f)
}

// HoldBack makes the next WriteHeader(status), and the body written
// after it, go nowhere; held reports whether that happened. The handler
// then writes its own answer: the library that chose the status
// (http.ServeContent's plain-text 416) does not get to write it.
func (w *Response) HoldBack(status int) (held func() bool) {
	w.hold = status
	return func() bool { return w.held }
}

func (w *Response) WriteHeader(code int) {
	if w.status == 0 && code >= 200 {
		if code == w.hold {
			w.hold, w.held = 0, true
			return
		}
		w.status = code
		w.sent = w.ctx.Err() == nil
		for _, f := range w.hooks {
			f(code, w.Header())
		}
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *Response) Write(b []byte) (int, error) {
	if w.status == 0 {
		if w.held {
			return len(b), nil
		}
		w.WriteHeader(http.StatusOK)
	}
	n, err := w.ResponseWriter.Write(b)
	w.bytes += n
	return n, err
}

// Unwrap lets http.ResponseController reach the real writer.
func (w *Response) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// errorClears are the headers that describe a success body or where it
// went; an error answer must not carry them.
var errorClears = []string{"Content-Length", "Content-Encoding", "Content-Disposition",
	"ETag", "Last-Modified", "Location"}

// ClearForError readies h for an error answer: the headers a handler
// set for the success it did not send go, and no cache may keep the
// error (a 404 must not stick for a day). A Content-Range stays only in
// the "bytes */size" form that a 416 carries (RFC 9110 15.5.17). Each
// service's ErrorWriter calls it, and so does panic recovery.
func ClearForError(h http.Header) {
	for _, k := range errorClears {
		h.Del(k)
	}
	if !strings.HasPrefix(h.Get("Content-Range"), "bytes */") {
		h.Del("Content-Range")
	}
	h.Set("Cache-Control", NoStore)
}
