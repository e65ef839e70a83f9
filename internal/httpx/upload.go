package httpx

import (
	"errors"
	"io"
	"net/http"
	"os"
	"strconv"
	"time"

	"catalog/internal/catalog"
)

// ESLOW is the code of a 408: an upload slower than the minimum rate.
// Only HTTP produces it.
const ESLOW = "upload_too_slow"

// The minimum transfer rate of an upload: at least UploadMinBytes in
// every UploadWindow that the server spends waiting for the client
// (about 1 KiB/s). A slow link of any length finishes; a stalled or
// trickling one is cut. Time the server spends writing what it already
// read does not count against the client.
const (
	UploadWindow   = 30 * time.Second
	UploadMinBytes = 32 << 10
)

// DefaultUploadMaxDuration is how long one upload may take at most,
// however fast it sends: a holder of a token cannot keep the import slot
// for days by sending just above the minimum rate (serve's
// --upload-max-duration).
const DefaultUploadMaxDuration = 30 * time.Minute

// UploadBody reads a long request body (an import) under the minimum
// transfer rate and a maximum duration instead of the server's
// whole-body ReadTimeout, through a read deadline set with
// http.ResponseController before every read. Its read errors are
// *catalog.Error values: ESLOW for a cut upload, EINVALID for one that
// broke off; io.EOF ends it as usual.
type UploadBody struct {
	body   io.ReadCloser
	rc     *http.ResponseController
	max    time.Duration // the upload's maximum duration
	end    time.Time     // when it is past
	read   int64         // bytes so far
	got    int64         // bytes since the window restarted
	waited time.Duration // time spent waiting in Read since then
}

// NewUploadBody takes over r's body for w; the upload must end within
// maxDuration from now (0: DefaultUploadMaxDuration). It lifts the
// server's write deadline too, which counts from the start of the
// request and would fire before a long upload is read; call Answer
// before answering.
func NewUploadBody(w http.ResponseWriter, r *http.Request, maxDuration time.Duration) *UploadBody {
	if maxDuration <= 0 {
		maxDuration = DefaultUploadMaxDuration
	}
	u := &UploadBody{body: r.Body, rc: http.NewResponseController(w), max: maxDuration, end: time.Now().Add(maxDuration)}
	u.rc.SetWriteDeadline(time.Time{}) // unsupported (a test recorder): no deadline to lift
	return u
}

// Read reads the body, waiting at most what is left of the window, and
// never past the upload's end.
func (u *UploadBody) Read(p []byte) (int, error) {
	start := time.Now()
	if !start.Before(u.end) {
		return 0, u.cut(os.ErrDeadlineExceeded)
	}
	deadline := start.Add(UploadWindow - u.waited)
	if u.end.Before(deadline) {
		deadline = u.end
	}
	err := u.rc.SetReadDeadline(deadline)
	if err != nil && !errors.Is(err, http.ErrNotSupported) {
		return 0, u.cut(err)
	}
	n, err := u.body.Read(p)
	u.read += int64(n)
	u.got += int64(n)
	u.waited += time.Since(start)
	if u.got >= UploadMinBytes {
		u.got, u.waited = 0, 0
	}
	if err != nil && err != io.EOF {
		return n, u.cut(err)
	}
	return n, err
}

// cut is the client-safe error of a failed body read. It does not wrap
// the cause: a decoder must not take a connection that broke off
// (io.ErrUnexpectedEOF) for a file that ends early.
func (u *UploadBody) cut(err error) error {
	if errors.Is(err, os.ErrDeadlineExceeded) && !time.Now().Before(u.end) {
		return catalog.Errorf(ESLOW, "the upload was cut after %s bytes: it took longer than %s, the most one upload may take",
			strconv.FormatInt(u.read, 10), u.max)
	}
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return catalog.Errorf(ESLOW, "the upload was cut after %s bytes: it sent less than %d KiB in %s",
			strconv.FormatInt(u.read, 10), UploadMinBytes>>10, UploadWindow)
	}
	return catalog.Errorf(catalog.EINVALID, "the upload broke off after %s bytes", strconv.FormatInt(u.read, 10))
}

// Close closes the request body.
func (u *UploadBody) Close() error { return u.body.Close() }

// Answer gives the answer UploadWindow to be written.
func (u *UploadBody) Answer() {
	u.rc.SetWriteDeadline(time.Now().Add(UploadWindow))
}
