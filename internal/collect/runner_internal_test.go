package collect

import (
	"testing"
	"time"

	"catalog/internal/catalog"
)

// A source's own interval (catalog.SourceSettings.Interval) spaces its
// runs' page requests; a source without one takes the instance's.
func TestRunnerIntervalPerSource(t *testing.T) {
	r := NewRunner(RunnerConfig{Interval: 3 * time.Second})
	for _, tc := range []struct{ own, want time.Duration }{
		{0, 3 * time.Second},
		{250 * time.Millisecond, 250 * time.Millisecond},
		{10 * time.Second, 10 * time.Second},
	} {
		src := catalog.Source{Name: "s", URL: "https://s.example/vod", SourceSettings: catalog.SourceSettings{Match: catalog.DefaultMatch, Interval: tc.own}}
		if got := r.options(src); got.Interval != tc.want || got.Hosts != &r.hosts {
			t.Errorf("own interval %s: run interval %s (shared hosts %v), want %s and the runner's hosts", tc.own, got.Interval, got.Hosts == &r.hosts, tc.want)
		}
	}
}
