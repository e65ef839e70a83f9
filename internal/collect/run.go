package collect

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"catalog/internal/catalog"
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
	// Progress, when set, hears of every page written, on the run's
	// goroutine.
	Progress func(Progress)
	// Now is the clock of the recorded times; nil means time.Now.
	Now func() time.Time
}

// Progress is how far a run got.
type Progress struct {
	Page      int // pages written
	PageCount int // the source's pagecount, as its last page said
	Total     int // the source's total, as its last page said
	Read      int
	Written   int
	Rejected  int
}

// Store is what a run writes to.
type Store interface {
	CollectMovies(ctx context.Context, source string, page []catalog.CollectedMovie) error
	RecordRun(ctx context.Context, r catalog.SourceRun) error
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
	c, err := newClient(opts.URL, opts.Limits)
	if err != nil {
		return err
	}
	readCtx, cancel := context.WithCancel(ctx)
	defer cancel() // stops the reader when a write fails
	pages := make(chan fetched, 1)
	go c.readPages(readCtx, opts, pages)
	for f := range pages {
		if f.err != nil {
			return f.err
		}
		sp := f.page
		written, err := writePage(ctx, st, opts.Source, sp.Records, run.Read, sum)
		if err != nil {
			return fmt.Errorf("page %d: writing: %s", f.number, catalog.ErrorMessage(err))
		}
		run.Pages++
		run.Read += len(sp.Records)
		run.Written += written
		run.Rejected = sum.Rejected
		sum.Read, sum.Imported = run.Read, run.Written
		if opts.Progress != nil {
			opts.Progress(Progress{Page: f.number, PageCount: sp.PageCount, Total: sp.Total, Read: run.Read, Written: run.Written, Rejected: run.Rejected})
		}
	}
	if err := ctx.Err(); err != nil {
		// The reader stops without a word when the run is cancelled.
		return fmt.Errorf("stopped after %d pages: %w", run.Pages, err)
	}
	return nil
}

// fetched is one page read, or the error that ends the run there.
type fetched struct {
	number int
	page   sourcePage
	err    error
}

// readPages reads the pages of a run in order into out, one page ahead
// of the writes, so that the source and the database work at the same
// time; it closes out after the last page, after an error (sent as the
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
		sp, err := c.page(ctx, n, opts.Hours)
		if err != nil {
			send(fetched{err: fmt.Errorf("page %d: %w", n, err)})
			return
		}
		if !send(fetched{number: n, page: sp}) || len(sp.Records) == 0 || n >= sp.PageCount {
			return
		}
		if n >= c.limits.MaxPages {
			send(fetched{err: fmt.Errorf("stopped after %d pages, the most a run reads; the source has %d", n, sp.PageCount)})
			return
		}
	}
}

// page fetches and decodes one page.
func (c *client) page(ctx context.Context, page, hours int) (sourcePage, error) {
	body, err := c.fetch(ctx, page, hours)
	if err != nil {
		return sourcePage{}, err
	}
	if c.xml {
		return decodeXML(body)
	}
	return decodeJSON(body)
}

// writePage maps the records of one page, reports those that fail
// validation, and writes the others in one transaction. seen is how
// many records the run read before this page. It returns how many it
// wrote.
func writePage(ctx context.Context, st Store, source string, records []vod, seen int, sum *importer.Summary) (int, error) {
	valid := make([]catalog.CollectedMovie, 0, len(records))
	lines := make([]int, 0, len(records))
	for i := range records {
		cm, fe := toMovie(&records[i])
		if len(fe) > 0 {
			sum.Reject(seen+i+1, vodLabel(records[i].ID)+fe.Describe(": "))
			continue
		}
		valid = append(valid, cm)
		lines = append(lines, seen+i+1)
	}
	if len(valid) == 0 {
		return 0, nil
	}
	if err := st.CollectMovies(ctx, source, valid); err != nil {
		return 0, err
	}
	written := 0
	for i := range valid {
		if valid[i].Err != "" {
			sum.Reject(lines[i], vodLabel(strconv.FormatInt(valid[i].VodID, 10))+valid[i].Err)
			continue
		}
		written++
	}
	return written, nil
}

func vodLabel(id string) string { return "vod_id " + strconv.Quote(clip(id)) + ": " }
