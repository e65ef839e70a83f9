package catalog

import (
	"context"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Sources (contract 10): MacCMS provide APIs that movies are collected
// from, and the record of each collection run.

// Source limits.
const (
	// MaxSourceNameBytes keeps a joined server's name, "SOURCE: CODE",
	// inside the 64 characters a server name may have for any short
	// play code.
	MaxSourceNameBytes = 40
	// MinSourceEvery is the shortest interval serve runs a source at.
	MinSourceEvery = time.Minute
	// MaxSourceHours is the largest h a provide API takes (contract 6).
	MaxSourceHours = 8760
	// MaxSourceURLBytes bounds a source's address.
	MaxSourceURLBytes = 2048
)

// Source is a provide/vod address that movies are collected from.
type Source struct {
	Name string
	URL  string
	// Every is how often serve collects from it; 0: only on request.
	Every time.Duration
	// Hours, when set, makes every run after the first read only what
	// changed in the last Hours hours (h=Hours).
	Hours int
	// SourceSettings: how its records merge and how often its pages
	// are asked for; AddSource stores DefaultSourceSettings for a zero
	// Match.
	SourceSettings
	CreatedAt time.Time
	// LastRun is the newest recorded run; zero Started when none.
	LastRun SourceRun
	// LastSuccess is when the newest run that read every page finished;
	// zero when none did. Hours apply only after it: until one run has
	// read everything, every run reads everything.
	LastSuccess time.Time
	// Gone is what a full run does with a record the source no longer
	// lists.
	Gone Gone
	// Synonyms are the operator's rules for auto-binding its types.
	Synonyms []Synonym
}

// RunHours is the h of the next scheduled run: Hours once a run has
// read everything, else 0 (everything).
func (s Source) RunHours() int {
	if s.LastSuccess.IsZero() {
		return 0
	}
	return s.Hours
}

// SourceRun is what one collection run did.
type SourceRun struct {
	Source   string
	Started  time.Time
	Finished time.Time
	Pages    int
	Read     int
	Written  int
	// Unchanged counts the records that were the same as when this
	// source last sent them (CollectedMovie.Hash): not written.
	Unchanged int
	Rejected  int
	// Unbound counts the records of types not bound: kept with the
	// source, not shown.
	Unbound int
	Err     string // why the run stopped; "" when it read every page
}

// Due reports whether serve should collect from s at now.
func (s Source) Due(now time.Time) bool {
	return s.Every > 0 && (s.LastRun.Started.IsZero() || !now.Before(s.LastRun.Started.Add(s.Every)))
}

// NewSource validates a source as an administrator gives it. Every
// problem is a field error.
func NewSource(name, rawURL string, every time.Duration, hours int) (Source, error) {
	fe := FieldErrors{}
	name = strings.TrimSpace(name)
	if msg := CheckSourceName(name); msg != "" {
		fe.Add("name", msg)
	}
	rawURL = strings.TrimSpace(rawURL)
	if msg := checkSourceURL(rawURL); msg != "" {
		fe.Add("url", msg)
	}
	if every != 0 && every < MinSourceEvery {
		fe.Add("every", "must be 0 (only on request) or at least "+MinSourceEvery.String())
	}
	if hours < 0 || hours > MaxSourceHours {
		fe.Add("hours", "must be between 0 (read everything) and "+strconv.Itoa(MaxSourceHours))
	}
	return Source{Name: name, URL: rawURL, Every: every, Hours: hours, SourceSettings: DefaultSourceSettings}, fe.Err()
}

// CheckSourceName returns what is wrong with a source name, "" when
// nothing: 1 to MaxSourceNameBytes letters, digits, '.', '-', '_' or
// ':' (a host:port names a source collected by address).
func CheckSourceName(name string) string {
	if name == "" {
		return "is required"
	}
	if len(name) > MaxSourceNameBytes {
		return "must be at most " + strconv.Itoa(MaxSourceNameBytes) + " bytes"
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte(".-_:", c) >= 0) {
			return "may hold only ASCII letters, digits, '.', '-', '_' and ':'"
		}
	}
	return ""
}

func checkSourceURL(raw string) string {
	if raw == "" {
		return "is required"
	}
	if len(raw) > MaxSourceURLBytes {
		return "must be at most " + strconv.Itoa(MaxSourceURLBytes) + " bytes"
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "must be an http:// or https:// provide/vod address"
	}
	if u.User != nil {
		// A key belongs in the query, which pages and lists show
		// redacted (RedactURL); a user part would be sent to every
		// host the source redirects to.
		return credentialsProblem
	}
	return ""
}

// CollectedMovie is one record of a source's page: the source's vod_id
// and the movie it maps to (normalised).
type CollectedMovie struct {
	VodID int64
	// TypeID is the source's type_id of the record (its binding's key).
	TypeID int64
	Movie  Movie
	// Hash is the content hash of the record as mapped (every field of
	// Movie, episodes included); "" when not known. A record whose Hash
	// equals the one stored the last time its source sent it is not
	// written (contract 10: write only what changed).
	Hash string
	// Unchanged is set by CollectMovies when the record was skipped for
	// its Hash; its Movie.ID is then the movie it became before.
	Unchanged bool
	// Err is set by CollectMovies when the record could not be written;
	// "" when it was.
	Err string
	// Notes are what CollectMovies changed of the record to write it,
	// for the run's report: servers left out to keep a movie within its
	// limits, an id_code or slug another movie holds.
	Notes []string
}

// SourceStore keeps sources, their runs and which movie each collected
// record became.
type SourceStore interface {
	// AddSource stores s and sets CreatedAt; ECONFLICT when the name is
	// taken.
	AddSource(ctx context.Context, s *Source) error
	// ListSources returns every source by name, each with its last run.
	ListSources(ctx context.Context) ([]Source, error)
	// SourceByName returns ENOTFOUND when there is none.
	SourceByName(ctx context.Context, name string) (Source, error)
	// SetSourceSettings changes the settings of the source name;
	// ENOTFOUND when there is none. The caller checks them
	// (SourceSettings.Check).
	SetSourceSettings(ctx context.Context, name string, set SourceSettings) error
	// RemoveSource returns ENOTFOUND when there is none. Its movies and
	// the memory of which record each came from stay, so that adding it
	// again updates them in place.
	RemoveSource(ctx context.Context, name string) error
	// RecordRun stores one run's result; it becomes LastRun of its
	// source when it is the newest.
	RecordRun(ctx context.Context, r SourceRun) error
	// CollectMovies writes one page of source's records in one
	// transaction, each by the identity rule of contract 10
	// (PlanCollect): the movie this source's VodID became before is
	// updated in place; else a movie that did not come from this source
	// (another source's, or an import's) and that the record matches
	// under the source's match fields is joined, taking the record's
	// servers, each named "SOURCE: CODE", and the fields it fills; else
	// a new movie is added. Each record's Movie.ID is set to the movie written.
	// A record whose Hash is not empty and equals the one stored with
	// its link is not written: Unchanged is set, and Movie.ID is its
	// movie's.
	CollectMovies(ctx context.Context, source string, page []CollectedMovie) error
	BindingStore
}
