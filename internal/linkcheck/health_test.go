package linkcheck

import (
	"testing"
	"time"

	"catalog/internal/catalog"
)

// TestApply follows one server through checks: a failure is retried
// before the server is dead, dead since its first failure, served last
// once dead for --dead-after, and alive again at its next good check.
func TestApply(t *testing.T) {
	sc := schedule{interval: 24 * time.Hour, deadAfter: 48 * time.Hour}
	servers := []catalog.Server{{Name: "Main"}, {Name: "Other"}}
	t0 := time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC)
	bad := outcome{result: "status", problem: "answered 404 Not Found"}
	good := outcome{ok: true, result: "ok"}
	steps := []struct {
		at        time.Time
		found     map[string]outcome
		wantState string
		wantLast  bool
		wantDue   time.Time
	}{
		{t0, map[string]outcome{"Main": good}, catalog.LinkOK, false, t0.Add(24*time.Hour - 144*time.Minute)},
		{t0.Add(time.Hour), map[string]outcome{"Main": bad}, catalog.LinkOK, false, t0.Add(time.Hour + RetryAfter)},
		{t0.Add(2 * time.Hour), map[string]outcome{"Main": bad}, catalog.LinkDead, false, t0.Add(2*time.Hour + 24*time.Hour - 144*time.Minute)},
		// Due when it has been dead for 48 h, before the interval's end.
		{t0.Add(30 * time.Hour), map[string]outcome{"Main": bad}, catalog.LinkDead, false, t0.Add(49 * time.Hour)},
		{t0.Add(49 * time.Hour), map[string]outcome{"Main": bad}, catalog.LinkDead, true, t0.Add(49*time.Hour + 24*time.Hour - 144*time.Minute)},
		{t0.Add(50 * time.Hour), map[string]outcome{"Main": good}, catalog.LinkOK, false, t0.Add(50*time.Hour + 24*time.Hour - 144*time.Minute)},
	}
	var health []catalog.ServerHealth
	for i, s := range steps {
		var due time.Time
		health, due = sc.apply(servers, health, s.found, s.at)
		h := catalog.HealthOf(health, "Main")
		if h.State() != s.wantState || h.Last != s.wantLast || !due.Equal(s.wantDue) || h.Next != i+1 {
			t.Errorf("step %d: got %s last=%v due %v next %d, want %s last=%v due %v next %d",
				i, h.State(), h.Last, due, h.Next, s.wantState, s.wantLast, s.wantDue, i+1)
		}
		if o := catalog.HealthOf(health, "Other"); o.State() != catalog.LinkUnchecked {
			t.Errorf("step %d: a server without a check: got %s, want unchecked", i, o.State())
		}
	}
	if h := catalog.HealthOf(health, "Main"); h.FailedSince != 0 || h.Problem != "" {
		t.Errorf("alive again: got %+v, want no failure left", h)
	}
	// A server the movie no longer has is dropped.
	health, _ = sc.apply(servers[1:], health, nil, t0.Add(51*time.Hour))
	if len(health) != 1 || health[0].Server != "Other" {
		t.Errorf("after Main left: got %+v, want Other only", health)
	}
}
