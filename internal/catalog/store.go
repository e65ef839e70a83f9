package catalog

import (
	"context"
	"time"
)

// The store interfaces are implemented by internal/sqlite and
// internal/postgres and must behave identically (internal/storetest).

// ClipFilter selects one page of clips, newest (highest id) first.
type ClipFilter struct {
	Terms    []string     // folded (SearchTerms); every one must occur in the title
	Platform string       // "" = any
	Match    []FieldValue // actor, studio: folded values (ParseValueFilters), each must be the clip's
	Paging   Paging
}

// ClipStore keeps clips.
type ClipStore interface {
	// GetClip returns ENOTFOUND when no clip has the id.
	GetClip(ctx context.Context, id int64) (Clip, error)
	// CreateClip assigns c.ID and c.CreatedAt (UTC, whole seconds).
	CreateClip(ctx context.Context, c *Clip) error
	// UpdateClip loads the clip, calls fn on it and saves the result, in
	// one transaction; an error from fn aborts without writing.
	UpdateClip(ctx context.Context, id int64, fn func(*Clip) error) (Clip, error)
	// DeleteClip returns ENOTFOUND when no clip has the id.
	DeleteClip(ctx context.Context, id int64) error
	// ImportClips inserts clips in one transaction; a clip with ID set
	// replaces the clip with that id, a zero CreatedAt means now.
	ImportClips(ctx context.Context, clips []Clip) error
	// CountClips is the exact number of clips.
	CountClips(ctx context.Context) (int64, error)
	// ExportClips streams every clip, lowest id first, from one
	// consistent read, without holding the table in memory. fn must not
	// keep c after it returns.
	ExportClips(ctx context.Context, fn func(c *Clip) error) error
}

// MovieFilter selects one page of movies, highest id first.
type MovieFilter struct {
	Terms        []string     // folded search terms, all must occur in the name
	IDs          []int64      // when non-empty, only these ids
	ChangedSince time.Time    // when non-zero, only movies updated at or after
	Match        []FieldValue // folded values (ParseValueFilters), each must be one of the movie's values of its field
	Years        YearRange    // when set, only movies whose year lies in it
	Sort         Sort         // the order (contract 12)
	Paging       Paging
}

// MovieStore keeps movies.
type MovieStore interface {
	// GetMovie returns ENOTFOUND when no movie has the id.
	GetMovie(ctx context.Context, id int64) (Movie, error)
	// UpsertMovies writes normalised movies in one transaction. The key
	// is ID when non-zero, else IDCode when non-empty, else Slug; the
	// matched (or newly assigned) id is written back to each movie. A
	// movie inserted or changed gets m.UpdatedAt when set, else now; an
	// unchanged one keeps its stored time. A caller that read the movie
	// first clears UpdatedAt, or the change keeps the old time and
	// never reaches h= (contract 6).
	UpsertMovies(ctx context.Context, movies []Movie) error
	// EachMovie streams every movie, highest id first, without holding
	// the catalog in memory. fn must not keep m after it returns.
	EachMovie(ctx context.Context, fn func(m *Movie) error) error
	// ExportMovies is EachMovie lowest id first (export's order).
	ExportMovies(ctx context.Context, fn func(m *Movie) error) error
	// CountMovies is the exact number of movies.
	CountMovies(ctx context.Context) (int64, error)
	// MovieIDByKey returns the movie an UpsertMovies record without an
	// ID would replace: by idCode when not empty, else by slug.
	// ENOTFOUND when there is none.
	MovieIDByKey(ctx context.Context, idCode, slug string) (int64, error)
	// DeleteMovie returns ENOTFOUND when no movie has the id.
	DeleteMovie(ctx context.Context, id int64) error
	// UpdateMovie writes the normalised m over the stored movie m.ID and
	// sets m.UpdatedAt: now when anything changed (the m.UpdatedAt given
	// is ignored), else the stored time; ENOTFOUND when no movie has the
	// id. It never inserts.
	UpdateMovie(ctx context.Context, m *Movie) error
}

// AdminStore keeps administrators, sessions and failed-login counts.
// Everything lives in the database so that several instances share it.
type AdminStore interface {
	// CreateAdmin returns ECONFLICT when the username is taken.
	CreateAdmin(ctx context.Context, a *Admin) error
	// AdminByUsername returns ENOTFOUND when there is none.
	AdminByUsername(ctx context.Context, username string) (Admin, error)
	// ListAdmins returns every administrator (without password
	// hashes), oldest first.
	ListAdmins(ctx context.Context) ([]Admin, error)
	// DeleteAdmin removes the administrator and ends every session of
	// theirs, at once on every instance; ENOTFOUND when there is none.
	DeleteAdmin(ctx context.Context, username string) (revokedTokens int64, err error)
	// SetAdminPassword replaces the administrator's password hash and
	// ends every session of theirs in the same transaction, returning
	// how many it ended; ENOTFOUND when there is none.
	SetAdminPassword(ctx context.Context, username, passwordHash string) (int64, error)
	// SetAdminLanguage saves the console language the administrator
	// chose (a tag of internal/locale, "" for none); sessions read it
	// (Session.Language). ENOTFOUND when there is none.
	SetAdminLanguage(ctx context.Context, adminID int64, language string) error
	CreateSession(ctx context.Context, s Session) error
	// SessionByTokenHash returns ENOTFOUND for unknown tokens; it does
	// not check expiry.
	SessionByTokenHash(ctx context.Context, tokenHash string) (Session, error)
	TouchSession(ctx context.Context, tokenHash string, at time.Time) error
	DeleteSession(ctx context.Context, tokenHash string) error
	// DeleteExpiredSessions removes sessions expired at now.
	DeleteExpiredSessions(ctx context.Context, now time.Time) error
	// ReserveLogin counts a login attempt of username from the client
	// address addr at at as failed before its password is checked, in
	// one atomic step with checking the limits (LoginCounts.Check), so
	// that parallel attempts, from any instance sharing the database,
	// get no more password checks than the limits allow. An attempt a
	// limit refuses (ETOOMANY) is not counted. Failures older than
	// LoginWindow before at are deleted. A username over
	// MaxUsernameBytes is EINVALID and nothing is stored.
	ReserveLogin(ctx context.Context, username, addr string, at time.Time) error
	// LoginSucceeded clears the failures of username from addr (its own
	// reservation included) and records addr as an address username
	// logs in from (LoginKnownAddress).
	LoginSucceeded(ctx context.Context, username, addr string, at time.Time) error
	// UnlockLogin deletes every failure of username, from any address,
	// and returns how many there were.
	UnlockLogin(ctx context.Context, username string) (int64, error)
}

// Store is everything one database engine provides.
type Store interface {
	ClipStore
	MovieStore
	VodStore
	AdminStore
	TokenStore
	SourceStore
	LinkStore
	PosterStore
	HitStore
	SearchLog
	// Ping checks that the database answers.
	Ping(ctx context.Context) error
	// DataVersion changes whenever any clip or movie changes, in any
	// process sharing the database; caches key on it.
	DataVersion(ctx context.Context) (int64, error)
	Close() error
}
