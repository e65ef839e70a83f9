package cache

import "context"

// WaitMinOffset is the offset from which a page waits for the first
// build of its id order instead of running its OFFSET query. The OFFSET
// passes over every row before the page, in the wide table: at 10M
// clips a page 5M rows deep took longer than the 5 s read timeout and
// held a list slot and a reader all that time, while walking the whole
// list's narrow index for the order takes seconds and serves every
// later page. Below it the OFFSET costs less than 0.1 s, and waiting
// would gain nothing.
const WaitMinOffset = 50_000

// WaitFirst waits until the first build of o has ended or ctx is done,
// and reports whether o then has marks. After the first build it
// returns at once: a rebuild is not waited for (the marks of a newer
// version are, at most, a write's rebuild away, and the fallback serves
// meanwhile).
func (o *Order) WaitFirst(ctx context.Context) bool {
	select {
	case <-o.firstDone:
	case <-ctx.Done():
		return false
	}
	return o.cur.Load() != nil
}
