package cli

import (
	"io"
	"sync"
	"time"
)

// logFlushEvery is how long a log line may wait in memory. Under load a
// request line per write syscall was a tenth of serve's CPU; batching
// the lines of this long costs a reader of the log nothing noticeable.
const logFlushEvery = 100 * time.Millisecond

// logBufferSize is the most a batch holds before it is written early.
const logBufferSize = 64 << 10

// logWriter batches the log's lines into few writes: a line goes to w
// within logFlushEvery, at Flush, or when the batch is full, and always
// whole (slog hands over one complete line per Write, and a batch is
// cut only between Writes), so a log collector never sees half a line.
type logWriter struct {
	w io.Writer

	mu  sync.Mutex
	buf []byte
	err error // the first failed write, reported to the next Write

	stop chan struct{}
	done chan struct{}
}

// newLogWriter starts the periodic flush; Close stops it.
func newLogWriter(w io.Writer, every time.Duration) *logWriter {
	l := &logWriter{w: w, buf: make([]byte, 0, logBufferSize), stop: make(chan struct{}), done: make(chan struct{})}
	go l.flushEvery(every)
	return l
}

func (l *logWriter) flushEvery(every time.Duration) {
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
func (l *logWriter) Write(p []byte) (int, error) {
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
func (l *logWriter) Flush() {
	l.mu.Lock()
	l.flushLocked()
	l.mu.Unlock()
}

func (l *logWriter) flushLocked() {
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
func (l *logWriter) Close() {
	close(l.stop)
	<-l.done
	l.mu.Lock()
	defer l.mu.Unlock()
	l.flushLocked()
	l.buf = l.buf[:0:0] // every later Write finds the batch full
}
