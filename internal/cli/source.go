package cli

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"net/url"
	"strings"
	"text/tabwriter"
	"time"

	"catalog/internal/catalog"
	"catalog/internal/collect"
	"catalog/internal/fetchguard"
	"catalog/internal/progress"
)

const sourceUsage = `Usage:
  catalog source add NAME URL [--every DURATION] [--hours N] [--match FIELDS] [--preferred] [--interval DURATION]
                                [--gone keep|hide|delete] [--synonyms LOCAL=REMOTE,...]
  catalog source set NAME [--match FIELDS] [--preferred=true|false] [--interval DURATION]
                          [--gone keep|hide|delete] [--synonyms LOCAL=REMOTE,...]
  catalog source list
  catalog source types NAME
  catalog source bind NAME REMOTE_TYPE_ID LOCAL|skip
  catalog source remove NAME`

// source runs `catalog source add|set|list|types|bind|remove` (contract
// 1 and 10).
func (p *Program) source(ctx context.Context, args []string) error {
	if len(args) == 0 {
		return usagef("source: say what to do: add, set, list, types, bind or remove")
	}
	sub, rest := args[0], args[1:]
	name := "source " + sub
	var db dbConfig
	var every time.Duration
	var hours int
	var allowPrivate bool
	var sf sourceFlags
	var f *flags
	want := 0
	switch sub {
	case "-h", "--help", "help":
		fmt.Fprintln(p.Stdout, sourceUsage)
		return errHelp
	case "add":
		f = newFlags(name, "NAME URL", "Adds a MacCMS provide/vod address to collect movies from (JSON, or XML when\nthe address names it: at/xml or at=xml).")
		f.durationVar(&every, "every", "", 0, "how often serve collects from it (0: only on request; at least 1m)")
		f.intVar(&hours, "hours", "", 0, "after the first full run, read only what changed in the last N hours (h=N; 0: everything)")
		f.fetchFlag(&allowPrivate)
		sf.bind(f)
		want = 2
	case "set":
		f = newFlags(name, "NAME", "Changes how a source's records merge with movies of other sources, how often its pages\nare asked for, what full runs do with records it no longer lists and its binding rules;\nthe flags not given keep their values.")
		sf.bind(f)
		want = 1
	case "list":
		f = newFlags(name, "", "Lists the sources with their last run.")
	case "types":
		f = newFlags(name, "NAME", "Lists the source's types (remote type_id and name), each with its local category\n(or skip, or unbound) and how many of its records are kept, not shown, until it is bound.")
		want = 1
	case "bind":
		f = newFlags(name, "NAME REMOTE_TYPE_ID LOCAL|skip", "Binds one of the source's types to a local category, or to skip, by hand: auto-binding\nnever changes it. The records kept for the type are published without fetching them\nagain; the type's movies move from the category it was bound to before.")
		want = 3
	case "remove":
		f = newFlags(name, "NAME", "Removes a source; the movies collected from it stay.")
		want = 1
	default:
		return usagef("source: unknown subcommand %q; use add, set, list, types, bind or remove", sub)
	}
	f.dbFlags(&db)
	positional, err := f.parse(rest, p)
	if err != nil {
		return err
	}
	if len(positional) != want {
		return usagef("%s: give %s (run \"catalog %s -h\" for usage)", name, strings.Join(strings.Fields(f.synopsis), " and "), name)
	}
	// Every argument is checked before the database opens.
	var src catalog.Source
	var typeID int64
	switch sub {
	case "add":
		if src, err = catalog.NewSource(positional[0], positional[1], every, hours); err != nil {
			return usagef("source add: %s", flagErrors(err))
		}
		if err := fetchguard.CheckURL(src.URL, allowPrivate); err != nil {
			return usagef("source add: URL %s", fetchHint(err))
		}
		err = sf.apply(name, &src)
	case "set":
		err = sf.apply(name, &catalog.Source{SourceSettings: catalog.DefaultSourceSettings})
	case "bind":
		if typeID, err = collect.ParseTypeID(positional[1]); err != nil {
			return usagef("source bind: %s", message(err))
		}
	}
	if err != nil {
		return err
	}
	st, err := openStore(ctx, db)
	if err != nil {
		return err
	}
	defer st.Close()
	switch sub {
	case "add":
		if err := st.AddSource(ctx, &src); err != nil {
			return fmt.Errorf("source add: %w", err)
		}
		if err := sf.storeRules(ctx, st, src); err != nil {
			return err
		}
		_, err = fmt.Fprintf(p.Stdout, "source %s added\n", src.Name)
		return err
	case "set":
		return p.sourceSet(ctx, st, positional[0], sf)
	case "types":
		return p.listTypes(ctx, st, positional[0])
	case "bind":
		return p.sourceBind(ctx, st, positional, typeID)
	case "remove":
		if err := st.RemoveSource(ctx, positional[0]); err != nil {
			return fmt.Errorf("source remove: %w", notASource(err, positional[0]))
		}
		_, err = fmt.Fprintf(p.Stdout, "source %s removed\n", positional[0])
		return err
	}
	return p.listSources(ctx, st)
}

// sourceSet runs `source set NAME`: the flags given change the stored
// source, the others keep their values.
func (p *Program) sourceSet(ctx context.Context, st catalog.SourceStore, name string, sf sourceFlags) error {
	src, err := st.SourceByName(ctx, name)
	if err == nil {
		if err := sf.apply("source set", &src); err != nil {
			return err
		}
		err = st.SetSourceSettings(ctx, src.Name, src.SourceSettings)
	}
	if err != nil {
		return fmt.Errorf("source set: %w", notASource(err, name))
	}
	fmt.Fprintf(p.Stdout, "source %s: match %s, preferred %t, interval %s\n", src.Name, src.Match, src.Preferred, intervalText(src.Interval))
	if !sf.rulesGiven() {
		return nil
	}
	if err := sf.storeRules(ctx, st, src); err != nil {
		return err
	}
	_, err = fmt.Fprintf(p.Stdout, "source %s: gone %s, %d synonym rules\n", src.Name, src.Gone, len(src.Synonyms))
	return err
}

// sourceFlags are the flags of a source's settings, its binding rules
// and its choice for records gone at the source (source add and source
// set); apply takes those that were given.
type sourceFlags struct {
	f              *flags
	match          string
	preferred      bool
	interval       time.Duration
	gone, synonyms string
}

func (s *sourceFlags) bind(f *flags) {
	s.f = f
	f.stringVar(&s.match, "match", "", catalog.DefaultMatch.String(),
		"`fields` a new record must share with a movie of another source to join it, from "+strings.Join(catalog.MatchFieldNames(), ", ")+
			" (a shared douban_id always joins)")
	f.boolVar(&s.preferred, "preferred", "", false, "its records' fields replace those of the movies they join (else they fill only empty ones)")
	f.durationVar(&s.interval, "interval", "", 0, "least `time` between two of its page requests (0: serve's and collect's --collect-interval)")
	f.stringVar(&s.gone, "gone", "", "keep", "what a full run does with a record the source no longer lists: keep, hide (out of the catalog, kept with the source) or delete")
	f.stringVar(&s.synonyms, "synonyms", "", "", "binding `rules` LOCAL=REMOTE separated by commas: a type named REMOTE binds to the local category LOCAL")
}

// apply sets the flags given on src, and checks them as a usage error
// of the subcommand cmd.
func (s *sourceFlags) apply(cmd string, src *catalog.Source) error {
	if s.f == nil {
		return nil
	}
	var err error
	if s.f.isSet("match") {
		if src.Match, err = catalog.ParseMatch(s.match); err != nil {
			return usagef("%s: --match: %s", cmd, message(err))
		}
	}
	if s.f.isSet("preferred") {
		src.Preferred = s.preferred
	}
	if s.f.isSet("interval") {
		src.Interval = s.interval
	}
	if s.f.isSet("gone") {
		if src.Gone, err = catalog.ParseGone(s.gone); err != nil {
			return usagef("%s: --gone %s", cmd, message(err))
		}
	}
	if s.f.isSet("synonyms") {
		if src.Synonyms, err = catalog.ParseSynonyms(s.synonyms); err != nil {
			return usagef("%s: --synonyms: %s", cmd, message(err))
		}
	}
	if src.Gone == "" {
		src.Gone = catalog.GoneKeep
	}
	if err := src.SourceSettings.Check(); err != nil {
		return usagef("%s: %s", cmd, flagErrors(err))
	}
	return nil
}

// rulesGiven reports whether --gone or --synonyms was given.
func (s *sourceFlags) rulesGiven() bool {
	return s.f != nil && (s.f.isSet("gone") || s.f.isSet("synonyms"))
}

// storeRules stores src's rules when the flags gave any.
func (s *sourceFlags) storeRules(ctx context.Context, st catalog.SourceStore, src catalog.Source) error {
	if !s.rulesGiven() {
		return nil
	}
	if err := st.SetSourceRules(ctx, src.Name, src.Gone, src.Synonyms); err != nil {
		return fmt.Errorf("source %s: %w", s.f.name[len("source "):], notASource(err, src.Name))
	}
	return nil
}

// sourceBind runs `source bind NAME REMOTE_TYPE_ID LOCAL|skip`.
func (p *Program) sourceBind(ctx context.Context, st catalog.Store, positional []string, typeID int64) error {
	if _, err := st.SourceByName(ctx, positional[0]); err != nil {
		return fmt.Errorf("source bind: %w", notASource(err, positional[0]))
	}
	category, skip := collect.ParseBinding(positional[2])
	res, err := collect.Bind(ctx, st, positional[0], typeID, category, skip, true)
	if err != nil {
		return fmt.Errorf("source bind: %w", err)
	}
	to := category
	if skip {
		to = "skip"
	}
	_, err = fmt.Fprintf(p.Stdout, "source %s: type %d bound to %s; %d kept records published, %d movies moved\n", positional[0], typeID, flatten(to), res.Published, res.Moved)
	return err
}

// listTypes prints a source's types and their bindings.
func (p *Program) listTypes(ctx context.Context, st catalog.SourceStore, name string) error {
	types, err := st.SourceTypes(ctx, name)
	if err != nil {
		return fmt.Errorf("source types: %w", err)
	}
	if len(types) == 0 {
		if _, err := st.SourceByName(ctx, name); err != nil {
			return fmt.Errorf("source types: %w", notASource(err, name))
		}
	}
	tw := tabwriter.NewWriter(p.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "TYPE_ID\tNAME\tBOUND TO\tBY\tKEPT")
	for _, t := range types {
		to, by := t.Category, "auto"
		switch {
		case t.Skip:
			to = "skip"
		case to == "":
			to, by = "(unbound)", "-"
		}
		if t.ByHand {
			by = "hand"
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%d\n", t.ID, flatten(t.Name), flatten(to), by, t.Kept)
	}
	return tw.Flush()
}

// notASource words ENOTFOUND for the source name.
func notASource(err error, name string) error {
	if catalog.ErrorCode(err) == catalog.ENOTFOUND {
		return fmt.Errorf("no source is named %q (catalog source list shows them)", name)
	}
	return err
}

// intervalText is a source's interval as source list shows it.
func intervalText(d time.Duration) string {
	if d == 0 {
		return "default"
	}
	return d.String()
}

// flagErrors words a validation error's fields as the flags or
// arguments that carry them.
func flagErrors(err error) string {
	var e *catalog.Error
	if !errors.As(err, &e) || len(e.Fields) == 0 {
		return message(err)
	}
	flagged := catalog.FieldErrors{}
	for field, msg := range e.Fields {
		switch field {
		case "name", "url":
			flagged.Add(strings.ToUpper(field), msg)
		default:
			flagged.Add("--"+field, msg)
		}
	}
	return flagged.Describe(" ")
}

func (p *Program) listSources(ctx context.Context, st catalog.SourceStore) error {
	list, err := st.ListSources(ctx)
	if err != nil {
		return fmt.Errorf("source list: %w", err)
	}
	tw := tabwriter.NewWriter(p.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tURL\tEVERY\tHOURS\tMATCH\tINTERVAL\tGONE\tLAST RUN\tPAGES\tREAD\tWRITTEN\tUNCHANGED\tREJECTED\tUNBOUND\tERROR")
	for _, s := range list {
		every, last := "-", "never"
		if s.Every > 0 {
			every = s.Every.String()
		}
		r := s.LastRun
		if !r.Started.IsZero() {
			last = r.Started.Format(time.RFC3339)
		}
		match := s.Match.String()
		if s.Preferred {
			match += " (preferred)"
		}
		gone := s.Gone
		if gone == "" {
			gone = catalog.GoneKeep
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\t%s\t%s\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%s\n", s.Name, flatten(catalog.RedactURL(s.URL)), every, s.Hours, match, intervalText(s.Interval), gone, last,
			r.Pages, r.Read, r.Written, r.Unchanged, r.Rejected, r.Unbound, flatten(r.Err))
	}
	return tw.Flush()
}

// collectCmd runs `catalog collect NAME|URL [--hours N] [--pages N]`:
// one run now, with progress and the import's report of rejected
// records; exit status 1 when any record was rejected or the run
// stopped on an error.
func (p *Program) collectCmd(ctx context.Context, args []string) error {
	var db dbConfig
	var pf progressFlags
	var hours, pages int
	var purgeURL string
	var allowPrivate bool
	var deadline, interval time.Duration
	f := newFlags("collect", "NAME|URL",
		"Collects movies now from a source added with \"catalog source add\", or from a provide/vod\n"+
			"address (remembered under its host:port). Rejected records are reported; the exit status\n"+
			"is 1 when any record was rejected or the run stopped on an error.")
	f.dbFlags(&db)
	f.intVar(&hours, "hours", "", -1, "read only what changed in the last N hours (h=N; default: the source's hours once it has run whole, else everything)")
	f.intVar(&pages, "pages", "", 0, "read at most N pages (0: every page)")
	f.progressFlags(&pf)
	f.purgeFlag(&purgeURL)
	f.fetchFlag(&allowPrivate)
	f.deadlineFlag(&deadline)
	f.intervalFlag(&interval)
	positional, err := f.parse(args, p)
	if err != nil {
		return err
	}
	if len(positional) != 1 {
		return usagef("collect: give one source NAME or provide/vod URL")
	}
	if hours > catalog.MaxSourceHours || hours < -1 {
		return usagef("collect: --hours must be between 0 and %d, got %d", catalog.MaxSourceHours, hours)
	}
	if pages < 0 {
		return usagef("collect: --pages must be 0 (every page) or more, got %d", pages)
	}
	if deadline <= 0 {
		return usagef("collect: --collect-deadline must be positive, got %s", deadline)
	}
	if interval < 0 {
		return usagef("collect: --collect-interval must be 0 or more, got %s", interval)
	}
	st, closeStore, err := p.openAnnouncing(ctx, "collect", purgeURL, db)
	if err != nil {
		return err
	}
	defer closeStore()
	opts, err := runOptions(ctx, st, positional[0], hours)
	if err != nil {
		return err
	}
	opts.Pages = pages
	opts.Fetch.AllowPrivate = allowPrivate
	if opts.Interval == 0 { // the source has no interval of its own
		opts.Interval = interval
	}
	opts.Version = p.versionString()
	ctx, cancel := context.WithTimeoutCause(ctx, deadline, fmt.Errorf("the run passed its deadline of %s (--collect-deadline)", deadline))
	defer cancel()
	return p.runCollect(ctx, st, opts, p.progress(pf))
}

// runOptions finds what to collect: a named source, else an address.
func runOptions(ctx context.Context, st catalog.SourceStore, arg string, hours int) (collect.Options, error) {
	src, err := st.SourceByName(ctx, arg)
	switch {
	case err == nil:
		if hours < 0 {
			hours = src.RunHours()
		}
		return collect.Options{Source: src.Name, URL: src.URL, Hours: hours, Interval: src.Interval, Synonyms: src.Synonyms, Gone: src.Gone}, nil
	case catalog.ErrorCode(err) != catalog.ENOTFOUND:
		return collect.Options{}, fmt.Errorf("collect: %w", err)
	}
	u, perr := url.Parse(arg)
	if perr != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return collect.Options{}, usagef("collect: %q is neither a source (catalog source list shows them) nor an http(s) provide/vod address", arg)
	}
	if msg := catalog.CheckSourceName(u.Host); msg != "" {
		return collect.Options{}, usagef("collect: the address's host %q cannot name a source: %s", u.Host, msg)
	}
	return collect.Options{Source: u.Host, URL: arg, Hours: max(hours, 0)}, nil
}

// runCollect runs one collection with a progress report and prints its
// report: every rejected record on stderr, then the summary.
func (p *Program) runCollect(ctx context.Context, st collect.Store, opts collect.Options, pc progress.Config) error {
	var rep *progress.Reporter
	started, shown := false, 0
	opts.Progress = func(pr collect.Progress) {
		if !started {
			// The source tells its total on the first page.
			rep, started = pc.Records("collect "+opts.Source, int64(pr.Total)), true
		}
		rep.Add(int64(pr.Read - shown))
		shown = pr.Read
	}
	run, sum, err := collect.Run(ctx, st, opts)
	rep.Close()
	for _, rej := range sum.Rejects {
		fmt.Fprintf(p.Stderr, "%s: record %d: %s\n", opts.Source, rej.Line, flatten(rej.Message))
	}
	if more := sum.Rejected - len(sum.Rejects); more > 0 {
		fmt.Fprintf(p.Stderr, "%s: ... and %d more rejected records\n", opts.Source, more)
	}
	for _, n := range sum.Notes {
		fmt.Fprintf(p.Stderr, "%s: record %d written with a change: %s\n", opts.Source, n.Line, flatten(n.Message))
	}
	if more := sum.Noted - len(sum.Notes); more > 0 {
		fmt.Fprintf(p.Stderr, "%s: ... and %d more records written with a change\n", opts.Source, more)
	}
	fmt.Fprintf(p.Stdout, "%s: %d pages, %d read, %d written, %d unchanged, %d rejected, %d unbound\n", opts.Source, run.Pages, run.Read, run.Written, run.Unchanged, run.Rejected, run.Unbound)
	switch {
	case err != nil:
		return fmt.Errorf("collect %s: %s", opts.Source, fetchHint(err))
	case sum.Rejected > 0:
		return &rejectedError{rejected: sum.Rejected}
	}
	return nil
}

// collectLockKey is the advisory lock that keeps instances sharing a
// PostgreSQL database from collecting from one source at the same time;
// each source's key is this one mixed with its name's hash.
const collectLockKey int64 = 0x636f6c6c656374 // "collect"

// sourceLock is the per-source lock of serve's collector: none on
// SQLite, whose database one instance serves.
func sourceLock(st store) func(ctx context.Context, source string) (func(), bool, error) {
	lock := advisoryLock(st)
	if lock == nil {
		return nil
	}
	return func(ctx context.Context, source string) (func(), bool, error) {
		h := fnv.New64a()
		h.Write([]byte(source))
		return lock(ctx, collectLockKey^int64(h.Sum64()))
	}
}

// intervalFlag is --collect-interval: the least time between two page
// requests to a source's host.
func (f *flags) intervalFlag(p *time.Duration) {
	f.durationVar(p, "collect-interval", "CATALOG_COLLECT_INTERVAL", collect.DefaultInterval,
		"least `time` between two page requests to a source's host (0: none); resource sites ban collectors that ask faster")
}

// deadlineFlag is --collect-deadline: how long one run of a source may
// take before it stops at its page.
func (f *flags) deadlineFlag(p *time.Duration) {
	f.durationVar(p, "collect-deadline", "CATALOG_COLLECT_DEADLINE", collect.DefaultRunDeadline,
		"`deadline` of one collection run: past it the run stops, keeping the pages it wrote")
}
