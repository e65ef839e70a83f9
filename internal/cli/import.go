package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"catalog/internal/catalog"
	"catalog/internal/importer"
)

// rejectedError reports that an import skipped records.
type rejectedError struct{ rejected int }

func (e *rejectedError) Error() string {
	if e.rejected == 1 {
		return "1 record was rejected"
	}
	return fmt.Sprintf("%d records were rejected", e.rejected)
}

// importJob is one "catalog import" run, as its command line gave it.
type importJob struct {
	kind, name string // "movies" or "clips"; "import movies"
	db         dbConfig
	opts       importer.Options
	pf         progressFlags
	purgeURL   string
	platforms  *catalog.Platforms // clips only
	files      []string
}

// importCmd is "catalog import movies|clips FILE...": every file in
// turn, each with its summary; the exit status is 1 when a file could
// not be finished or a record was rejected.
func (p *Program) importCmd(ctx context.Context, args []string) error {
	job, err := p.parseImport(args)
	if err != nil {
		return err
	}
	st, closeStore, err := p.openAnnouncing(ctx, job.name, job.purgeURL, job.db)
	if err != nil {
		return err
	}
	defer closeStore()
	return p.importFiles(ctx, job, st)
}

// parseImport reads import's command line and checks it whole before
// any database work.
func (p *Program) parseImport(args []string) (*importJob, error) {
	kind, err := p.recordKind("import", "Usage: catalog import movies|clips [--dry-run] [--merge] FILE...   (- is JSON Lines on standard input)", args)
	if err != nil {
		return nil, err
	}
	job := &importJob{kind: kind, name: "import " + kind}
	var platformList string
	f := newFlags(job.name, "FILE...",
		"Imports "+job.kind+" from .jsonl (one JSON object per line), .json (an array of objects)\n"+
			"or .csv files (header row of field names); - reads JSON Lines from standard input.\n"+
			"Bad records are reported with their line number and skipped; the exit status is 1\n"+
			"when any record was rejected.")
	f.dbFlags(&job.db)
	f.boolVar(&job.opts.DryRun, "dry-run", "", false, "validate every record without writing anything")
	if job.kind == "movies" {
		f.boolVar(&job.opts.Merge, "merge", "", false,
			"change only the members each record gives; the movie it names (id, else id_code, else slug)\n"+
				"keeps the others, its slug included (default: a record replaces the whole movie)")
	}
	f.progressFlags(&job.pf)
	if job.kind == "clips" {
		f.platformsFlag(&platformList)
	}
	f.purgeFlag(&job.purgeURL)
	if job.files, err = f.parse(args[1:], p); err != nil {
		return nil, err
	}
	if len(job.files) == 0 {
		return nil, usagef("%s: give at least one FILE (- for standard input)", job.name)
	}
	for _, file := range job.files {
		if err := importer.CheckName(file); err != nil {
			return nil, usagef("%s: %s: %s", job.name, display(file), message(err))
		}
	}
	if job.kind == "clips" {
		if job.platforms, err = parsePlatforms(job.name, platformList); err != nil {
			return nil, err
		}
	}
	return job, nil
}

// importFiles imports job's files into st in turn; an interrupted run
// stops after the file it was in.
func (p *Program) importFiles(ctx context.Context, job *importJob, st catalog.Store) error {
	var total importer.Summary
	var failed []string
	for _, file := range job.files {
		sum, err := p.importFile(ctx, job, st, file)
		total.Read += sum.Read
		total.Imported += sum.Imported
		total.Rejected += sum.Rejected
		if err != nil {
			fmt.Fprintf(p.Stderr, "%s: %s\n", display(file), flatten(message(err)))
			failed = append(failed, display(file))
			if ctx.Err() != nil {
				break
			}
		}
	}
	if len(job.files) > 1 {
		p.printSummary("total", total, job.opts.DryRun)
	}
	switch {
	case len(failed) > 0:
		return fmt.Errorf("%s: could not finish %s", job.name, strings.Join(failed, ", "))
	case total.Rejected > 0:
		return &rejectedError{rejected: total.Rejected}
	}
	return nil
}

// recordKind reads the kind of records a command works on, its first
// argument: "movies" or "clips". -h prints usage.
func (p *Program) recordKind(cmd, usage string, args []string) (string, error) {
	if len(args) > 0 && (args[0] == "movies" || args[0] == "clips") {
		return args[0], nil
	}
	if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "help") {
		fmt.Fprintln(p.Stdout, usage)
		return "", errHelp
	}
	return "", usagef("%s: say what to %s: catalog %s movies or catalog %s clips", cmd, cmd, cmd, cmd)
}

// display names an input in messages.
func display(file string) string {
	if file == "-" {
		return "stdin"
	}
	return file
}

// importFile imports one named input and prints its summary, with one
// "FILE:LINE: message" line on stderr per rejected record.
func (p *Program) importFile(ctx context.Context, job *importJob, st catalog.Store, file string) (importer.Summary, error) {
	var r io.Reader = p.Stdin
	if file != "-" {
		fh, err := os.Open(file)
		if err != nil {
			return importer.Summary{}, errors.New(strings.TrimPrefix(err.Error(), "open "+file+": "))
		}
		defer fh.Close()
		r = bufio.NewReaderSize(fh, 256<<10)
	} else if r == nil {
		return importer.Summary{}, errors.New("no standard input")
	}
	rep := p.progress(job.pf).Bytes("import "+display(file), fileSize(file))
	opts := job.opts
	opts.Progress = func() { rep.Add(1) }
	var sum importer.Summary
	var err error
	if job.kind == "clips" {
		sum, err = importer.Clips(ctx, st, job.platforms, file, rep.Reader(r), opts)
	} else {
		sum, err = importer.Movies(ctx, st, file, rep.Reader(r), opts)
	}
	rep.Close()
	w := bufio.NewWriter(p.Stderr)
	for _, rej := range sum.Rejects {
		fmt.Fprintf(w, "%s:%d: %s\n", display(file), rej.Line, flatten(rej.Message))
	}
	if more := sum.Rejected - len(sum.Rejects); more > 0 {
		fmt.Fprintf(w, "%s: ... and %d more rejected records\n", display(file), more)
	}
	w.Flush()
	if sum.Read > 0 || sum.Rejected > 0 || err == nil {
		p.printSummary(display(file), sum, job.opts.DryRun)
	}
	return sum, err
}

func (p *Program) printSummary(name string, s importer.Summary, dryRun bool) {
	verb := "imported"
	if dryRun {
		verb = "valid (dry run, nothing written)"
	}
	fmt.Fprintf(p.Stdout, "%s: %d read, %d %s, %d rejected\n", name, s.Read, s.Imported, verb, s.Rejected)
}
