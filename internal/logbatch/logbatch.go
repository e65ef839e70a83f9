// Package logbatch batches a log's lines into few writes, so that a
// request line per write syscall does not cost the server a share of
// its CPU, while a log collector still only ever sees whole lines.
package logbatch

import (
	"io"
	"sync"
	"time"
)

// FlushEvery is how long a log line may wait in memory: short enough
// that a reader of the log notices nothing.
const FlushEvery = 100 * time.Millisecond

// bufferSize is the most a batch holds before it is written early.
const bufferSize = 64 << 10

// Writer batches the log's lines into few writes: a line goes to w
// within the flush interval, at Flush, or when the batch is full, and always
// whole (slog hands over one complete line per Write, and a batch is
// cut only between Writes), so a log collector never sees half a line.
type Writer struct {
	w io.Writer

	mu  sync.Mutex
	buf []byte
	err error // the first failed write, reported to the next Write

	stop chan struct{}
	done chan struct{}
}

// New returns a Writer to w that flushes every interval; Close stops it.
func New(w io.Writer, every time.Duration) *Writer {
	l := &Writer{w: w, buf: make([]byte, 0, bufferSize), stop: make(chan struct{}), done: make(chan struct{})}
	go l.flushEvery(every)
	return l
}

func (l *Writer) flushEvery(every time.Duration) {
	defer close(l.done)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			l.Flush()
		case <-l.stop:
			return
		}
	}
}

// Write keeps p for the next flush; a full batch is written first.
func (l *Writer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := l.err; err != nil {
		l.err = nil
		return 0, err
	}
	if len(l.buf)+len(p) > cap(l.buf) {
		l.flushLocked()
		if len(p) >= cap(l.buf) {
			_, err := l.w.Write(p)
			return len(p), err
		}
	}
	l.buf = append(l.buf, p...)
	return len(p), nil
}

// Flush writes the batched lines now.
func (l *Writer) Flush() {
	l.mu.Lock()
	l.flushLocked()
	l.mu.Unlock()
}

func (l *Writer) flushLocked() {
	if len(l.buf) == 0 {
		return
	}
	if _, err := l.w.Write(l.buf); err != nil && l.err == nil {
		l.err = err
	}
	l.buf = l.buf[:0]
}

// Close stops the periodic flush and writes what is left. Lines written
// after Close go straight through.
func (l *Writer) Close() {
	close(l.stop)
	<-l.done
	l.mu.Lock()
	defer l.mu.Unlock()
	l.flushLocked()
	l.buf = l.buf[:0:0] // every later Write finds the batch full
}
