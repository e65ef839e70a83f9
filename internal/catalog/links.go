package catalog

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/go-json-experiment/json"
)

// Link health (contract 13): the prober checks each server of each
// movie and records what it found per server; the served episodes carry
// it ("status", "checked_at") and put the servers dead for longer than
// --dead-after after the live ones.

// Server states as served.
const (
	LinkOK        = "ok"
	LinkDead      = "dead"
	LinkUnchecked = "unchecked"
)

// ServerHealth is what the prober last found for one server of a movie,
// stored in the movie's link_health column (its JSON form) and never
// written by an import or an edit.
type ServerHealth struct {
	Server    string `json:"server"`
	Status    string `json:"status,omitempty"`     // LinkOK or LinkDead; "" until a check decided
	CheckedAt int64  `json:"checked_at,omitempty"` // Unix seconds of the last check; 0 = never
	// FailedSince is when the failures in a row began (Unix seconds; 0
	// when the last check passed): the time a dead server is dead since.
	FailedSince int64 `json:"failed_since,omitempty"`
	Fails       int   `json:"fails,omitempty"` // failed checks in a row
	Next        int   `json:"next,omitempty"`  // which episode the next check takes (counts up)
	// Last is set by the prober on a server dead for longer than
	// --dead-after: it is served after the live ones.
	Last bool `json:"last,omitempty"`
	// Problem is the last failure in our own words (fetchguard.Describe),
	// for the console; "" when the last check passed.
	Problem string `json:"problem,omitempty"`
}

// State is the served status of h: "ok", "dead" or "unchecked".
func (h *ServerHealth) State() string {
	if h == nil || h.Status == "" {
		return LinkUnchecked
	}
	return h.Status
}

// HealthOf returns the health of the server named name, or nil.
func HealthOf(health []ServerHealth, name string) *ServerHealth {
	for i := range health {
		if health[i].Server == name {
			return &health[i]
		}
	}
	return nil
}

// HealthJSON is the stored form of health ("" when there is none).
func HealthJSON(health []ServerHealth) string {
	if len(health) == 0 {
		return ""
	}
	b, err := json.Marshal(health)
	if err != nil {
		panic(err) // plain strings and numbers always encode
	}
	return string(b)
}

// ParseHealth reads the stored form of health.
func ParseHealth(text string) ([]ServerHealth, error) {
	if strings.TrimSpace(text) == "" {
		return nil, nil
	}
	var health []ServerHealth
	if err := json.Unmarshal([]byte(text), &health); err != nil {
		return nil, fmt.Errorf("link health: %w", err)
	}
	return health, nil
}

// healthDest is the scan destination of the link_health column.
type healthDest struct{ m *Movie }

// Scan implements sql.Scanner.
func (d healthDest) Scan(src any) error {
	text, err := scannedText(src, "link health")
	if err != nil {
		return err
	}
	h, err := ParseHealth(text)
	d.m.Health = h
	return err
}

// healthColumn is the movies' link_health column: read with the
// episodes, written only by the prober (LinkStore.SaveLinkChecks).
var healthColumn = MovieColumn{Name: "link_health", Dest: func(m *Movie) any { return healthDest{m} }}

// ServedServers returns servers in served order: the servers the prober
// put last (dead for longer than --dead-after) after the others, each
// group in its stored order. It returns servers itself when none is
// last.
func ServedServers(servers []Server, health []ServerHealth) []Server {
	last := 0
	for _, s := range servers {
		if h := HealthOf(health, s.Name); h != nil && h.Last {
			last++
		}
	}
	if last == 0 {
		return servers
	}
	out := make([]Server, 0, len(servers))
	for pass := range 2 {
		for _, s := range servers {
			h := HealthOf(health, s.Name)
			if (h != nil && h.Last) == (pass == 1) {
				out = append(out, s)
			}
		}
	}
	return out
}

// AppendServedEpisodesJSON appends the served form of a movie's
// episodes (contract 13): ServedServers' order, each server with its
// "status" and "checked_at".
func AppendServedEpisodesJSON(b []byte, servers []Server, health []ServerHealth) []byte {
	return appendServers(b, ServedServers(servers, health), health, true)
}

// LinkCheck is one movie the prober checks: its servers and what it
// found last time.
type LinkCheck struct {
	MovieID  int64
	Episodes []Server
	Health   []ServerHealth
}

// LinkResult is what one check of a movie found, to store.
type LinkResult struct {
	MovieID int64
	Health  []ServerHealth
	Due     time.Time // when the movie is checked next
}

// LinkServer is one server of a movie with its health, as the console's
// dead links page lists them.
type LinkServer struct {
	MovieID   int64
	MovieName string
	Health    ServerHealth
}

// SourceOfServer is the collect source a server came from (the part of
// its name before ": ", contract 10), or "" for a server of an import or
// an edit.
func SourceOfServer(name string) string {
	if i := strings.Index(name, ": "); i > 0 {
		return name[:i]
	}
	return ""
}

// LinkStore keeps the prober's queue and findings. The queue holds every
// movie, ordered by when it is due: a new movie, or one whose episodes
// changed, at once; a reported one before all others.
type LinkStore interface {
	// ClaimLinkChecks returns up to limit movies due at now, the
	// reported first, then the longest due, and moves them to now+lease
	// in the queue, so that another instance does not take them while
	// they are checked (and an instance that dies leaves them due again).
	ClaimLinkChecks(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]LinkCheck, error)
	// SaveLinkChecks stores the results in one transaction: each movie's
	// link_health and its next time in the queue. A movie deleted since
	// its claim is skipped.
	SaveLinkChecks(ctx context.Context, results []LinkResult) error
	// ReportLink moves the movie to the front of the queue; ENOTFOUND
	// when no movie has the id.
	ReportLink(ctx context.Context, movieID int64) error
	// DeadLinks returns the dead servers (at most limit), by source
	// then movie.
	DeadLinks(ctx context.Context, limit int) ([]LinkServer, error)
	// DeadLinkCounts is the number of dead servers by source ("" for
	// the servers of imports and edits).
	DeadLinkCounts(ctx context.Context) (map[string]int64, error)
}

// DeadServer is ls with the health of server read from the movie's
// stored link health (what the engines' DeadLinks read).
func DeadServer(ls LinkServer, server, storedHealth string) LinkServer {
	health, _ := ParseHealth(storedHealth) // written by SaveLinkChecks; a damaged one shows the name alone
	if h := HealthOf(health, server); h != nil {
		ls.Health = *h
	} else {
		ls.Health = ServerHealth{Server: server, Status: LinkDead}
	}
	return ls
}
