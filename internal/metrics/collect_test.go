package metrics_test

import (
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"catalog/internal/catalog"
	"catalog/internal/metrics"
)

func TestCollectRuns(t *testing.T) {
	t.Parallel()
	m := metrics.New()
	m.Collect(catalog.SourceRun{Source: "alpha", Pages: 3, Read: 60, Written: 50, Unchanged: 8, Rejected: 2})
	m.Collect(catalog.SourceRun{Source: "alpha", Pages: 1, Read: 20, Written: 20, Err: "page 2: answered 502 Bad Gateway"})
	m.Collect(catalog.SourceRun{Source: "beta", Err: "page 1: connection refused"})
	want := `
# HELP catalog_collect_records_total Collected records by source and outcome (read, written, unchanged, rejected, unbound).
# TYPE catalog_collect_records_total counter
catalog_collect_records_total{outcome="read",source="alpha"} 80
catalog_collect_records_total{outcome="rejected",source="alpha"} 2
catalog_collect_records_total{outcome="unbound",source="alpha"} 0
catalog_collect_records_total{outcome="unchanged",source="alpha"} 8
catalog_collect_records_total{outcome="written",source="alpha"} 70
catalog_collect_records_total{outcome="read",source="beta"} 0
catalog_collect_records_total{outcome="rejected",source="beta"} 0
catalog_collect_records_total{outcome="unbound",source="beta"} 0
catalog_collect_records_total{outcome="unchanged",source="beta"} 0
catalog_collect_records_total{outcome="written",source="beta"} 0
# HELP catalog_collect_runs_total Collection runs by source and result (ok, or error: the run stopped early).
# TYPE catalog_collect_runs_total counter
catalog_collect_runs_total{result="error",source="alpha"} 1
catalog_collect_runs_total{result="ok",source="alpha"} 1
catalog_collect_runs_total{result="error",source="beta"} 1
`
	if err := testutil.GatherAndCompare(m.Gatherer(), strings.NewReader(want), "catalog_collect_records_total", "catalog_collect_runs_total"); err != nil {
		t.Error(err)
	}
	var nilRegistry *metrics.Registry
	nilRegistry.Collect(catalog.SourceRun{Source: "x"}) // no panic
}
