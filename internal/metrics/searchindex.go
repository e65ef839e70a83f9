package metrics

import (
	"github.com/prometheus/client_golang/prometheus"

	"catalog/internal/search"
)

// SearchIndexes registers the indexes' stats, read at every scrape, by
// service ("clips", "movies"). Nil indexes (an engine without a search
// log) are left out.
func (m *Registry) SearchIndexes(byService map[string]*search.Live) {
	if m == nil {
		return
	}
	c := indexCollector{}
	for service, idx := range byService {
		if idx != nil {
			c[service] = idx
		}
	}
	m.reg.MustRegister(c)
}

var (
	indexReady = prometheus.NewDesc("catalog_search_index_ready",
		"1 when lists and searches are answered from the in-process index, 0 while it builds (lists wait for it, then answer 503).", []string{"service"}, nil)
	indexDocs = prometheus.NewDesc("catalog_search_index_documents",
		"Titles held by the search index.", []string{"service"}, nil)
	indexBytes = prometheus.NewDesc("catalog_search_index_bytes",
		"Bytes of posting lists and stored titles in the search index.", []string{"service"}, nil)
	indexBehind = prometheus.NewDesc("catalog_search_index_lag_changes",
		"Changes the database had, when the index last looked, that the index had not applied yet.", []string{"service"}, nil)
	indexBuilds = prometheus.NewDesc("catalog_search_index_builds_total",
		"Builds of the search index from the whole database since the start (0 when it started from its file and never fell behind the log).", []string{"service"}, nil)
	indexFailures = prometheus.NewDesc("catalog_search_index_failures_total",
		"Faults (recovered panics) in the search index's builds, catch-ups, searches, saves and file loads since the start; each discarded the index, which was rebuilt from the database.", []string{"service"}, nil)
	indexLeftOut = prometheus.NewDesc("catalog_search_index_left_out",
		"Records in no list or search because their id is above 2^32-1 (stored before ids were capped); re-import them under ids in range.", []string{"service"}, nil)
)

type indexCollector map[string]*search.Live

func (c indexCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- indexReady
	ch <- indexDocs
	ch <- indexBytes
	ch <- indexBehind
	ch <- indexBuilds
	ch <- indexLeftOut
	ch <- indexFailures
}

func (c indexCollector) Collect(ch chan<- prometheus.Metric) {
	for service, idx := range c {
		st := idx.Stats()
		ready := 0.0
		if st.Ready {
			ready = 1
		}
		ch <- prometheus.MustNewConstMetric(indexReady, prometheus.GaugeValue, ready, service)
		ch <- prometheus.MustNewConstMetric(indexDocs, prometheus.GaugeValue, float64(st.Documents), service)
		ch <- prometheus.MustNewConstMetric(indexBytes, prometheus.GaugeValue, float64(st.Bytes), service)
		ch <- prometheus.MustNewConstMetric(indexBehind, prometheus.GaugeValue, float64(st.Behind), service)
		ch <- prometheus.MustNewConstMetric(indexBuilds, prometheus.CounterValue, float64(st.Builds), service)
		ch <- prometheus.MustNewConstMetric(indexLeftOut, prometheus.GaugeValue, float64(st.LeftOut), service)
		ch <- prometheus.MustNewConstMetric(indexFailures, prometheus.CounterValue, float64(st.Failures), service)
	}
}
