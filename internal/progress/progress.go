// Package progress reports the advance of long commands (import, seed,
// snapshot --out, export; contract 7): a live bar on a terminal, drawn by
// github.com/schollz/progressbar, and a plain line every few seconds
// elsewhere, so that logs stay readable. A quiet Config reports nothing;
// the command still prints its summary.
//
// A Reporter is driven by the goroutine doing the work and checks the
// clock on each update instead of running a ticker, so the plain form is
// deterministic under a fake clock.
package progress

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
)

// DefaultInterval is the time between plain progress lines.
const DefaultInterval = 5 * time.Second

// barInterval bounds how often the terminal bar is redrawn: smooth to
// the eye, and a million updates cost no more than a few hundred draws.
const barInterval = 100 * time.Millisecond

// Config says where and how progress is shown.
type Config struct {
	Out      io.Writer // usually standard error
	Terminal bool      // Out is an interactive terminal: draw a live bar
	Quiet    bool      // show nothing
	// Interval is the time between plain lines; 0 means DefaultInterval.
	Interval time.Duration
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Reporter shows the progress of one piece of work. A nil Reporter
// (from a quiet Config) ignores every call.
type Reporter struct {
	out      io.Writer
	label    string
	total    int64 // 0 = unknown
	bytes    bool  // total counts input bytes, else records
	interval time.Duration
	now      func() time.Time

	records, read int64
	start, shown  time.Time
	bar           *progressbar.ProgressBar
	ended         bool // the bar's line was ended
}

// Records starts a report on work whose total number of records is
// known (0: unknown).
func (c Config) Records(label string, total int64) *Reporter {
	return c.start(label, total, false)
}

// Bytes starts a report on work that reads total bytes of input (0:
// unknown), such as an import; Read tells how far it got.
func (c Config) Bytes(label string, total int64) *Reporter {
	return c.start(label, total, true)
}

func (c Config) start(label string, total int64, bytes bool) *Reporter {
	if c.Quiet || c.Out == nil {
		return nil
	}
	r := &Reporter{out: c.Out, label: label, total: max(total, 0), bytes: bytes, interval: c.Interval, now: c.Now}
	if r.interval <= 0 {
		r.interval = DefaultInterval
	}
	if r.now == nil {
		r.now = time.Now
	}
	r.start = r.now()
	r.shown = r.start
	if c.Terminal {
		r.bar = r.newBar()
	}
	return r
}

func (r *Reporter) newBar() *progressbar.ProgressBar {
	opts := []progressbar.Option{
		progressbar.OptionSetWriter(r.out),
		progressbar.OptionSetDescription(r.label),
		progressbar.OptionSetWidth(30),
		progressbar.OptionShowCount(),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionSetRenderBlankState(true),
		progressbar.OptionOnCompletion(r.endLine),
	}
	if r.bytes {
		// Bytes of input and their rate; the records and their rate go
		// in the description.
		opts = append(opts, progressbar.OptionShowBytes(true))
	} else {
		opts = append(opts, progressbar.OptionShowIts(), progressbar.OptionSetItsString("records"))
	}
	max := r.total
	if max == 0 {
		max = -1 // a spinner with the count and rate
	}
	return progressbar.NewOptions64(max, opts...)
}

// endLine moves past the bar's line, once.
func (r *Reporter) endLine() {
	if !r.ended {
		r.ended = true
		fmt.Fprintln(r.out)
	}
}

// Restart sets the record count back to zero, for work that starts over
// (a snapshot retried after the catalog changed under it).
func (r *Reporter) Restart() {
	if r == nil {
		return
	}
	r.records = 0
	r.start = r.now()
	r.shown = r.start
	if r.bar != nil {
		r.bar.Reset()
		r.update(true)
	}
}

// Add counts n more records done.
func (r *Reporter) Add(n int64) {
	if r == nil {
		return
	}
	r.records += n
	r.update(false)
}

// Reader passes reads through from in and counts the bytes for a
// Bytes report.
func (r *Reporter) Reader(in io.Reader) io.Reader {
	if r == nil {
		return in
	}
	return &countingReader{in: in, r: r}
}

type countingReader struct {
	in io.Reader
	r  *Reporter
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.in.Read(p)
	c.r.read += int64(n)
	return n, err
}

// Close draws the final state and ends the bar's line; the command
// prints its own summary after it.
func (r *Reporter) Close() {
	if r == nil || r.bar == nil {
		return
	}
	r.update(true)
	if r.total == 0 {
		// A spinner is redrawn by the library's own goroutine until the
		// bar counts as finished, so finish it.
		r.bar.Finish()
	}
	r.bar.Exit() // ends the line unless the bar completed and did
}

// update shows the state when the bar or the plain line is due.
func (r *Reporter) update(force bool) {
	now := r.now()
	if r.bar == nil {
		if now.Sub(r.shown) >= r.interval {
			r.shown = now
			fmt.Fprintln(r.out, r.Line(now))
		}
		return
	}
	if !force && now.Sub(r.shown) < barInterval {
		return
	}
	r.shown = now
	pos := r.records
	if r.bytes {
		pos = r.read
		desc := r.label + ": " + strconv.FormatInt(r.records, 10) + " records"
		if elapsed := now.Sub(r.start); elapsed > 0 {
			desc += ", " + strconv.FormatInt(int64(float64(r.records)/elapsed.Seconds()), 10) + "/s"
		}
		r.bar.Describe(desc)
	}
	if r.total > 0 && pos > r.bar.GetMax64() {
		r.bar.ChangeMax64(pos) // the catalog grew while it was read
	}
	r.bar.Set64(pos)
}

// Line is the plain progress line at now, such as
//
//	import movies: 250000 records, 48000/s, 31% (1.2 GB of 3.9 GB), about 40s left
//	export movies: 250000 of 1000000 records (25%), 48000/s, about 16s left
func (r *Reporter) Line(now time.Time) string {
	elapsed := now.Sub(r.start)
	var b strings.Builder
	b.WriteString(r.label)
	b.WriteString(": ")
	b.WriteString(strconv.FormatInt(r.records, 10))
	done, total := r.records, r.total
	if r.bytes {
		done = r.read
	}
	if total > 0 && !r.bytes {
		fmt.Fprintf(&b, " of %d", total)
	}
	b.WriteString(" records")
	if total > 0 && !r.bytes {
		fmt.Fprintf(&b, " (%d%%)", percent(done, total))
	}
	if elapsed > 0 {
		fmt.Fprintf(&b, ", %d/s", int64(float64(r.records)/elapsed.Seconds()))
	}
	if total > 0 && r.bytes {
		fmt.Fprintf(&b, ", %d%% (%s of %s)", percent(done, total), FormatBytes(done), FormatBytes(total))
	}
	if total > 0 && done > 0 && done < total && elapsed > 0 {
		left := time.Duration(float64(elapsed) * float64(total-done) / float64(done))
		fmt.Fprintf(&b, ", about %s left", left.Round(time.Second))
	}
	return b.String()
}

func percent(done, total int64) int64 {
	return min(done*100/total, 100)
}

// FormatBytes spells n in decimal units with one decimal: 1.2 GB.
func FormatBytes(n int64) string {
	const units = "kMGTPE"
	if n < 1000 {
		return strconv.FormatInt(n, 10) + " B"
	}
	v, i := float64(n)/1000, 0
	for v >= 1000 && i < len(units)-1 {
		v /= 1000
		i++
	}
	return strconv.FormatFloat(v, 'f', 1, 64) + " " + units[i:i+1] + "B"
}
