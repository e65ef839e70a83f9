// Package cli is the catalog command line (contract 1). main only wires
// the process to Run, so tests run the whole program in-process.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"runtime/debug"
	"strings"

	"golang.org/x/term"

	"catalog/internal/catalog"
)

// Program is one run of the command line with its process surroundings.
type Program struct {
	Getenv func(string) string
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	// Listening, when set, is called once serve accepts connections,
	// with the addresses actually bound (tests listen on port 0).
	Listening func(Addrs)
	// Version overrides the version found in the build information.
	Version string
}

// Addrs are the bound addresses of the two services.
type Addrs struct {
	Clips, Movies net.Addr
	Metrics       net.Addr // nil without --metrics-addr
}

// Run runs the command line args (without the program name).
func Run(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	p := &Program{Getenv: getenv, Stdin: stdin, Stdout: stdout, Stderr: stderr}
	return p.Run(ctx, args)
}

// UsageError is a command line the program cannot act on: unknown
// command, bad flag or environment value, missing argument.
type UsageError struct {
	Message string
}

func (e *UsageError) Error() string { return e.Message }

func usagef(format string, args ...any) error {
	return &UsageError{Message: fmt.Sprintf(format, args...)}
}

// ExitCode is the process status for an error returned by Run: 0 for
// nil, 2 for usage errors, 1 for everything else (rejected import
// records included).
func ExitCode(err error) int {
	var u *UsageError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &u):
		return 2
	}
	return 1
}

const mainUsage = `catalog serves a clip catalog and a movie catalog over HTTP.

Usage: catalog COMMAND [flags]

Commands:
  serve [--demo]                     run both services (migrates the database first)
  migrate                            bring the database schema up to date
  admin create --username NAME       create an administrator (password on stdin)
  admin password --username NAME     set a new password (stdin) and end their sessions
  admin list                         list the administrators
  admin delete --username NAME       delete an administrator and end their sessions
  admin unlock --username NAME       clear an administrator's failed-login counts
  import movies|clips [--dry-run] FILE...
                                     import .jsonl, .json or .csv files; - is JSON Lines on stdin
  seed --clips N --movies N [--force]
                                     insert synthetic sample records into an empty database
  snapshot --out FILE                write one movie snapshot
  export movies|clips [--out FILE] [--format jsonl|csv]
                                     write every record in import form
  backup --out FILE                  copy a live SQLite database consistently
  token create|list|revoke           API tokens for scripts (create --name NAME --scope SCOPES)
  source add|set|list|remove         MacCMS sources to collect movies from (add NAME URL [--every D] [--hours N];
                                     set NAME [--match FIELDS] [--preferred] [--interval D])
  collect NAME|URL [--hours N] [--pages N]
                                     collect movies from one source now
  health [--ready]                   check that a running serve answers on both addresses
  version                            print the version

Run "catalog COMMAND -h" for the flags of a command; every flag can also
be set with the environment variable shown there.
`

// Run runs the command line args (without the program name).
func (p *Program) Run(ctx context.Context, args []string) error {
	if p.Getenv == nil {
		p.Getenv = func(string) string { return "" }
	}
	if len(args) == 0 {
		return usagef("no command given; run \"catalog help\" for the list")
	}
	cmd, rest := args[0], args[1:]
	var err error
	switch cmd {
	case "help", "-h", "-help", "--help":
		_, err = io.WriteString(p.Stdout, mainUsage)
	case "serve":
		err = p.serve(ctx, rest)
	case "migrate":
		err = p.migrate(ctx, rest)
	case "admin":
		err = p.admin(ctx, rest)
	case "import":
		err = p.importCmd(ctx, rest)
	case "seed":
		err = p.seed(ctx, rest)
	case "snapshot":
		err = p.snapshot(ctx, rest)
	case "export":
		err = p.exportCmd(ctx, rest)
	case "backup":
		err = p.backup(ctx, rest)
	case "token":
		err = p.token(ctx, rest)
	case "source":
		err = p.source(ctx, rest)
	case "collect":
		err = p.collectCmd(ctx, rest)
	case "health":
		err = p.health(ctx, rest)
	case "version", "-version", "--version":
		err = p.version(rest)
	default:
		err = usagef("unknown command %q; run \"catalog help\" for the list", cmd)
	}
	if errors.Is(err, errHelp) {
		return nil
	}
	return oneLine(err)
}

// oneLine keeps the error's type (for ExitCode) but makes sure it prints
// as a single line without internal detail such as domain error codes.
func oneLine(err error) error {
	if err == nil {
		return nil
	}
	var u *UsageError
	if errors.As(err, &u) {
		u.Message = flatten(u.Message)
		return u
	}
	return &failure{msg: flatten(message(err)), err: err}
}

// failure is an ordinary error with a cleaned message.
type failure struct {
	msg string
	err error
}

func (f *failure) Error() string { return f.msg }
func (f *failure) Unwrap() error { return f.err }

// flatten makes s one line safe for a terminal (termText): messages
// can carry a stranger's text.
func flatten(s string) string {
	return strings.Join(strings.Fields(termText(s)), " ")
}

// message is err's text, a domain error by its safe message rather than
// its code dump. Wrap with it (fmt.Errorf("x: %s", message(err))) so
// that the context survives.
func message(err error) string {
	var e *catalog.Error
	if errors.As(err, &e) {
		return e.Message
	}
	return err.Error()
}

// versionOf is the module version the go command stamped (since Go 1.24
// a VCS build gets one: the tag, or a pseudo-version naming the commit,
// with "+dirty" for uncommitted changes), else the VCS revision with
// "-dirty" when the tree had changes, else "dev". A build without VCS
// information (-buildvcs=false, or no .git directory in the build
// context) is "dev": nothing in it says which source it is.
func versionOf(info *debug.BuildInfo, ok bool) string {
	if !ok {
		return "dev"
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev string
	var dirty bool
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return "dev"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if dirty {
		rev += "-dirty"
	}
	return rev
}

// versionString is Program.Version, else the version of this binary
// from its build information (versionOf).
func (p *Program) versionString() string {
	if p.Version != "" {
		return p.Version
	}
	return versionOf(debug.ReadBuildInfo())
}

func (p *Program) version(args []string) error {
	f := newFlags("version", "", "print the version")
	if _, err := f.parse(args, p); err != nil {
		return err
	}
	_, err := fmt.Fprintln(p.Stdout, "catalog", p.versionString())
	return err
}

// isTerminal reports whether v is an interactive terminal.
func isTerminal(v any) bool {
	f, ok := v.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
