package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"catalog/internal/catalog"
)

// errHelp ends a command after -h printed its usage.
var errHelp = flag.ErrHelp

// flags is one command's flag set; every flag may also come from an
// environment variable, which a flag on the command line overrides.
type flags struct {
	fs       *flag.FlagSet
	name     string // "import movies"
	synopsis string // positional arguments, for the usage line
	about    string
	env      []envBinding
	// checks run after a successful parse, in order (the database
	// flags' check, registered by dbFlags).
	checks []func() error
}

type envBinding struct{ flag, env string }

func newFlags(name, synopsis, about string) *flags {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors are returned as one line; -h is printed by parse
	return &flags{fs: fs, name: name, synopsis: synopsis, about: about}
}

func (f *flags) bind(name, env, help string) {
	if env != "" {
		f.env = append(f.env, envBinding{flag: name, env: env})
		f.fs.Lookup(name).Usage = help + " [" + env + "]"
	}
}

func (f *flags) stringVar(p *string, name, env, def, help string) {
	f.fs.StringVar(p, name, def, help)
	f.bind(name, env, help)
}

func (f *flags) boolVar(p *bool, name, env string, def bool, help string) {
	varOf(f, p, name, env, def, help, value[bool]{p, strconv.ParseBool, "want true or false"})
}

func (f *flags) intVar(p *int, name, env string, def int, help string) {
	varOf(f, p, name, env, def, help, value[int]{p, strconv.Atoi, "want a whole number"})
}

func (f *flags) durationVar(p *time.Duration, name, env string, def time.Duration, help string) {
	varOf(f, p, name, env, def, help, value[time.Duration]{p, time.ParseDuration, "want a duration such as 90s, 30m or 1h"})
}

func varOf[T any](f *flags, p *T, name, env string, def T, help string, v value[T]) {
	*p = def
	f.fs.Var(v, name, help)
	f.bind(name, env, help)
}

// value is a flag value of type T. The flag package's own values answer
// a bad value with "parse error"; these say what they want instead.
type value[T any] struct {
	p     *T
	parse func(string) (T, error)
	want  string
}

func (v value[T]) Set(s string) error {
	x, err := v.parse(s)
	if err != nil {
		return errors.New(v.want)
	}
	*v.p = x
	return nil
}

// String is the value as -h shows the default; the flag package calls
// it on a zero value too.
func (v value[T]) String() string {
	if v.p == nil {
		var zero T
		return fmt.Sprint(zero)
	}
	return fmt.Sprint(*v.p)
}

// IsBoolFlag lets a bool flag be given without a value (--demo).
func (v value[T]) IsBoolFlag() bool {
	_, ok := any(v.p).(*bool)
	return ok
}

// parse applies the environment, then args. Flags may come before,
// between or after positional arguments ("--" ends the flags); the
// positional arguments are returned. -h prints the usage to stdout and
// returns errHelp.
func (f *flags) parse(args []string, p *Program) ([]string, error) {
	for _, b := range f.env {
		v := p.Getenv(b.env)
		if v == "" {
			continue
		}
		if err := f.fs.Set(b.flag, v); err != nil {
			return nil, usagef("%s: invalid value %q in environment variable %s (flag --%s): %s", f.name, v, b.env, b.flag, err)
		}
	}
	var positional []string
	for rest := args; ; {
		if err := f.fs.Parse(rest); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				f.usage(p.Stdout)
				return nil, errHelp
			}
			return nil, usagef("%s: %s (run \"catalog %s -h\" for usage)", f.name, err, f.name)
		}
		left := f.fs.Args()
		if len(left) == 0 {
			break
		}
		if consumed := len(rest) - len(left); consumed > 0 && rest[consumed-1] == "--" {
			positional = append(positional, left...)
			break
		}
		positional = append(positional, left[0])
		rest = left[1:]
	}
	if f.synopsis == "" && len(positional) > 0 {
		return nil, usagef("%s: unexpected argument %q (run \"catalog %s -h\" for usage)", f.name, positional[0], f.name)
	}
	for _, check := range f.checks {
		if err := check(); err != nil {
			return nil, err
		}
	}
	return positional, nil
}

// isSet reports whether the flag name was given, on the command line or
// by its environment variable.
func (f *flags) isSet(name string) bool {
	set := false
	f.fs.Visit(func(fl *flag.Flag) { set = set || fl.Name == name })
	return set
}

func (f *flags) usage(w io.Writer) {
	fmt.Fprintf(w, "Usage: catalog %s\n\n%s\n", strings.TrimSpace(f.name+" [flags] "+f.synopsis), f.about)
	has := false
	f.fs.VisitAll(func(*flag.Flag) { has = true })
	if has {
		fmt.Fprintln(w, "\nFlags (environment variable in brackets):")
		f.fs.SetOutput(w)
		f.fs.PrintDefaults()
		f.fs.SetOutput(io.Discard)
	}
}

// dbConfig is what every command that touches the database needs.
type dbConfig struct {
	dsn      string
	maxConns int
	// statementTimeout bounds every PostgreSQL statement (0: none); set
	// by serve, not a flag.
	statementTimeout time.Duration
	// create lets a missing SQLite file be created (serve, migrate).
	create bool
}

// dbFlags registers --db and --db-max-conns, which parse checks.
func (f *flags) dbFlags(c *dbConfig) {
	f.stringVar(&c.dsn, "db", "CATALOG_DB", "catalog.db",
		"SQLite database file, or a postgres:// or postgresql:// URL")
	f.intVar(&c.maxConns, "db-max-conns", "CATALOG_DB_MAX_CONNS", 0,
		"most database `connections` (SQLite: readers); 0 = engine default")
	f.checks = append(f.checks, func() error {
		if strings.TrimSpace(c.dsn) == "" {
			return usagef("%s: --db must not be empty", f.name)
		}
		if c.maxConns < 0 {
			return usagef("%s: --db-max-conns must be 0 or more, got %d", f.name, c.maxConns)
		}
		return nil
	})
}

// platformsFlag registers --platforms; parsePlatforms turns it into the
// enumeration after parsing.
func (f *flags) platformsFlag(p *string) {
	f.stringVar(p, "platforms", "CATALOG_PLATFORMS", strings.Join(catalog.DefaultPlatforms(), ","),
		"comma-separated platform values, in display order")
}

func parsePlatforms(cmd, s string) (*catalog.Platforms, error) {
	pl, err := catalog.ParsePlatforms(s)
	if err != nil {
		return nil, usagef("%s: --platforms: %s", cmd, message(err))
	}
	return pl, nil
}

// logConfig is serve's --log-format and --log-level.
type logConfig struct {
	format string // json, text or auto
	level  slog.Level
}

func (c *logConfig) parse(format, level string) error {
	switch format {
	case "json", "text", "auto":
		c.format = format
	default:
		return usagef("serve: --log-format must be json, text or auto, got %q", format)
	}
	if err := c.level.UnmarshalText([]byte(level)); err != nil || strings.ContainsAny(level, "+-") {
		return usagef("serve: --log-level must be debug, info, warn or error, got %q", level)
	}
	return nil
}
