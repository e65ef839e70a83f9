package cli

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"time"

	"golang.org/x/crypto/bcrypt"

	"catalog/internal/catalog"
	"catalog/internal/collect"
	"catalog/internal/demo"
	"catalog/internal/edge"
	"catalog/internal/fetchguard"
	"catalog/internal/hits"
	"catalog/internal/httpx"
	"catalog/internal/linkcheck"
	"catalog/internal/locale"
	"catalog/internal/logbatch"
	"catalog/internal/metrics"
	"catalog/internal/posters"
	"catalog/internal/search"
	"catalog/internal/snapshot"
)

// ShutdownTimeout bounds how long serve waits for requests in flight.
const ShutdownTimeout = 10 * time.Second

// Demo catalog size: enough to page through, small enough to start at once.
const (
	demoClips  = 300
	demoMovies = 240
)

type serveConfig struct {
	db            dbConfig
	clipsAddr     string
	moviesAddr    string
	platforms     string
	snapshotEvery time.Duration
	snapshotDir   string
	indexDir      string
	cookieSecure  bool
	proxies       string
	readTimeout   time.Duration
	uploadMax     time.Duration
	demo          bool
	metricsAddr   string
	purgeURL      string
	fetchPrivate  bool
	collectLimit  time.Duration
	probe         probeConfig
	collectPause  time.Duration // --collect-interval
	mirrorPosters bool
	publicURL     string
	log           logConfig
	language      string // the pages' default language (internal/locale)
}

// probeConfig are the link prober's flags (contract 13).
type probeConfig struct {
	on        bool
	interval  time.Duration
	rate      int
	deadAfter time.Duration
}

// serve runs both services until ctx is done, in named steps: the
// flags, the listeners, the store, the services, then run and shut down.
func (p *Program) serve(ctx context.Context, args []string) error {
	s, err := p.parseServe(args)
	if err != nil {
		return err
	}
	logs := logbatch.New(p.Stderr, logbatch.FlushEvery)
	defer logs.Close() // runs last: what the shutdown logs reaches stderr
	s.log = p.loggerAs(logs, s.c.log)
	if r := newRedactor(s.c.db.dsn); r.secret() {
		s.log = slog.New(redactHandler{next: s.log.Handler(), r: r})
	}
	defer s.close()

	// Listen first: a taken port is the commonest reason not to start,
	// and it should be reported before any database work.
	if err := s.listen(); err != nil {
		return err
	}
	if err := s.openStore(ctx); err != nil {
		return err
	}
	version := p.versionString()
	snapshots := s.services(ctx, version)
	return p.run(ctx, s, snapshots, logs, version)
}

// serveState is what serve's steps build, in order. close undoes it in
// reverse order, as the defers of one long function would.
type serveState struct {
	c         serveConfig
	platforms *catalog.Platforms
	proxies   []netip.Prefix
	log       *slog.Logger
	getenv    func(string) string

	clipsLn, moviesLn net.Listener
	servers           []server          // clips, movies, then metrics when on
	m                 *metrics.Registry // nil: metrics off
	metricsAddr       net.Addr
	purger            *edge.Purger
	collector         *collect.Runner
	prober            *linkcheck.Prober // nil: --probe-links=false
	mirror            *posters.Mirror   // nil: --mirror-posters off
	hits              *hits.Counter     // the beacons' counts, written in batches
	st                store
	indexes           []*search.Live // written to their files at stop
	demoPassword      string
	// runCtx is the context of the background work (snapshot builds,
	// search indexes); stopRun cancels it.
	runCtx  context.Context
	stopRun context.CancelFunc

	undo []func()
}

// onClose registers f to run at close, before everything registered
// earlier.
func (s *serveState) onClose(f func()) { s.undo = append(s.undo, f) }

func (s *serveState) close() {
	for i := len(s.undo) - 1; i >= 0; i-- {
		s.undo[i]()
	}
}

// parseServe reads and checks serve's flags.
func (p *Program) parseServe(args []string) (*serveState, error) {
	var c serveConfig
	f := newFlags("serve", "", "Runs the clip service and the movie service until interrupted.")
	f.dbFlags(&c.db)
	f.addrFlags(&c.clipsAddr, &c.moviesAddr)
	f.platformsFlag(&c.platforms)
	f.durationVar(&c.snapshotEvery, "snapshot-every", "CATALOG_SNAPSHOT_EVERY", time.Hour, "`interval` between rebuilds of the movie snapshot")
	f.stringVar(&c.snapshotDir, "snapshot-dir", "CATALOG_SNAPSHOT_DIR", "",
		"snapshot folder (default: beside the SQLite file, or the OS temp dir for PostgreSQL)")
	f.stringVar(&c.indexDir, "index-dir", "CATALOG_INDEX_DIR", "",
		"folder of the search index files (default: beside the SQLite file, or the user cache dir for PostgreSQL)")
	f.boolVar(&c.cookieSecure, "cookie-secure", "CATALOG_COOKIE_SECURE", false,
		"mark the session cookie Secure (behind a TLS-terminating proxy)")
	f.stringVar(&c.proxies, "trusted-proxies", "CATALOG_TRUSTED_PROXIES", "",
		"comma-separated addresses or CIDRs of load balancers whose X-Forwarded-For names the client")
	f.durationVar(&c.readTimeout, "read-timeout", "CATALOG_READ_TIMEOUT", httpx.DefaultReadTimeout,
		"`deadline` of every read request: past it the answer is 503 and its database work is cancelled")
	f.durationVar(&c.uploadMax, "upload-max-duration", "CATALOG_UPLOAD_MAX_DURATION", httpx.DefaultUploadMaxDuration,
		"the longest one import upload may take (API and console), besides the minimum rate of 32 KiB in every 30 s")
	f.boolVar(&c.demo, "demo", "CATALOG_DEMO", false,
		"serve a temporary SQLite database filled with sample data and a one-time admin password")
	f.stringVar(&c.metricsAddr, "metrics-addr", "CATALOG_METRICS_ADDR", "",
		"listen address of the Prometheus metrics at /metrics (empty = off)")
	f.purgeFlag(&c.purgeURL)
	f.fetchFlag(&c.fetchPrivate)
	f.stringVar(&c.language, "default-language", "CATALOG_DEFAULT_LANGUAGE", locale.Source,
		"`language` of the HTML pages for a browser that asks for none of them: "+locale.New().Tags())
	f.deadlineFlag(&c.collectLimit)
	f.boolVar(&c.probe.on, "probe-links", "CATALOG_PROBE_LINKS", true,
		"check the movies' play links in the background (false: off)")
	f.durationVar(&c.probe.interval, "probe-interval", "CATALOG_PROBE_INTERVAL", linkcheck.DefaultInterval,
		"each server of each movie is checked at least once per `interval`")
	f.intVar(&c.probe.rate, "probe-rate", "CATALOG_PROBE_RATE", linkcheck.DefaultRate,
		"link checks' requests a second, in all")
	f.boolVar(&c.mirrorPosters, "mirror-posters", "CATALOG_MIRROR_POSTERS", false,
		"keep a resized copy of every poster in the database and serve it (needs --public-url)")
	f.stringVar(&c.publicURL, "public-url", "CATALOG_PUBLIC_URL", "",
		"the movie service's public base `URL` (https://movies.example), for the mirrored posters' addresses")
	f.durationVar(&c.probe.deadAfter, "dead-after", "CATALOG_DEAD_AFTER", linkcheck.DefaultDeadAfter,
		"a server dead this `long` is served after the live ones")
	f.intervalFlag(&c.collectPause)
	var logLevel string
	f.stringVar(&c.log.format, "log-format", "CATALOG_LOG_FORMAT", "auto",
		"log line format: json, text, or auto (text on a terminal, else JSON)")
	f.stringVar(&logLevel, "log-level", "CATALOG_LOG_LEVEL", "info", "least level logged: debug, info, warn or error")
	if _, err := f.parse(args, p); err != nil {
		return nil, err
	}
	if c.demo && f.isSet("db") {
		return nil, usagef("serve: --demo serves a temporary database of its own; drop --db (or CATALOG_DB) or drop --demo")
	}
	c.db.create = true
	if err := c.log.parse(c.log.format, logLevel); err != nil {
		return nil, err
	}
	for _, d := range []struct {
		flag string
		v    time.Duration
	}{{"snapshot-every", c.snapshotEvery}, {"read-timeout", c.readTimeout}, {"collect-deadline", c.collectLimit}, {"upload-max-duration", c.uploadMax}} {
		if d.v <= 0 {
			return nil, usagef("serve: --%s must be positive, got %s", d.flag, d.v)
		}
	}
	if c.collectPause < 0 {
		return nil, usagef("serve: --collect-interval must be 0 or more, got %s", c.collectPause)
	}
	if c.mirrorPosters {
		u, err := url.Parse(c.publicURL)
		if c.publicURL == "" || err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
			return nil, usagef("serve: --mirror-posters needs --public-url, the movie service's public base URL (https://movies.example)")
		}
	}
	if c.probe.interval <= 0 || c.probe.deadAfter <= 0 || c.probe.rate <= 0 {
		return nil, usagef("serve: --probe-interval, --probe-rate and --dead-after must be positive")
	}
	c.db.statementTimeout = statementTimeout(c.readTimeout)
	lang, ok := locale.New().Supported(c.language)
	if !ok {
		return nil, usagef("serve: --default-language must be one of %s, got %q", locale.New().Tags(), c.language)
	}
	c.language = lang
	platforms, err := parsePlatforms("serve", c.platforms)
	if err != nil {
		return nil, err
	}
	proxies, err := httpx.ParseTrustedProxies(c.proxies)
	if err != nil {
		return nil, usagef("serve: --trusted-proxies: %v", err)
	}
	return &serveState{c: c, platforms: platforms, proxies: proxies, getenv: p.Getenv}, nil
}

// listen binds the services' addresses (and the metrics', when on) and
// opens the purger.
func (s *serveState) listen() error {
	var err error
	if s.clipsLn, err = s.listenOn("clips", s.c.clipsAddr); err != nil {
		return err
	}
	if s.moviesLn, err = s.listenOn("movies", s.c.moviesAddr); err != nil {
		return err
	}
	s.servers = []server{{nil, s.clipsLn}, {nil, s.moviesLn}}
	if s.c.metricsAddr != "" {
		ln, err := s.listenOn("metrics", s.c.metricsAddr)
		if err != nil {
			return err
		}
		s.m, s.metricsAddr = metrics.New(), ln.Addr()
		s.servers = append(s.servers, server{metricsServer(s.m, s.log), ln})
	}
	purger, err := openPurger("serve", s.c.purgeURL, s.log, s.m.Purge)
	if err != nil {
		return err
	}
	s.purger = purger
	s.onClose(func() { closePurger(purger) }) // after the servers stopped: the last writes' purges still go out
	return nil
}

// listenOn binds addr for service, closed at close.
func (s *serveState) listenOn(service, addr string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		var op *net.OpError
		if errors.As(err, &op) && op.Err != nil {
			err = op.Err
		}
		return nil, fmt.Errorf("cannot listen on %s (%s service): %s", addr, service, message(err))
	}
	s.onClose(func() { ln.Close() })
	return ln, nil
}

// openStore opens and migrates the database (a temporary one filled
// with sample data for --demo) and makes the snapshot folder.
func (s *serveState) openStore(ctx context.Context) error {
	if s.c.demo {
		dir, err := os.MkdirTemp("", "catalog-demo-")
		if err != nil {
			return fmt.Errorf("demo: %w", err)
		}
		s.onClose(func() { os.RemoveAll(dir) })
		s.c.db = dbConfig{dsn: filepath.Join(dir, "catalog.db"), maxConns: s.c.db.maxConns, statementTimeout: s.c.db.statementTimeout, create: true}
		s.c.snapshotDir = filepath.Join(dir, "snapshots")
	}
	// The database first: a path that cannot be opened must not leave a
	// snapshot folder (or its missing parents) behind.
	st, err := openStore(ctx, s.c.db)
	if err != nil {
		return err
	}
	s.st = st
	s.onClose(func() { st.Close() })
	if s.c.snapshotDir == "" {
		dir, cleanup, err := snapshotDir(s.c.db.dsn)
		if err != nil {
			return fmt.Errorf("snapshot folder: %s", hideDSN(err.Error(), s.c.db.dsn))
		}
		s.onClose(cleanup)
		s.c.snapshotDir = dir
	}
	if err := os.MkdirAll(s.c.snapshotDir, 0o755); err != nil {
		// The folder is named after the SQLite file by default.
		return fmt.Errorf("snapshot folder: %s", hideDSN(err.Error(), s.c.db.dsn))
	}
	if err := s.makeIndexDir(); err != nil {
		return err
	}
	if s.c.demo {
		if s.demoPassword, err = fillDemo(ctx, st, s.platforms); err != nil {
			return fmt.Errorf("demo: %s", message(err))
		}
	}
	return nil
}

// services builds the snapshot service, starts the search indexes
// under s.runCtx and builds both services' servers.
func (s *serveState) services(ctx context.Context, version string) *snapshot.Service {
	m, purger, log := s.m, s.purger, s.log
	m.Pools(poolStats(s.st))
	m.SnapshotEvery(s.c.snapshotEvery)
	writes := edge.Announcing(s.st, purger) // the services' writes announce what they change
	snapshots := snapshot.New(snapshot.Config{Store: s.st, Dir: s.c.snapshotDir, Every: s.c.snapshotEvery, Logger: log,
		Lock: snapshotLock(s.st), Observe: func(b snapshot.Build) {
			m.Snapshot(b)
			if b.Err == nil {
				purger.Announce(edge.Snapshot)
			}
		}})
	s.runCtx, s.stopRun = context.WithCancel(ctx)
	s.onClose(s.stopRun)
	clipSearch, movieSearch := startSearch(s.runCtx, s.st, log, s.c.indexDir)
	s.indexes = []*search.Live{clipSearch, movieSearch}
	m.SearchIndexes(map[string]*search.Live{"clips": clipSearch, "movies": movieSearch})
	// Due sources, at most collect.MaxRunsAtOnce at once, writing
	// through writes (which announce purges).
	s.collector = collect.NewRunner(collect.RunnerConfig{Store: writes, Lock: sourceLock(s.st),
		Logger: log.With("component", "collect"), Observe: m.Collect, Fetch: fetchguard.Options{AllowPrivate: s.c.fetchPrivate},
		RunDeadline: s.c.collectLimit, Interval: s.c.collectPause, Version: version})
	s.prober = newProber(s.c.probe, s.st, m, purger, log, s.c.fetchPrivate)
	if s.c.mirrorPosters {
		s.mirror = posters.New(s.st, posters.Options{PublicURL: s.c.publicURL, Guard: fetchguard.Options{AllowPrivate: s.c.fetchPrivate},
			Logger: log.With("component", "posters"), Changed: func(ids []int64) { announceMovies(purger, ids) }})
	}
	s.hits = hits.New(s.st, hits.Options{Logger: log.With("component", "hits")})
	deps := ServiceDeps{Store: writes, Platforms: s.platforms, Logger: log, Version: version,
		ClipSearch: clipSearch, MovieSearch: movieSearch, Metrics: m, Proxies: s.proxies, ReadTimeout: s.c.readTimeout,
		DefaultLanguage: s.c.language, CookieSecure: s.c.cookieSecure, UploadMaxDuration: s.c.uploadMax, Imported: m.Import,
		Snapshots: snapshots, Collector: s.collector, Recheck: s.prober.Wake, Reported: s.prober.Wake, Hits: s.hits}
	clips := httpx.NewServer(ClipService(deps), log)
	movies := httpx.NewServer(MovieService(deps), log)
	s.servers[0].srv, s.servers[1].srv = clips, movies
	return snapshots
}

// newProber returns the link prober, or nil when c turns it off. What
// it changes on the served episodes is announced to the edge.
func newProber(c probeConfig, st catalog.Store, m *metrics.Registry, purger *edge.Purger, log *slog.Logger, allowPrivate bool) *linkcheck.Prober {
	if !c.on {
		return nil
	}
	m.DeadLinks(st.DeadLinkCounts)
	return linkcheck.New(st, linkcheck.Options{
		Interval: c.interval, DeadAfter: c.deadAfter, Rate: float64(c.rate),
		Guard:  fetchguard.Options{AllowPrivate: allowPrivate},
		Logger: log.With("component", "links"), Checked: m.LinkChecked,
		Changed: func(ids []int64) { announceMovies(purger, ids) },
	})
}

// announceMovies tells the edge that the movies ids (and so the lists)
// are served differently.
func announceMovies(purger *edge.Purger, ids []int64) {
	keys := []string{edge.Movies}
	for _, id := range ids {
		keys = append(keys, edge.MovieKey(id))
	}
	purger.Announce(keys...)
}

// run serves until ctx is done or a server fails, then gives requests in
// flight ShutdownTimeout to finish and stops the background work that
// runs under s.runCtx.
func (p *Program) run(ctx context.Context, s *serveState, snapshots *snapshot.Service, logs *logbatch.Writer, version string) error {
	log := s.log
	var wg sync.WaitGroup
	wg.Go(func() { snapshots.Run(s.runCtx) })
	wg.Go(func() { s.collector.Run(s.runCtx) })
	// Stopped after the servers, so that its last batch holds the hits
	// of the requests that finished at shutdown.
	wg.Go(func() { s.hits.Run(s.runCtx) })
	if s.prober != nil {
		wg.Go(func() { s.prober.Run(s.runCtx) })
	}
	if s.mirror != nil {
		wg.Go(func() { s.mirror.Run(s.runCtx) })
	} else {
		// Without the mirror the original poster URLs are served again.
		if err := s.st.ResetPosterMirrors(ctx, ""); err != nil {
			log.Warn("poster mirror: reset failed", "err", err)
		}
	}
	serveErr := make(chan error, len(s.servers))
	for _, sv := range s.servers {
		wg.Go(func() {
			if err := sv.srv.Serve(sv.ln); !errors.Is(err, http.ErrServerClosed) {
				serveErr <- err
			}
		})
	}
	p.announce(s, logs, version)

	var failed error
	select {
	case <-ctx.Done():
		log.Info("shutting down", "timeout", ShutdownTimeout)
	case err := <-serveErr:
		failed = fmt.Errorf("serve: %w", err)
		log.Error("server failed, shutting down", "err", err)
	}
	// Requests in flight get ShutdownTimeout to finish; the caller's
	// context is already done, so the deadline hangs off a fresh one.
	shutdownCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), ShutdownTimeout)
	defer cancel()
	var sg sync.WaitGroup
	for _, sv := range s.servers {
		srv := sv.srv
		sg.Go(func() {
			if err := srv.Shutdown(shutdownCtx); err != nil {
				log.Warn("requests cut off at shutdown", "err", err)
				srv.Close()
			}
		})
	}
	sg.Wait()
	s.stopRun()
	wg.Wait()
	for _, l := range s.indexes {
		l.Wait() // its file written
	}
	log.Info("stopped")
	return failed
}

// announce tells whoever watches that serve accepts connections: the
// log, a person running --demo, and Program.Listening.
func (p *Program) announce(s *serveState, logs *logbatch.Writer, version string) {
	c := s.c
	s.log.Info("listening", "version", version, "clips_addr", s.clipsLn.Addr().String(), "movies_addr", s.moviesLn.Addr().String(),
		"metrics_addr", addrString(s.metricsAddr), "database", safeDSN(c.db.dsn), "snapshot_dir", hideDSN(c.snapshotDir, c.db.dsn),
		"index_dir", hideDSN(c.indexDir, c.db.dsn))
	logs.Flush() // whoever watches the log for the start sees it at once
	if c.demo {
		fmt.Fprintf(p.Stdout, "Demo catalog: %d clips, %d movies in a temporary database (removed at exit).\n"+
			"  clip service:  http://%s/api/clips   admin: http://%s/admin/login\n"+
			"  movie service: http://%s/api/movies\n"+
			"  admin login:   username admin, password %s  (shown only now)\n",
			demoClips, demoMovies, s.clipsLn.Addr(), s.clipsLn.Addr(), s.moviesLn.Addr(), s.demoPassword)
	}
	if p.Listening != nil {
		p.Listening(Addrs{Clips: s.clipsLn.Addr(), Movies: s.moviesLn.Addr(), Metrics: s.metricsAddr})
	}
}

// statementTimeout is the PostgreSQL statement_timeout of serve's
// connections: a server-side backstop for a statement whose cancellation
// (the request's deadline) was lost on the way. Twice the read timeout,
// and never under 30 s, so that writes are not cut short by a small
// --read-timeout; the snapshot's long stream lifts it for itself.
func statementTimeout(readTimeout time.Duration) time.Duration {
	return max(2*readTimeout, 30*time.Second)
}

// logger writes to w at level info: JSON for machines, text when
// stderr is a terminal, for a person.
func (p *Program) logger(w io.Writer) *slog.Logger {
	return p.loggerAs(w, logConfig{format: "auto", level: slog.LevelInfo})
}

// loggerAs writes to w in c's format from c's level on; every line of a
// request carries its request id (httpx.LogHandler).
func (p *Program) loggerAs(w io.Writer, c logConfig) *slog.Logger {
	opts := httpx.LogOptions(c.level)
	if c.format == "text" || (c.format == "auto" && isTerminal(p.Stderr)) {
		return slog.New(httpx.LogHandler(slog.NewTextHandler(w, opts)))
	}
	return slog.New(httpx.LogHandler(httpx.NewJSONHandler(w, opts)))
}

// fillDemo loads the sample catalog and creates the admin "admin" with
// a random password, which it returns.
func fillDemo(ctx context.Context, st catalog.Store, platforms *catalog.Platforms) (string, error) {
	const every = 45 * time.Minute
	g := demo.NewGenerator(1, platforms, time.Now().Add(-demoClips*every), every, 0)
	if err := demo.SeedClips(ctx, st, g, demoClips); err != nil {
		return "", err
	}
	if err := demo.SeedMovies(ctx, st, g, demoMovies); err != nil {
		return "", err
	}
	raw := make([]byte, 15)
	rand.Read(raw)
	password := base64.RawURLEncoding.EncodeToString(raw) // 20 characters
	if err := createAdmin(ctx, st, "admin", password); err != nil {
		return "", err
	}
	return password, nil
}

// createAdmin stores a new administrator with a bcrypt hash of password.
func createAdmin(ctx context.Context, st catalog.AdminStore, username, password string) error {
	hash, err := bcrypt.GenerateFromPassword([]byte(password), bcrypt.DefaultCost)
	if err != nil {
		return fmt.Errorf("hash password: %w", err)
	}
	a := catalog.Admin{Username: username, PasswordHash: string(hash), CreatedAt: time.Now().UTC().Truncate(time.Second)}
	if err := st.CreateAdmin(ctx, &a); err != nil {
		if catalog.ErrorCode(err) == catalog.ECONFLICT {
			return fmt.Errorf("an administrator named %q already exists", username)
		}
		return fmt.Errorf("create administrator: %s", message(err))
	}
	return nil
}
