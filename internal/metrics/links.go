package metrics

import (
	"context"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// registerLinks registers the link prober's series (contract 13):
// checks by result, from a fixed set (linkcheck.Results).
func (m *Registry) registerLinks(f factory, results []string) {
	m.linkChecks = f.counterVec("catalog_link_checks_total",
		"Servers checked by the link prober, by result (ok, status, not_playlist, timeout, refused, error).", "result")
	for _, r := range results {
		m.linkChecks.WithLabelValues(r)
	}
}

// LinkChecked counts one server checked with result (one of the
// prober's fixed results).
func (m *Registry) LinkChecked(result string) {
	if m == nil {
		return
	}
	m.linkChecks.WithLabelValues(result).Inc()
}

// DeadLinks exports the dead servers by source, read with count at
// each scrape (the database knows what every instance found). Sources
// are few and named by administrators; "" is the servers of imports and
// edits.
func (m *Registry) DeadLinks(count func(context.Context) (map[string]int64, error)) {
	if m == nil {
		return
	}
	m.reg.MustRegister(deadLinksCollector{count})
}

var deadLinks = prometheus.NewDesc("catalog_dead_links",
	"Servers the link prober found dead, by source (the collect source the server came from; empty: imported or edited).",
	[]string{"source"}, nil)

type deadLinksCollector struct {
	count func(context.Context) (map[string]int64, error)
}

func (c deadLinksCollector) Describe(ch chan<- *prometheus.Desc) { ch <- deadLinks }

func (c deadLinksCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	counts, err := c.count(ctx)
	if err != nil {
		ch <- prometheus.NewInvalidMetric(deadLinks, err)
		return
	}
	for source, n := range counts {
		ch <- prometheus.MustNewConstMetric(deadLinks, prometheus.GaugeValue, float64(n), source)
	}
}
