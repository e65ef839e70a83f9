package metrics

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Pool is one database connection pool's state at a scrape, in terms
// both engines provide (database/sql DBStats for SQLite, pgxpool.Stat
// for PostgreSQL).
type Pool struct {
	Name         string // fixed by the engine: "reader", "keyed", "writer", "version", "stream", "pgx"
	Max          int    // 0: unbounded
	InUse        int
	Idle         int
	Waits        int64         // acquisitions that had to wait, since start
	WaitDuration time.Duration // total time spent waiting, since start
}

// Pools registers f, called at every scrape, as the source of the
// database pool series.
func (m *Registry) Pools(f func() []Pool) {
	if m == nil {
		return
	}
	m.reg.MustRegister(poolCollector{f})
}

var (
	poolMax = prometheus.NewDesc("catalog_db_pool_max_connections",
		"Most connections the pool opens (0: unbounded).", []string{"pool"}, nil)
	poolConns = prometheus.NewDesc("catalog_db_pool_connections",
		"Open connections by state (in_use, idle).", []string{"pool", "state"}, nil)
	poolWaits = prometheus.NewDesc("catalog_db_pool_waits_total",
		"Connection acquisitions that had to wait for a free connection.", []string{"pool"}, nil)
	poolWaitSeconds = prometheus.NewDesc("catalog_db_pool_wait_seconds_total",
		"Time spent waiting for a free connection.", []string{"pool"}, nil)
)

type poolCollector struct{ f func() []Pool }

func (c poolCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- poolMax
	ch <- poolConns
	ch <- poolWaits
	ch <- poolWaitSeconds
}

func (c poolCollector) Collect(ch chan<- prometheus.Metric) {
	for _, p := range c.f() {
		ch <- prometheus.MustNewConstMetric(poolMax, prometheus.GaugeValue, float64(p.Max), p.Name)
		ch <- prometheus.MustNewConstMetric(poolConns, prometheus.GaugeValue, float64(p.InUse), p.Name, "in_use")
		ch <- prometheus.MustNewConstMetric(poolConns, prometheus.GaugeValue, float64(p.Idle), p.Name, "idle")
		ch <- prometheus.MustNewConstMetric(poolWaits, prometheus.CounterValue, float64(p.Waits), p.Name)
		ch <- prometheus.MustNewConstMetric(poolWaitSeconds, prometheus.CounterValue, p.WaitDuration.Seconds(), p.Name)
	}
}
