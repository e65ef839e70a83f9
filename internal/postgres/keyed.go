package postgres

import (
	"context"
	"runtime"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"catalog/internal/coalesce"
)

// keyedReads sends the keyed reads of pages and details (byID,
// VodsByID) that wait at the same time in one round trip: a pgx batch,
// whose statements go out in one write and end in one Sync. A statement
// sent alone costs both sides a write, a read and a wakeup, and the
// server a transaction of its own; in a batch they are paid once for
// all of its statements. coalesce.Group decides which reads go
// together: one batch per core at a time, every read that waits for a
// free one in the next.
type keyedReads struct {
	pool  *pgxpool.Pool
	group *coalesce.Group[*keyedRead]
}

// keyedRead is one statement whose rows scan reads. scan must start its
// result afresh on every call: after an error in a batch the read is
// sent again alone.
type keyedRead struct {
	ctx  context.Context
	sql  string
	args []any
	scan func(pgx.Rows) error
	err  error
}

const (
	// keyedMaxBatch bounds a batch: a page is at most a few hundred
	// rows, and a batch's reads all wait for its last one.
	keyedMaxBatch = 32
	// keyedTimeout bounds the round trip of a batch one of whose reads
	// has no deadline.
	keyedTimeout = 10 * time.Second
)

func newKeyedReads(pool *pgxpool.Pool) *keyedReads {
	k := &keyedReads{pool: pool}
	k.group = coalesce.New(max(2, runtime.GOMAXPROCS(0)), keyedMaxBatch, keyedTimeout, k.send)
	return k
}

// read runs sql with args and hands the rows to scan, alone or in a
// batch with others. It returns the statement's error or ctx's.
func (k *keyedReads) read(ctx context.Context, sql string, args []any, scan func(pgx.Rows) error) error {
	r := &keyedRead{ctx: ctx, sql: sql, args: args, scan: scan}
	if err := k.group.Do(ctx, r); err != nil {
		return err
	}
	return r.err
}

// send sends reads as one batch. When a statement of a batch of several
// fails, the server skips the rest of the batch, so every read not yet
// answered is sent again alone, on its own context: each then gets its
// own answer or error.
func (k *keyedReads) send(ctx context.Context, reads []*keyedRead) {
	answered := k.batch(ctx, reads)
	if len(reads) == 1 {
		return
	}
	for _, r := range reads[answered:] {
		if r.err = r.ctx.Err(); r.err == nil {
			k.batch(r.ctx, []*keyedRead{r})
		}
	}
}

// batch sends reads in one round trip and reports how many of them, in
// order, were answered. The first read that was not has its error set.
func (k *keyedReads) batch(ctx context.Context, reads []*keyedRead) int {
	b := &pgx.Batch{QueuedQueries: make([]*pgx.QueuedQuery, 0, len(reads))}
	for _, r := range reads {
		b.Queue(r.sql, r.args...)
	}
	results := k.pool.SendBatch(ctx, b)
	defer results.Close() // once every statement is read, its error says nothing of theirs
	for i, r := range reads {
		rows, err := results.Query()
		if err == nil {
			err = r.scan(rows) // scan closes rows
		}
		if r.err = err; err != nil {
			return i
		}
	}
	return len(reads)
}
