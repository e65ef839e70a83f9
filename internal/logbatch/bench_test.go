package logbatch_test

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"testing"

	"catalog/internal/httpx"
	"catalog/internal/logbatch"
	"catalog/internal/testenv"
)

type discardWriter struct{ h http.Header }

func (d *discardWriter) Header() http.Header         { return d.h }
func (d *discardWriter) Write(b []byte) (int, error) { return len(b), nil }
func (d *discardWriter) WriteHeader(int)             {}

// BenchmarkRequestLogPipe serves a cached 2 KiB answer (the cheapest
// request, where the log line weighs most) through httpx.Common, whose
// JSON request line goes down a pipe that another process reads, as
// serve's stderr under systemd or a container runtime: "direct" writes
// each line, "batched" through a logbatch.Writer. cpu-ns/op is this
// process's CPU per request (the reader's is not in it).
func BenchmarkRequestLogPipe(b *testing.B) {
	for _, batched := range []bool{false, true} {
		b.Run(map[bool]string{false: "direct", true: "batched"}[batched], func(b *testing.B) {
			reader := exec.Command("cat")
			reader.Stdout = io.Discard
			pipe, err := reader.StdinPipe()
			if err != nil {
				b.Fatal(err)
			}
			if err := reader.Start(); err != nil {
				b.Skip("no cat to read the pipe:", err)
			}
			var out io.Writer = pipe.(*os.File)
			if batched {
				w := logbatch.New(out, logbatch.FlushEvery)
				defer w.Close()
				out = w
			}
			defer func() { pipe.Close(); reader.Wait() }()
			body := `{"data":"` + strings.Repeat("x", 2<<10-11) + `"}`
			p := httpx.NewPayload([]byte(body))
			p.Gzipped()
			log := slog.New(httpx.LogHandler(httpx.NewJSONHandler(out, httpx.LogOptions(slog.LevelInfo))))
			h := httpx.Common(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				httpx.WritePayload(w, r, http.StatusOK, p)
			}), log, func(http.ResponseWriter, *http.Request, error) {})
			r := httptest.NewRequest("GET", "/api/movies/7", nil)
			r.Header.Set("Accept-Encoding", "gzip")
			w := &discardWriter{h: http.Header{}}
			b.ReportAllocs()
			cpu := testenv.CPUTime()
			for b.Loop() {
				clear(w.h)
				h.ServeHTTP(w, r)
			}
			b.ReportMetric(float64(testenv.CPUTime()-cpu)/float64(b.N), "cpu-ns/op")
		})
	}
}
