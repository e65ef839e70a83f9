package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/crypto/bcrypt"
	"golang.org/x/term"

	"catalog/internal/catalog"
	"catalog/internal/demo"
	"catalog/internal/edge"
	"catalog/internal/importer"
	"catalog/internal/snapshot"
)

func (p *Program) migrate(ctx context.Context, args []string) error {
	var db dbConfig
	f := newFlags("migrate", "", "Brings the database schema up to date and exits.")
	f.dbFlags(&db)
	if _, err := f.parse(args, p); err != nil {
		return err
	}
	if err := db.check("migrate"); err != nil {
		return err
	}
	db.create = true
	st, applied, err := migrateStore(ctx, db)
	if err != nil {
		return err
	}
	defer st.Close()
	if len(applied) == 0 {
		if _, err := fmt.Fprintln(p.Stdout, "database schema is up to date: nothing to apply"); err != nil {
			return err
		}
	} else {
		for _, name := range applied {
			fmt.Fprintln(p.Stdout, "applied", name)
		}
		if _, err := fmt.Fprintf(p.Stdout, "database schema migrated: %d applied\n", len(applied)); err != nil {
			return err
		}
	}
	return reportInvalidRows(ctx, st, p.Stdout)
}

// bcryptMaxBytes is the longest password bcrypt accepts.
const bcryptMaxBytes = 72

const adminUsage = `Usage: catalog admin create --username NAME     (password on standard input)
       catalog admin password --username NAME   (new password on standard input; ends their sessions)
       catalog admin list
       catalog admin delete --username NAME     (ends their sessions)
       catalog admin unlock --username NAME     (clear failed-login counts)`

func (p *Program) admin(ctx context.Context, args []string) error {
	if len(args) == 0 {
		return usagef("admin: say what to do: create, password, list, delete or unlock")
	}
	switch args[0] {
	case "create", "password":
		return p.adminPassword(ctx, args[0], args[1:])
	case "list":
		return p.adminList(ctx, args[1:])
	case "delete":
		return p.adminDelete(ctx, args[1:])
	case "unlock":
		return p.adminUnlock(ctx, args[1:])
	case "-h", "--help", "help":
		fmt.Fprintln(p.Stdout, adminUsage)
		return errHelp
	}
	return usagef("admin: unknown subcommand %q; use create, password, list, delete or unlock", args[0])
}

// adminPassword is "admin create" (a new administrator) and "admin
// password" (a new password for one, which ends every session of
// theirs, so that whoever held the old password is logged out).
func (p *Program) adminPassword(ctx context.Context, sub string, args []string) error {
	name := "admin " + sub
	var db dbConfig
	var username string
	about := "Creates an administrator. The password is the first line of standard input,\n" +
		"or is asked for when standard input is a terminal; at least 12 characters."
	if sub == "password" {
		about = "Sets a new password for an administrator and ends every session of theirs.\n" +
			"The password is read as for admin create; at least 12 characters."
	}
	f := newFlags(name, "", about)
	f.dbFlags(&db)
	f.stringVar(&username, "username", "CATALOG_ADMIN_USERNAME", "", "the administrator's login name (required)")
	if _, err := f.parse(args, p); err != nil {
		return err
	}
	if err := db.check(name); err != nil {
		return err
	}
	username = strings.TrimSpace(username)
	if err := checkUsername(name, username); err != nil {
		return err
	}
	password, err := p.readPassword(name)
	if err != nil {
		return err
	}
	if n := utf8.RuneCountInString(password); n < catalog.MinPasswordRunes {
		return fmt.Errorf("%s: the password must have at least %d characters, got %d", name, catalog.MinPasswordRunes, n)
	}
	if len(password) > bcryptMaxBytes {
		return fmt.Errorf("%s: the password must be at most %d bytes", name, bcryptMaxBytes)
	}
	st, err := openStore(ctx, db)
	if err != nil {
		return err
	}
	defer st.Close()
	if sub == "create" {
		if err := createAdmin(ctx, st, username, password); err != nil {
			return fmt.Errorf("admin create: %w", err)
		}
		_, err = fmt.Fprintf(p.Stdout, "administrator %q created\n", username)
		return err
	}
	hash, err := bcrypt.GenerateFromPassword([]byte(password), bcrypt.DefaultCost)
	if err != nil {
		return fmt.Errorf("admin password: hash password: %w", err)
	}
	ended, err := st.SetAdminPassword(ctx, username, string(hash))
	if catalog.ErrorCode(err) == catalog.ENOTFOUND {
		return fmt.Errorf("admin password: there is no administrator %q (catalog admin list shows them)", username)
	}
	if err != nil {
		return fmt.Errorf("admin password: %s", message(err))
	}
	_, err = fmt.Fprintf(p.Stdout, "password of administrator %q changed; %d sessions ended\n", username, ended)
	return err
}

func checkUsername(cmd, name string) error {
	switch {
	case name == "":
		return usagef("%s: --username is required", cmd)
	case len(name) > catalog.MaxUsernameBytes: // a longer name could never log in
		return usagef("%s: --username must be at most %d bytes", cmd, catalog.MaxUsernameBytes)
	case strings.IndexFunc(name, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) >= 0:
		return usagef("%s: --username must not contain spaces or control characters", cmd)
	case !utf8.ValidString(name):
		return usagef("%s: --username must be valid UTF-8", cmd)
	}
	return nil
}

// readPassword prompts twice without echo on a terminal; otherwise it
// reads the first line of standard input.
func (p *Program) readPassword(cmd string) (string, error) {
	if f, ok := p.Stdin.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		read := func(prompt string) (string, error) {
			fmt.Fprint(p.Stderr, prompt)
			b, err := term.ReadPassword(int(f.Fd()))
			fmt.Fprintln(p.Stderr)
			return string(b), err
		}
		pw, err := read("Password: ")
		if err != nil {
			return "", fmt.Errorf("%s: read password: %w", cmd, err)
		}
		again, err := read("Repeat password: ")
		if err != nil {
			return "", fmt.Errorf("%s: read password: %w", cmd, err)
		}
		if pw != again {
			return "", fmt.Errorf("%s: the passwords do not match", cmd)
		}
		return pw, nil
	}
	if p.Stdin == nil {
		return "", fmt.Errorf("%s: give the password on standard input", cmd)
	}
	line, err := bufio.NewReader(p.Stdin).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return "", fmt.Errorf("%s: read password: %w", cmd, err)
	}
	line = strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
	if line == "" {
		return "", fmt.Errorf("%s: no password on standard input (give it as the first line)", cmd)
	}
	return line, nil
}

// rejectedError reports that an import skipped records.
type rejectedError struct{ rejected int }

func (e *rejectedError) Error() string {
	if e.rejected == 1 {
		return "1 record was rejected"
	}
	return fmt.Sprintf("%d records were rejected", e.rejected)
}

func (p *Program) importCmd(ctx context.Context, args []string) error {
	if len(args) == 0 || (args[0] != "movies" && args[0] != "clips") {
		if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "help") {
			fmt.Fprintln(p.Stdout, "Usage: catalog import movies|clips [--dry-run] [--merge] FILE...   (- is JSON Lines on standard input)")
			return errHelp
		}
		return usagef("import: say what to import: catalog import movies FILE... or catalog import clips FILE...")
	}
	kind := args[0]
	var db dbConfig
	var opts importer.Options
	var platformList string
	var pf progressFlags
	name := "import " + kind
	f := newFlags(name, "FILE...",
		"Imports "+kind+" from .jsonl (one JSON object per line), .json (an array of objects)\n"+
			"or .csv files (header row of field names); - reads JSON Lines from standard input.\n"+
			"Bad records are reported with their line number and skipped; the exit status is 1\n"+
			"when any record was rejected.")
	f.dbFlags(&db)
	f.boolVar(&opts.DryRun, "dry-run", "", false, "validate every record without writing anything")
	if kind == "movies" {
		f.boolVar(&opts.Merge, "merge", "", false,
			"change only the members each record gives; the movie it names (id, else id_code, else slug)\n"+
				"keeps the others, its slug included (default: a record replaces the whole movie)")
	}
	f.progressFlags(&pf)
	if kind == "clips" {
		f.platformsFlag(&platformList)
	}
	var purgeURL string
	f.purgeFlag(&purgeURL)
	files, err := f.parse(args[1:], p)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return usagef("%s: give at least one FILE (- for standard input)", name)
	}
	if err := db.check(name); err != nil {
		return err
	}
	for _, file := range files {
		if err := importer.CheckName(file); err != nil {
			return usagef("%s: %s: %s", name, display(file), message(err))
		}
	}
	var platforms *catalog.Platforms
	if kind == "clips" {
		if platforms, err = parsePlatforms(name, platformList); err != nil {
			return err
		}
	}
	purger, err := openPurger(name, purgeURL, p.logger(p.Stderr), nil)
	if err != nil {
		return err
	}
	defer closePurger(purger)
	opened, err := openStore(ctx, db)
	if err != nil {
		return err
	}
	defer opened.Close()
	st := edge.Announcing(opened, purger) // one purge per batch written

	var total importer.Summary
	var failed []string
	for _, file := range files {
		sum, err := p.importFile(file, opts.DryRun, func(name string, r io.Reader) (importer.Summary, error) {
			rep := p.progress(pf).Bytes("import "+display(name), fileSize(name))
			defer rep.Close()
			opts := opts
			opts.Progress = func() { rep.Add(1) }
			r = rep.Reader(r)
			if kind == "clips" {
				return importer.Clips(ctx, st, platforms, name, r, opts)
			}
			return importer.Movies(ctx, st, name, r, opts)
		})
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
	if len(files) > 1 {
		p.printSummary("total", total, opts.DryRun)
	}
	switch {
	case len(failed) > 0:
		return fmt.Errorf("%s: could not finish %s", name, strings.Join(failed, ", "))
	case total.Rejected > 0:
		return &rejectedError{rejected: total.Rejected}
	}
	return nil
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
func (p *Program) importFile(file string, dryRun bool, run func(string, io.Reader) (importer.Summary, error)) (importer.Summary, error) {
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
	sum, err := run(file, r)
	w := bufio.NewWriter(p.Stderr)
	for _, rej := range sum.Rejects {
		fmt.Fprintf(w, "%s:%d: %s\n", display(file), rej.Line, flatten(rej.Message))
	}
	if more := sum.Rejected - len(sum.Rejects); more > 0 {
		fmt.Fprintf(w, "%s: ... and %d more rejected records\n", display(file), more)
	}
	w.Flush()
	if sum.Read > 0 || sum.Rejected > 0 || err == nil {
		p.printSummary(display(file), sum, dryRun)
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

func (p *Program) seed(ctx context.Context, args []string) error {
	var db dbConfig
	var clips, movies int
	var platformList string
	var pf progressFlags
	f := newFlags("seed", "", "Inserts synthetic sample clips and movies, for demos and benchmarks.")
	f.dbFlags(&db)
	f.progressFlags(&pf)
	f.intVar(&clips, "clips", "CATALOG_SEED_CLIPS", 0, "insert `N` clips")
	f.intVar(&movies, "movies", "CATALOG_SEED_MOVIES", 0, "insert `N` movies")
	f.platformsFlag(&platformList)
	var purgeURL string
	f.purgeFlag(&purgeURL)
	var force bool
	f.boolVar(&force, "force", "", false, "add the synthetic records to a database that already holds records")
	if _, err := f.parse(args, p); err != nil {
		return err
	}
	if err := db.check("seed"); err != nil {
		return err
	}
	switch {
	case clips < 0 || movies < 0:
		return usagef("seed: --clips and --movies must not be negative")
	case clips == 0 && movies == 0:
		return usagef("seed: give --clips N and/or --movies N")
	}
	platforms, err := parsePlatforms("seed", platformList)
	if err != nil {
		return err
	}
	purger, err := openPurger("seed", purgeURL, p.logger(p.Stderr), nil)
	if err != nil {
		return err
	}
	defer closePurger(purger)
	opened, err := openStore(ctx, db)
	if err != nil {
		return err
	}
	defer opened.Close()
	st := edge.Announcing(opened, purger)
	existing, err := refuseFilled(ctx, st, force)
	if err != nil {
		return err
	}
	start := time.Now()
	g := demo.NewGenerator(uint64(start.UnixNano()), platforms, start.Add(-time.Duration(clips)*time.Second), time.Second, int(existing))
	if clips > 0 {
		rep := p.progress(pf).Records("seed clips", int64(clips))
		err := demo.SeedClips(ctx, countingClips{st, rep}, g, clips)
		rep.Close()
		if err != nil {
			return fmt.Errorf("seed clips: %s", message(err))
		}
		fmt.Fprintf(p.Stdout, "seeded %d clips in %s\n", clips, time.Since(start).Round(time.Millisecond))
	}
	if movies > 0 {
		t := time.Now()
		rep := p.progress(pf).Records("seed movies", int64(movies))
		err := demo.SeedMovies(ctx, countingMovies{st, rep}, g, movies)
		rep.Close()
		if err != nil {
			return fmt.Errorf("seed movies: %s", message(err))
		}
		fmt.Fprintf(p.Stdout, "seeded %d movies in %s\n", movies, time.Since(t).Round(time.Millisecond))
	}
	return nil
}

// refuseFilled returns the number of movies in st, or an error when st
// holds any clip or movie and force is not set: synthetic records mixed
// into a real catalog are hard to pick out again. With force, the
// numbering continues after what is there, so that id_codes and slugs
// stay unique and seeding twice adds rather than overwrites.
func refuseFilled(ctx context.Context, st catalog.Store, force bool) (int64, error) {
	movies, err := st.CountMovies(ctx)
	if err != nil {
		return 0, fmt.Errorf("seed: %s", message(err))
	}
	clips, err := st.CountClips(ctx)
	if err != nil {
		return 0, fmt.Errorf("seed: %s", message(err))
	}
	if (movies > 0 || clips > 0) && !force {
		return 0, fmt.Errorf("seed: the database already holds %d movies and %d clips; seed fills empty databases "+
			"for demos and load tests (give --force to add synthetic records anyway)", movies, clips)
	}
	return movies, nil
}

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
	if err := db.check("snapshot"); err != nil {
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
