package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"catalog/internal/durable"
	"catalog/internal/export"
)

// exportJob is one "catalog export" run, as its command line gave it.
type exportJob struct {
	kind, name string // "movies" or "clips"; "export movies"
	db         dbConfig
	out        string // "-": standard output
	format     export.Format
	pf         progressFlags
}

// exportCmd is "catalog export movies|clips": every record in import
// form, lowest id first, to standard output or a file replaced whole.
func (p *Program) exportCmd(ctx context.Context, args []string) error {
	job, err := p.parseExport(args)
	if err != nil {
		return err
	}
	st, err := openStore(ctx, job.db)
	if err != nil {
		return err
	}
	defer st.Close()
	count := st.CountMovies
	if job.kind == "clips" {
		count = st.CountClips
	}
	total, err := count(ctx)
	if err != nil {
		return fmt.Errorf("%s: %s", job.name, message(err))
	}
	start := time.Now()
	var n int64
	write := func(w io.Writer) error {
		rep := p.progress(job.pf).Records(job.name, total)
		defer rep.Close()
		add := func() { rep.Add(1) }
		var err error
		if job.kind == "clips" {
			n, err = export.Clips(ctx, st, w, job.format, add)
		} else {
			n, err = export.Movies(ctx, st, w, job.format, add)
		}
		return err
	}
	summary, to := p.Stdout, job.out
	if job.out == "-" {
		// Standard output carries the records.
		summary, to = p.Stderr, "stdout"
		err = write(p.Stdout)
	} else {
		err = replaceFile(job.out, true, 0o644, func(tmp string) error { return writeInto(tmp, write) })
	}
	if err != nil {
		return fmt.Errorf("%s: %s", job.name, message(err))
	}
	fmt.Fprintf(summary, "exported %d %s to %s (%s) in %s\n", n, job.kind, to, job.format, time.Since(start).Round(time.Millisecond))
	return nil
}

// parseExport reads export's command line and checks it whole before
// any database work.
func (p *Program) parseExport(args []string) (*exportJob, error) {
	kind, err := p.recordKind("export", "Usage: catalog export movies|clips [--out FILE] [--format jsonl|csv]", args)
	if err != nil {
		return nil, err
	}
	job := &exportJob{kind: kind, name: "export " + kind}
	var format string
	f := newFlags(job.name, "",
		"Writes every "+kind[:len(kind)-1]+" in import form, lowest id first: JSON Lines (one object per\n"+
			"line) or CSV (a header row; list items separated by \"|\"). \"catalog import "+kind+"\" of\n"+
			"the output into an empty database gives the same API answers. A FILE is written\n"+
			"under a temporary name and renamed when complete.")
	f.dbFlags(&job.db)
	f.stringVar(&job.out, "out", "CATALOG_EXPORT_OUT", "-", "file to write; - for standard output")
	f.stringVar(&format, "format", "CATALOG_EXPORT_FORMAT", "", "jsonl or csv; default: from the extension of --out, else jsonl")
	f.progressFlags(&job.pf)
	if _, err := f.parse(args[1:], p); err != nil {
		return nil, err
	}
	if job.format, err = exportFormat(job.out, format); err != nil {
		return nil, usagef("%s: %s", job.name, err)
	}
	if job.out != "-" {
		if fi, err := os.Stat(job.out); err == nil && fi.IsDir() {
			return nil, usagef("%s: --out %s is a directory", job.name, job.out)
		}
	}
	return job, nil
}

// exportFormat picks the format from --format, else from the extension
// of --out. The importer reads the format from the extension, so a
// --format that contradicts it, or .json (the importer's array form),
// is refused.
func exportFormat(out, format string) (export.Format, error) {
	ext := ""
	if out != "-" {
		ext = strings.ToLower(filepath.Ext(out))
	}
	byExt := map[string]export.Format{".jsonl": export.JSONL, ".ndjson": export.JSONL, ".csv": export.CSV}
	if ext == ".json" {
		return 0, errors.New("--out: .json is read by import as one JSON array; export writes JSON Lines: name the file .jsonl")
	}
	if format == "" {
		return byExt[ext], nil // JSON Lines unless the file says .csv
	}
	fm, err := export.ParseFormat(format)
	if err != nil {
		return 0, fmt.Errorf("--format: %s", err)
	}
	if want, ok := byExt[ext]; ok && want != fm {
		return 0, fmt.Errorf("--format %s does not match the %s extension of --out (import reads the format from the extension)", fm, ext)
	}
	return fm, nil
}

// replaceFile has fill write a temporary file beside path (it is given
// the name of an empty file), makes it durable and renames it to path,
// so that path is never half-written. On any failure the temporary file
// is removed. Without overwrite an existing path is an error, checked
// first and again atomically when the file is put in place (a hard link
// never replaces). The file gets mode perm.
func replaceFile(path string, overwrite bool, perm os.FileMode, fill func(tmp string) error) (err error) {
	if isDevice(path) {
		return fill(path)
	}
	if !overwrite {
		if _, err := os.Lstat(path); err == nil {
			return fmt.Errorf("%s already exists", path)
		}
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	fh, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return err
	}
	tmp := fh.Name()
	fh.Close()
	defer func() {
		if err != nil {
			os.Remove(tmp)
		}
	}()
	if err := fill(tmp); err != nil {
		return err
	}
	if err := syncFile(tmp); err != nil {
		return err
	}
	if err := os.Chmod(tmp, perm); err != nil {
		return err
	}
	if overwrite {
		if err := os.Rename(tmp, path); err != nil {
			return err
		}
	} else {
		if err := os.Link(tmp, path); err != nil {
			if errors.Is(err, os.ErrExist) {
				return fmt.Errorf("%s already exists", path)
			}
			return err
		}
		os.Remove(tmp)
	}
	return durable.SyncDir(dir)
}

// isDevice reports whether path names an existing device (/dev/null)
// or pipe. Such an output is written in place: a rename over it would
// replace it with a file, for everyone on the machine.
func isDevice(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && !fi.Mode().IsRegular() && !fi.IsDir()
}

// writeInto opens an existing file, device or pipe for writing and has
// fill write to it.
func writeInto(path string, fill func(w io.Writer) error) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		return err
	}
	if err := fill(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func syncFile(path string) error {
	fh, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	if err := fh.Sync(); err != nil {
		fh.Close()
		return err
	}
	return fh.Close()
}
