package cli

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"catalog/internal/catalog"
	"catalog/internal/edge"
	"catalog/internal/httpx"
	"catalog/internal/metrics"
	"catalog/internal/postgres"
	"catalog/internal/sqlite"
)

// purgeDrainTimeout bounds how long a command waits at exit for the
// edge purges its writes announced.
const purgeDrainTimeout = 10 * time.Second

// purgeFlag registers --purge-url (contract 1 and 7).
func (f *flags) purgeFlag(p *string) {
	f.stringVar(p, "purge-url", "CATALOG_PURGE_URL", "",
		"edge cache `URL` that committed writes send the surrogate keys they changed to (PURGE request; empty = off)")
}

// openPurger checks --purge-url and starts the sender (nil when off).
// Close it with closePurger.
func openPurger(cmd, raw string, log *slog.Logger, done func([]string, error)) (*edge.Purger, error) {
	if raw == "" {
		return nil, nil
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, usagef("%s: --purge-url must be an http:// or https:// URL, got %q", cmd, catalog.RedactURL(raw))
	}
	return edge.NewPurger(edge.PurgerConfig{URL: raw, Logger: log, Done: done}), nil
}

// closePurger sends what is queued, waiting at most purgeDrainTimeout.
func closePurger(p *edge.Purger) {
	ctx, cancel := context.WithTimeout(context.Background(), purgeDrainTimeout)
	defer cancel()
	p.Close(ctx)
}

// openAnnouncing opens db's store for a command whose writes announce
// what they change to the edge cache at purgeURL ("": none), one purge
// per batch written. closeStore closes the store, then sends what is
// queued.
func (p *Program) openAnnouncing(ctx context.Context, cmd, purgeURL string, db dbConfig) (st catalog.Store, closeStore func(), err error) {
	purger, err := openPurger(cmd, purgeURL, p.logger(p.Stderr), nil)
	if err != nil {
		return nil, nil, err
	}
	opened, err := openStore(ctx, db)
	if err != nil {
		closePurger(purger)
		return nil, nil, err
	}
	return edge.Announcing(opened, purger), func() { opened.Close(); closePurger(purger) }, nil
}

// poolStats reads the connection pools of either engine for metrics.
func poolStats(st store) func() []metrics.Pool {
	switch s := st.(type) {
	case *sqlite.Store:
		return func() []metrics.Pool {
			var out []metrics.Pool
			for name, d := range s.PoolStats() {
				out = append(out, metrics.Pool{Name: name, Max: d.MaxOpenConnections, InUse: d.InUse, Idle: d.Idle,
					Waits: d.WaitCount, WaitDuration: d.WaitDuration})
			}
			return out
		}
	case *postgres.Store:
		return func() []metrics.Pool {
			var out []metrics.Pool
			for name, ps := range map[string]*pgxpool.Stat{"pgx": s.PoolStat(), "stream": s.StreamPoolStat()} {
				out = append(out, metrics.Pool{Name: name, Max: int(ps.MaxConns()), InUse: int(ps.AcquiredConns()), Idle: int(ps.IdleConns()),
					Waits: ps.EmptyAcquireCount(), WaitDuration: ps.EmptyAcquireWaitTime()})
			}
			return out
		}
	}
	return func() []metrics.Pool { return nil }
}

// metricsServer serves /metrics, and nothing else, on its own listener:
// the public addresses never show it. It has the services' timeouts.
func metricsServer(m *metrics.Registry, log *slog.Logger) *http.Server {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", m.Handler())
	// The services' limits: a scraper that stalls or idles cannot hold
	// a connection for ever.
	return httpx.NewServer(mux, log)
}

// loginRoute is the clip service's login form, whose 401 and 429
// answers the metrics count (contract 5 and 7).
const loginRoute = "POST /admin/login"

// server is one listener of serve and what it serves.
type server struct {
	srv *http.Server
	ln  net.Listener
}

// addrString is a for the log: "" for none.
func addrString(a net.Addr) string {
	if a == nil {
		return ""
	}
	return a.String()
}
