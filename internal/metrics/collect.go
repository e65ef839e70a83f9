package metrics

import "catalog/internal/catalog"

// registerCollect registers the collection series (contract 10): runs
// by source and result, records by source and outcome. A source's
// series appear with its first run; sources are few, named by their
// administrators.
func (m *Registry) registerCollect(f factory) {
	m.collectRuns = f.counterVec("catalog_collect_runs_total",
		"Collection runs by source and result (ok, or error: the run stopped early).", "source", "result")
	m.collectRecords = f.counterVec("catalog_collect_records_total",
		"Collected records by source and outcome (read, written, unchanged, rejected, unbound).", "source", "outcome")
}

// Collect adds one finished collection run.
func (m *Registry) Collect(run catalog.SourceRun) {
	if m == nil {
		return
	}
	result := "ok"
	if run.Err != "" {
		result = "error"
	}
	m.collectRuns.WithLabelValues(run.Source, result).Inc()
	m.collectRecords.WithLabelValues(run.Source, "read").Add(float64(run.Read))
	m.collectRecords.WithLabelValues(run.Source, "written").Add(float64(run.Written))
	m.collectRecords.WithLabelValues(run.Source, "unchanged").Add(float64(run.Unchanged))
	m.collectRecords.WithLabelValues(run.Source, "unbound").Add(float64(run.Unbound))
	m.collectRecords.WithLabelValues(run.Source, "rejected").Add(float64(run.Rejected))
}
