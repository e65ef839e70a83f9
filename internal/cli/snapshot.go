package cli

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"catalog/internal/snapshot"
)

// snapshot is "catalog snapshot": one movie snapshot, written once.
func (p *Program) snapshot(ctx context.Context, args []string) error {
	var db dbConfig
	var out string
	var pf progressFlags
	f := newFlags("snapshot", "", "Writes one movie snapshot (the whole catalog as JSON) and exits.")
	f.dbFlags(&db)
	f.progressFlags(&pf)
	f.stringVar(&out, "out", "CATALOG_SNAPSHOT_OUT", "", "file to write; - for standard output (required)")
	if _, err := f.parse(args, p); err != nil {
		return err
	}
	if out == "" {
		return usagef("snapshot: --out FILE is required")
	}
	st, err := openStore(ctx, db)
	if err != nil {
		return err
	}
	defer st.Close()
	total, err := st.CountMovies(ctx)
	if err != nil {
		return fmt.Errorf("snapshot: %s", message(err))
	}
	rep := p.progress(pf).Records("snapshot", total)
	movies := countingMovies{st, rep}
	if out == "-" {
		w := bufio.NewWriterSize(p.Stdout, 256<<10)
		err := snapshot.Write(ctx, movies, w, time.Now())
		rep.Close()
		if err != nil {
			return fmt.Errorf("snapshot: %s", message(err))
		}
		return w.Flush()
	}
	if isDevice(out) {
		err = writeInto(out, func(w io.Writer) error {
			return snapshot.WriteTo(ctx, movies, w, strings.HasSuffix(out, ".gz"), time.Now())
		})
	} else {
		err = snapshot.WriteFile(ctx, movies, out, time.Now())
	}
	rep.Close()
	if err != nil {
		return fmt.Errorf("snapshot: %s", message(err))
	}
	_, err = fmt.Fprintf(p.Stdout, "snapshot written to %s\n", out)
	return err
}
