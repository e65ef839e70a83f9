package cli_test

import (
	"encoding/json"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	dto "github.com/prometheus/client_model/go"
	"go.yaml.in/yaml/v3"

	"catalog/internal/testdb"
)

// The dashboard and alert rules under deploy/ that must agree with what
// serve exports.
var (
	dashboardFile = filepath.Join("..", "..", "deploy", "grafana", "catalog.json")
	alertsFile    = filepath.Join("..", "..", "deploy", "prometheus", "alerts.yml")
)

// TestDeployExpressionsNameExportedMetrics: every PromQL expression of
// the Grafana dashboard and of the alert rules names at least one
// metric, and only metrics that a running serve exports on /metrics.
func TestDeployExpressionsNameExportedMetrics(t *testing.T) {
	t.Parallel()
	exported := exportedMetrics(t)
	exprs := dashboardExprs(t)
	if len(exprs) < 10 {
		t.Fatalf("the dashboard has %d expressions, want its panels' (at least 10)", len(exprs))
	}
	rules := alertExprs(t)
	if len(rules) < 5 {
		t.Fatalf("the alert rules have %d expressions, want at least 5", len(rules))
	}
	for where, expr := range rules {
		exprs[where] = expr
	}
	for where, expr := range exprs {
		names := metricNames(expr)
		if len(names) == 0 {
			t.Errorf("%s: %q names no metric", where, expr)
		}
		for _, n := range names {
			if !exported[n] {
				t.Errorf("%s: metric %s is not exported by serve (expression %q)", where, n, expr)
			}
		}
	}
}

// exportedMetrics runs serve with metrics on, sends a request to each
// service (histograms appear with their first observation) and returns
// the series names of its /metrics: a histogram's _bucket, _sum and
// _count included.
func exportedMetrics(t *testing.T) map[string]bool {
	t.Helper()
	env := map[string]string{"CATALOG_DB": testdb.New(t).DSN()}
	// A source that is due at start and fails at once (nothing listens
	// there): the collection series appear with a source's first run.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	nowhere := "http://" + ln.Addr().String() + "/api.php/provide/vod"
	ln.Close()
	wantExit(t, run(t, env, "", "source", "add", "nowhere", nowhere, "--every", "1h", "--fetch-allow-private"), 0)
	srv := startServe(t, env, append(serveArgs(), "--metrics-addr", "127.0.0.1:0", "--snapshot-every", "90m")...)
	for _, addr := range []string{srv.addrs.Clips.String(), srv.addrs.Movies.String()} {
		getJSON(t, http.DefaultClient, "http://"+addr+"/api/health", nil)
	}
	// The run is counted before its log line is written.
	srv.stderr.waitLog(t, 1, "collect: run")
	families := scrape(t, srv.addrs.Metrics.String())
	if families["catalog_collect_runs_total"] == nil {
		t.Fatal("the due source's collection run is not counted")
	}
	if got := value(families, "catalog_snapshot_interval_seconds", nil); got != 5400 {
		t.Errorf("catalog_snapshot_interval_seconds: got %v, want 5400 (--snapshot-every 90m)", got)
	}
	names := map[string]bool{}
	for name, f := range families {
		names[name] = true
		switch f.GetType() {
		case dto.MetricType_HISTOGRAM:
			names[name+"_bucket"], names[name+"_sum"], names[name+"_count"] = true, true, true
		case dto.MetricType_SUMMARY:
			names[name+"_sum"], names[name+"_count"] = true, true
		}
	}
	return names
}

// dashboardExprs returns the dashboard's panel queries and the metrics
// its template variables read, by where they are.
func dashboardExprs(t *testing.T) map[string]string {
	t.Helper()
	b, err := os.ReadFile(dashboardFile)
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		Panels []struct {
			Title   string
			Targets []struct{ RefID, Expr string }
		}
		Templating struct {
			List []struct {
				Name, Type string
				Definition string
			}
		}
	}
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatalf("%s: %v", dashboardFile, err)
	}
	out := map[string]string{}
	for _, p := range d.Panels {
		for _, tg := range p.Targets {
			out["dashboard panel "+p.Title+" "+tg.RefID] = tg.Expr
		}
	}
	for _, v := range d.Templating.List {
		if v.Type == "query" {
			out["dashboard variable "+v.Name] = v.Definition
		}
	}
	return out
}

// alertExprs returns the expressions of the alert rules, by alert.
func alertExprs(t *testing.T) map[string]string {
	t.Helper()
	b, err := os.ReadFile(alertsFile)
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Groups []struct {
			Rules []struct{ Alert, Record, Expr string }
		}
	}
	if err := yaml.Unmarshal(b, &f); err != nil {
		t.Fatalf("%s: %v", alertsFile, err)
	}
	out := map[string]string{}
	for _, g := range f.Groups {
		for _, r := range g.Rules {
			out["alert "+r.Alert+r.Record] = r.Expr
		}
	}
	return out
}

// Parts of PromQL that are not metric names: strings, label matchers,
// ranges and offsets, label lists of grouping and matching clauses,
// Grafana variables, and the keywords among the bare identifiers.
var (
	promqlSkip = regexp.MustCompile(`"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|\{[^}]*\}|\[[^\]]*\]|` +
		`\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)|\$\w+`)
	promqlIdent    = regexp.MustCompile(`[A-Za-z_:][A-Za-z0-9_:]*(\s*\()?`)
	promqlKeywords = map[string]bool{"and": true, "or": true, "unless": true, "bool": true, "offset": true,
		"group_left": true, "group_right": true, "inf": true, "nan": true}
)

// labelValues is a Grafana variable's query: label_values(METRIC, LABEL).
var labelValues = regexp.MustCompile(`^\s*label_values\(\s*([A-Za-z_:][A-Za-z0-9_:]*)\s*,`)

// metricNames returns the metric names an expression reads: the bare
// identifiers that are neither functions (followed by "("), keywords
// nor parts of numbers, sorted and without repeats.
func metricNames(expr string) []string {
	if m := labelValues.FindStringSubmatch(expr); m != nil {
		return []string{m[1]}
	}
	rest := promqlSkip.ReplaceAllString(expr, " ")
	var names []string
	for _, m := range promqlIdent.FindAllStringSubmatchIndex(rest, -1) {
		word := strings.TrimRight(rest[m[0]:m[1]], " \t\n(")
		isCall := m[2] >= 0
		if isCall || promqlKeywords[strings.ToLower(word)] || (m[0] > 0 && isNumberPart(rest[m[0]-1])) {
			continue
		}
		names = append(names, word)
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// isNumberPart reports whether c continues a number literal (1e3, 0x1f).
func isNumberPart(c byte) bool { return c >= '0' && c <= '9' || c == '.' }

func TestMetricNames(t *testing.T) {
	t.Parallel()
	tests := []struct {
		expr string
		want []string
	}{
		{`sum by (service, route) (rate(a_total{code="5xx",instance=~"$instance"}[$__rate_interval]))`, []string{"a_total"}},
		{"histogram_quantile(0.99, sum by (le) (rate(h_bucket[5m]))) > 1\nand sum(rate(h_count[5m])) > 0.1", []string{"h_bucket", "h_count"}},
		{`x > 2 * y or (z == 0 and on (instance, job) (time() - p) > 2e3 * y)`, []string{"p", "x", "y", "z"}},
		{`sum without (state) (c{state="in_use"}) / m >= 0.9 unless bool d offset 5m`, []string{"c", "d", "m"}},
		{`label_values(a_total, instance)`, []string{"a_total"}},
		{`vector(1) + time()`, nil},
	}
	for _, tt := range tests {
		if got := metricNames(tt.expr); !slices.Equal(got, tt.want) {
			t.Errorf("metricNames(%q): got %q, want %q", tt.expr, got, tt.want)
		}
	}
}
