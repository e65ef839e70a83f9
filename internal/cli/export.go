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

	"catalog/internal/export"
)

func (p *Program) exportCmd(ctx context.Context, args []string) error {
	if len(args) == 0 || (args[0] != "movies" && args[0] != "clips") {
		if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "help") {
			fmt.Fprintln(p.Stdout, "Usage: catalog export movies|clips [--out FILE] [--format jsonl|csv]")
			return errHelp
		}
		return usagef("export: say what to export: catalog export movies or catalog export clips")
	}
	kind := args[0]
	name := "export " + kind
	var db dbConfig
	var out, format string
	var pf progressFlags
	f := newFlags(name, "",
		"Writes every "+kind[:len(kind)-1]+" in import form, lowest id first: JSON Lines (one object per\n"+
			"line) or CSV (a header row; list items separated by \"|\"). \"catalog import "+kind+"\" of\n"+
			"the output into an empty database gives the same API answers. A FILE is written\n"+
			"under a temporary name and renamed when complete.")
	f.dbFlags(&db)
	f.stringVar(&out, "out", "CATALOG_EXPORT_OUT", "-", "file to write; - for standard output")
	f.stringVar(&format, "format", "CATALOG_EXPORT_FORMAT", "", "jsonl or csv; default: from the extension of --out, else jsonl")
	f.progressFlags(&pf)
	if _, err := f.parse(args[1:], p); err != nil {
		return err
	}
	if err := db.check(name); err != nil {
		return err
	}
	fm, err := exportFormat(out, format)
	if err != nil {
		return usagef("%s: %s", name, err)
	}
	if out != "-" {
		if fi, err := os.Stat(out); err == nil && fi.IsDir() {
			return usagef("%s: --out %s is a directory", name, out)
		}
	}
	st, err := openStore(ctx, db)
	if err != nil {
		return err
	}
	defer st.Close()

	total, err := exportTotal(ctx, st, kind)
	if err != nil {
		return fmt.Errorf("%s: %s", name, message(err))
	}
	start := time.Now()
	var n int64
	write := func(w io.Writer) error {
		rep := p.progress(pf).Records(name, total)
		defer rep.Close()
		add := func() { rep.Add(1) }
		var err error
		if kind == "clips" {
			n, err = export.Clips(ctx, st, w, fm, add)
		} else {
			n, err = export.Movies(ctx, st, w, fm, add)
		}
		return err
	}
	summary := p.Stdout
	if out == "-" {
		// Standard output carries the records.
		summary = p.Stderr
		err = write(p.Stdout)
	} else {
		err = replaceFile(out, true, 0o644, func(tmp string) error { return writeInto(tmp, write) })
	}
	if err != nil {
		return fmt.Errorf("%s: %s", name, message(err))
	}
	to := out
	if out == "-" {
		to = "stdout"
	}
	fmt.Fprintf(summary, "exported %d %s to %s (%s) in %s\n", n, kind, to, fm, time.Since(start).Round(time.Millisecond))
	return nil
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

// exportTotal is the number of records to export, for the progress bar.
func exportTotal(ctx context.Context, st store, kind string) (int64, error) {
	if kind == "movies" {
		return st.CountMovies(ctx)
	}
	return st.CountClips(ctx)
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
	return syncDir(dir)
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

// syncDir makes a rename in dir durable; file systems that cannot sync
// a directory are not an error.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return nil
	}
	defer d.Close()
	d.Sync()
	return nil
}
