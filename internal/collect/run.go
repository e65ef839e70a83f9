package collect

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"catalog/internal/catalog"
	"catalog/internal/fetchguard"
	"catalog/internal/importer"
)

// Options describe one run.
type Options struct {
	// Source is the name the records are remembered under (identity)
	// and the run is recorded under.
	Source string
	URL    string
	// Hours > 0 reads only what changed in the last Hours hours (h).
	Hours int
	// Pages > 0 reads at most that many pages and ends without error
	// (--pages); the limit of Limits.MaxPages still holds.
	Pages  int
	Limits Limits
	// Fetch is how pages are fetched (contract 13): AllowPrivate for
	// --fetch-allow-private; tests also set Exempt or Resolver. Its
	// timeouts, size and redirects are set from Limits.
	Fetch fetchguard.Options
	// Progress, when set, hears of every page written, on the run's
	// goroutine.
	Progress func(Progress)
	// Now is the clock of the recorded times; nil means time.Now.
	Now func() time.Time
	// Interval is the least time between two page requests to the
	// source's host (--collect-interval; serve and collect set
	// DefaultInterval unless told otherwise); 0: none.
	Interval time.Duration
	// Hosts, when set, is shared with the other runs whose requests to
	// one host go one at a time; nil: this run's own.
	Hosts *Hosts
	// Version names the program in the User-Agent of every request.
	Version string
	// Synonyms are the source's rules for auto-binding its types.
	Synonyms []catalog.Synonym
	// Gone is what a full run does with the records the source no
	// longer lists; "" is keep.
	Gone catalog.Gone
}

// Progress is how far a run got.
type Progress struct {
	Page      int // pages written
	PageCount int // the source's pagecount, as its last page said
	Total     int // the source's total, as its last page said
	Read      int
	Written   int
	Unchanged int
	Rejected  int
	Unbound   int
}

// Store is what a run writes to: the collected movies, the bindings and
// the records kept, and the movies a binding moves or a full run hides
// or deletes.
type Store interface {
	CollectMovies(ctx context.Context, source string, page []catalog.CollectedMovie) error
	RecordRun(ctx context.Context, r catalog.SourceRun) error
	catalog.BindingStore
	VodTypes(ctx context.Context) ([]catalog.VodType, error)
	GetMovie(ctx context.Context, id int64) (catalog.Movie, error)
	UpdateMovie(ctx context.Context, m *catalog.Movie) error
	DeleteMovie(ctx context.Context, id int64) error
}

// Run collects from one source: every page of ac=detail in turn, each
// written in one transaction, until the source's last page. It records
// the run (catalog.SourceRun) in st, even when ctx is cancelled, and
// returns it with the report of rejected records (Line: the record's
// number in the run). The error is the reason the run stopped early,
// with the page it stopped at; the pages before it stay written.
func Run(ctx context.Context, st Store, opts Options) (catalog.SourceRun, importer.Summary, error) {
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	run := catalog.SourceRun{Source: opts.Source, Started: catalog.StoredTime(now())}
	sum := importer.Summary{Name: opts.Source}
	err := collectPages(ctx, st, opts, &run, &sum)
	run.Finished = catalog.StoredTime(now())
	if err != nil {
		run.Err = err.Error()
	}
	if rerr := st.RecordRun(context.WithoutCancel(ctx), run); rerr != nil {
		err = errors.Join(err, fmt.Errorf("recording the run: %s", catalog.ErrorMessage(rerr)))
	}
	return run, sum, err
}

// collectPages reads and writes the pages of one run.
func collectPages(ctx context.Context, st Store, opts Options, run *catalog.SourceRun, sum *importer.Summary) error {
	c, err := newClient(opts.URL, opts.Limits, opts.Fetch, opts.Version)
	if err != nil {
		return err
	}
	c.interval, c.hosts = opts.Interval, opts.Hosts
	if c.hosts == nil {
		c.hosts = &Hosts{}
	}
	w := &writer{st: st, opts: opts, seen: map[int64]bool{}}
	if w.bind, err = newBinder(ctx, st, opts.Source, opts.Synonyms); err != nil {
		return fmt.Errorf("reading the source's bindings: %s", catalog.ErrorMessage(err))
	}
	readCtx, cancel := context.WithCancel(ctx)
	defer cancel() // stops the reader when a write fails
	pages := make(chan fetched, readAhead)
	go c.readPages(readCtx, opts, pages)
	for {
		batch, stop := nextBatch(pages, c.limits.MaxPageBytes)
		if err := w.writeBatch(ctx, batch, run, sum); err != nil {
			if ctx.Err() != nil {
				return stopped(ctx, run)
			}
			return err
		}
		if stop != nil {
			if ctx.Err() != nil {
				return stopped(ctx, run) // the page failed because the run ended
			}
			return stop
		}
		if len(batch) == 0 {
			break
		}
	}
	if ctx.Err() != nil {
		// The reader stops without a word when the run is cancelled.
		return stopped(ctx, run)
	}
	// Only a run that read every page of everything (no h, no --pages)
	// may conclude that a record is gone from its source.
	if opts.Hours > 0 || opts.Pages > 0 {
		return nil
	}
	if _, err := concludeGone(ctx, st, opts.Source, opts.Gone, w.seen); err != nil {
		return fmt.Errorf("after the last page, applying %q to the records the source no longer lists: %s", opts.Gone, catalog.ErrorMessage(err))
	}
	return nil
}

// writer writes the pages of one run.
type writer struct {
	st   Store
	opts Options
	bind *binder
	// seen is every vod_id the run read, for concludeGone.
	seen map[int64]bool
}

// stopped is the error of a run whose context ended: why (serve
// stopping, the run's deadline, an administrator's cancel) after how
// many pages.
func stopped(ctx context.Context, run *catalog.SourceRun) error {
	return fmt.Errorf("stopped after %d pages: %w", run.Pages, context.Cause(ctx))
}

// readAhead is how many read pages may wait for the writer. With the
// page being read and a batch being written (at most maxBytes and one
// page), it bounds the run's memory: a page is at most
// Limits.MaxPageBytes.
const readAhead = 3

// batchRecords is the most records one write takes. The pages that
// arrived while the last write ran are written together in one
// transaction, so that a source faster than the database costs a
// transaction per batch instead of per page, while the pages of a
// slower source are each written as soon as they arrive.
const batchRecords = 1000

// nextBatch waits for the next page, then takes the pages already read
// behind it while the batch holds fewer than batchRecords records and
// maxBytes of answers. stop is the error that ends the run after the
// batch (the reader's, with its page); an empty batch and no error mean
// the reader is done.
func nextBatch(pages <-chan fetched, maxBytes int64) (batch []fetched, stop error) {
	f, ok := <-pages
	for n, size := 0, int64(0); ok; {
		if f.err != nil {
			return batch, f.err
		}
		batch = append(batch, f)
		n, size = n+len(f.page.Records), size+int64(f.size)
		if n >= batchRecords || size >= maxBytes {
			break
		}
		select {
		case f, ok = <-pages:
		default:
			ok = false
		}
	}
	return batch, nil
}

// writeBatch writes the pages of batch in one transaction and counts
// them in run. When that write fails, it writes them again page by page,
// so that the pages before the one that fails stay written and the
// error names that page.
func (wr *writer) writeBatch(ctx context.Context, batch []fetched, run *catalog.SourceRun, sum *importer.Summary) error {
	opts := wr.opts
	if len(batch) == 0 {
		return nil
	}
	if len(batch) > 1 {
		trial := *sum
		trial.Rejects = append([]importer.Reject(nil), sum.Rejects...)
		trial.Notes = append([]importer.Reject(nil), sum.Notes...)
		if n, err := wr.writePage(ctx, recordsOf(batch), run.Read, &trial); err == nil {
			*sum = trial
			counted(opts, batch, n, run, sum)
			return nil
		}
	}
	for i := range batch {
		f := batch[i : i+1]
		n, err := wr.writePage(ctx, f[0].page.Records, run.Read, sum)
		if err != nil {
			return fmt.Errorf("page %d: writing: %s", f[0].number, catalog.ErrorMessage(err))
		}
		counted(opts, f, n, run, sum)
	}
	return nil
}

// recordsOf is the records of the pages of batch, in order.
func recordsOf(batch []fetched) []vod {
	var all []vod
	for _, f := range batch {
		all = append(all, f.page.Records...)
	}
	return all
}

// counted adds the written pages of batch to run and tells
// opts.Progress, once, as of the batch's last page.
func counted(opts Options, batch []fetched, n outcomes, run *catalog.SourceRun, sum *importer.Summary) {
	for _, f := range batch {
		run.Pages++
		run.Read += len(f.page.Records)
	}
	run.Written += n.written
	run.Unchanged += n.unchanged
	run.Unbound += n.unbound
	run.Rejected = sum.Rejected
	sum.Read, sum.Imported = run.Read, run.Written
	if opts.Progress != nil {
		last := batch[len(batch)-1]
		opts.Progress(Progress{Page: last.number, PageCount: last.page.PageCount, Total: last.page.Total,
			Read: run.Read, Written: run.Written, Unchanged: run.Unchanged, Rejected: run.Rejected, Unbound: run.Unbound})
	}
}

// outcomes counts what became of a page's valid records.
type outcomes struct{ written, unchanged, unbound int }

// fetched is one page read, or the error that ends the run there.
type fetched struct {
	number int
	page   sourcePage
	size   int // the answer's bytes
	err    error
}

// readPages reads the pages of a run in order into out, ahead of the
// writes, so that the source and the database work at the same time;
// it closes out after the last page, after an error (sent as the
// last value), or when ctx is done.
func (c *client) readPages(ctx context.Context, opts Options, out chan<- fetched) {
	defer close(out)
	send := func(f fetched) bool {
		select {
		case out <- f:
			return true
		case <-ctx.Done():
			return false
		}
	}
	for n := 1; opts.Pages <= 0 || n <= opts.Pages; n++ {
		sp, size, err := c.politePage(ctx, n, opts.Hours)
		if err != nil {
			send(fetched{err: fmt.Errorf("page %d: %w", n, err)})
			return
		}
		if !send(fetched{number: n, page: sp, size: size}) || len(sp.Records) == 0 || n >= sp.PageCount {
			return
		}
		if n >= c.limits.MaxPages {
			send(fetched{err: fmt.Errorf("stopped after %d pages, the most a run reads; the source has %d", n, sp.PageCount)})
			return
		}
	}
}

// politePage fetches and decodes one page in its host's turn (Hosts),
// asking again, after a growing wait, when it fails for a reason that
// may pass, up to Tries times.
func (c *client) politePage(ctx context.Context, page, hours int) (sourcePage, int, error) {
	for try := 1; ; try++ {
		release, err := c.hosts.take(ctx, c.base.Host, c.interval)
		if err != nil {
			return sourcePage{}, 0, err
		}
		sp, size, err := c.page(ctx, page, hours)
		release()
		if err == nil || !mayPass(err) || ctx.Err() != nil {
			return sp, size, err
		}
		if try == Tries {
			return sp, size, fmt.Errorf("%w (asked %d times)", err, try)
		}
		if err := sleep(ctx, retryWait(c.limits.RetryWait, try)); err != nil {
			return sourcePage{}, 0, err
		}
	}
}

// page fetches and decodes one page; size is the answer's length.
func (c *client) page(ctx context.Context, page, hours int) (sp sourcePage, size int, err error) {
	body, err := c.fetch(ctx, page, hours)
	if err != nil {
		return sourcePage{}, 0, err
	}
	if c.xml {
		sp, err = decodeXML(body)
	} else {
		sp, err = decodeJSON(body)
	}
	return sp, len(body), err
}

// writePage maps the records of one page, reports those that fail
// validation, sorts the others by their types' bindings, keeps those of
// types not bound, and writes those of bound types in one transaction.
// seen is how many records the run read before this page. It returns
// how many it wrote, how many the store skipped as unchanged and how
// many it kept unbound.
func (wr *writer) writePage(ctx context.Context, records []vod, seen int, sum *importer.Summary) (outcomes, error) {
	valid := make([]catalog.CollectedMovie, 0, len(records))
	lines := make(map[int64]int, len(records))
	names := map[int64]string{}
	for i := range records {
		cm, fe := toMovie(&records[i])
		if cm.VodID > 0 {
			wr.seen[cm.VodID] = true // listed, valid or not
		}
		if len(fe) > 0 {
			sum.Reject(seen+i+1, vodLabel(string(records[i].ID))+fe.Describe(": "))
			continue
		}
		cm.Hash = contentHash(&cm.Movie, cm.TypeID)
		names[cm.TypeID] = string(records[i].TypeName)
		valid = append(valid, cm)
		lines[cm.VodID] = seen + i + 1
	}
	var n outcomes
	if len(valid) == 0 {
		return n, nil
	}
	valid, keep, _, err := wr.bind.sort(ctx, wr.st, valid, names)
	if err != nil {
		return n, err
	}
	n.unbound = len(keep)
	if len(valid) == 0 {
		return n, nil
	}
	if err := wr.st.CollectMovies(ctx, wr.opts.Source, valid); err != nil {
		return n, err
	}
	if err := wr.bind.forgetKept(ctx, wr.st, valid); err != nil {
		return n, err
	}
	for i := range valid {
		label := vodLabel(strconv.FormatInt(valid[i].VodID, 10))
		if valid[i].Unchanged {
			n.unchanged++
			continue
		}
		if valid[i].Err != "" {
			sum.Reject(lines[valid[i].VodID], label+valid[i].Err)
			continue
		}
		if len(valid[i].Notes) > 0 {
			sum.Note(lines[valid[i].VodID], label+strings.Join(valid[i].Notes, "; "))
		}
		n.written++
	}
	return n, nil
}

func vodLabel(id string) string { return "vod_id " + strconv.Quote(clip(id)) + ": " }
