package cli_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"

	"catalog/internal/cli"
	"catalog/internal/progress"
)

// writeMovies writes n movies as JSON Lines and returns the file.
func writeMovies(t *testing.T, dir string, n int) string {
	t.Helper()
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, `{"name": "Progress %d", "id_code": "P-%d"}`+"\n", i, i)
	}
	file := filepath.Join(dir, "movies.jsonl")
	if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// TestProgressLines: off a terminal, the long commands print plain
// progress lines on stderr (here after every update, with a 1 ns
// interval), and --quiet (or CATALOG_QUIET) leaves only the summary.
func TestProgressLines(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := migrated(t, filepath.Join(dir, "db.sqlite"))
	file := writeMovies(t, dir, 300)
	size := progress.FormatBytes(fileSizeOf(t, file))
	snap := filepath.Join(dir, "snap.json")
	// seed runs three times (plain, --quiet, CATALOG_QUIET): 300 + 3*20
	// movies by the time snapshot and export run.
	for _, tc := range []struct {
		name string
		args []string
		want []string // in the last progress line
	}{
		{"import", []string{"import", "movies", file}, []string{"import " + file + ": 300 records", "100% (" + size + " of " + size + ")"}},
		{"seed", []string{"seed", "--clips", "10", "--movies", "20", "--force"}, []string{"seed movies: 20 of 20 records (100%)"}},
		{"snapshot", []string{"snapshot", "--out", snap}, []string{"snapshot: 360 of 360 records (100%)"}},
		{"export", []string{"export", "movies", "--out", filepath.Join(dir, "out.jsonl")}, []string{"export movies: 360 of 360 records (100%)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append(append([]string{}, tc.args...), "--db", db)
			r := run(t, nil, "", append(args, "--progress-every", "1ns")...)
			wantExit(t, r, 0)
			lines := strings.Split(strings.TrimSuffix(r.stderr, "\n"), "\n")
			last := lines[len(lines)-1]
			for _, want := range tc.want {
				if !strings.Contains(last, want) {
					t.Errorf("last progress line %q lacks %q", last, want)
				}
			}
			if !strings.Contains(last, "/s") {
				t.Errorf("last progress line %q has no rate", last)
			}
			if strings.ContainsAny(r.stderr, "\r\x1b") {
				t.Errorf("plain progress holds terminal controls: %q", r.stderr)
			}
			if r.stdout == "" {
				t.Errorf("no summary on stdout")
			}

			for _, quiet := range []struct {
				env  map[string]string
				args []string
			}{{nil, []string{"--quiet"}}, {map[string]string{"CATALOG_QUIET": "true"}, nil}} {
				r := run(t, quiet.env, "", append(append(args, "--progress-every", "1ns"), quiet.args...)...)
				wantExit(t, r, 0)
				if r.stderr != "" {
					t.Errorf("quiet: got %q on stderr, want nothing", r.stderr)
				}
				if r.stdout == "" {
					t.Errorf("quiet: no summary on stdout")
				}
			}
		})
	}
	// The default interval is seconds: a quick command prints no line.
	r := run(t, nil, "", "export", "movies", "--db", db, "--out", filepath.Join(dir, "again.jsonl"))
	wantExit(t, r, 0)
	if r.stderr != "" {
		t.Errorf("a quick export printed progress: %q", r.stderr)
	}
}

func fileSizeOf(t *testing.T, file string) int64 {
	t.Helper()
	fi, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}

// TestProgressBarOnTerminal runs import and export with standard error
// on a pseudo-terminal and reads the screen: a live bar with the label,
// a percentage and a rate, drawn with carriage returns.
func TestProgressBarOnTerminal(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := migrated(t, filepath.Join(dir, "db.sqlite"))
	file := writeMovies(t, dir, 2000)
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"import", "movies", file}, []string{"import " + file + ": 2000 records", "100%", "/s", "kB"}},
		{[]string{"export", "movies", "--out", filepath.Join(dir, "out.csv")}, []string{"export movies", "100%", "2000/2000", "records/s"}},
	} {
		t.Run(tc.args[0], func(t *testing.T) {
			screen, stdout, err := runOnTerminal(t, append(tc.args, "--db", db))
			if err != nil {
				t.Fatalf("%v\nscreen: %q", err, screen)
			}
			for _, want := range append(tc.want, "\r", "|") {
				if !strings.Contains(screen, want) {
					t.Errorf("screen %q lacks %q", screen, want)
				}
			}
			if stdout == "" {
				t.Errorf("no summary on stdout")
			}
		})
	}
	// --quiet on a terminal: nothing on the screen.
	screen, _, err := runOnTerminal(t, []string{"export", "movies", "--db", db, "--out", filepath.Join(dir, "q.jsonl"), "--quiet"})
	if err != nil || screen != "" {
		t.Errorf("quiet on a terminal: got %q, %v; want nothing", screen, err)
	}
}

// runOnTerminal runs the command with standard error on a new
// pseudo-terminal and returns what the terminal received.
func runOnTerminal(t *testing.T, args []string) (screen, stdout string, err error) {
	t.Helper()
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer ptmx.Close()
	var buf bytes.Buffer
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		io.Copy(&buf, ptmx) // ends when the terminal closes
	}()
	var out bytes.Buffer
	p := &cli.Program{Getenv: envFunc(nil), Stdout: &out, Stderr: tty}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	err = p.Run(ctx, args)
	tty.Close()
	wg.Wait()
	return buf.String(), out.String(), err
}
