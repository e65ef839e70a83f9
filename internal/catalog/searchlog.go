package catalog

import (
	"context"
	"errors"
	"log/slog"
	"strconv"
)

// SearchKind names the records an in-process search index covers.
type SearchKind int

const (
	SearchClips  SearchKind = 1
	SearchMovies SearchKind = 2
)

// String names the kind: "clips" or "movies".
func (k SearchKind) String() string {
	switch k {
	case SearchClips:
		return "clips"
	case SearchMovies:
		return "movies"
	}
	return "kind " + strconv.Itoa(int(k))
}

// LogValue logs the kind by its name, never its number.
func (k SearchKind) LogValue() slog.Value { return slog.StringValue(k.String()) }

// SearchDoc is what a search index keeps of a record: the folded title
// (clip title, movie name), the clip's platform (Group; "" for movies),
// and what the movie lists filter and order on besides (zero for
// clips): the last change in unix seconds (UpdatedAt), the type id of
// the first category (contract 6; 0 for none), the stored year and the
// PlayKinds bits; and what lists of both kinds filter, facet and sort
// on (contract 12): the values of the ValueFields, as stored (a clip's
// actor and studio, a movie's lists; SearchValues), and the movie's
// score ("" for none).
type SearchDoc struct {
	ID      int64
	Fold    string
	Group   string
	Changed int64
	Type    int64
	Year    string
	Play    int64
	Values  []FieldValue
	Score   string
	// Hits are a movie's play counts as stored (the sorts by hits,
	// contract 12); a clip has none.
	Hits Hits
}

// SearchValues is SearchDoc.Values of a record whose ValueFields'
// values are given as JSON arrays of strings (List.JSON; a store reads
// a clip's single values as one-item arrays), lists[f-1] being field
// f's; empty items are left out.
func SearchValues(lists *[NumValueFields]string) []FieldValue {
	var out []FieldValue
	for i, l := range lists {
		ListItems(l, func(v string) {
			if v != "" {
				out = append(out, FieldValue{ValueField(i + 1), v})
			}
		})
	}
	return out
}

// SearchUpdate is the changes to one kind of record after a version,
// as one read transaction saw them. An id is in one of Docs, Gone and
// Hits at most.
type SearchUpdate struct {
	// Docs are the records changed otherwise than in their play counts
	// alone, in their current form (counts included).
	Docs []SearchDoc
	// Gone are the ids deleted.
	Gone []int64
	// Hits are the records whose play counts alone changed (hit batches,
	// HitStore.AddHits), with their counts as stored: the log says so,
	// and only the counts are read, so that a batch of thousands of
	// movies costs the index no document. Never more than one a movie,
	// so not bounded by SearchChanges' max.
	Hits []HitsOf
	// Version is the kind's version the transaction saw: every change
	// up to it is listed.
	Version int64
}

// HitsOf is one movie's play counts as stored.
type HitsOf struct {
	ID   int64
	Hits Hits
}

// ErrSearchLogGap is SearchChanges' answer when the changes after the
// given version are no longer all in the log (pruned, a table emptied
// at once, or too many): the caller rebuilds from SearchDocs.
var ErrSearchLogGap = errors.New("search log: changes no longer listed")

// SearchLog is what an instance needs to keep its in-process search
// index (internal/search, the one read model of every list) current with
// writes made by any process sharing the database: triggers list every
// changed id with a per-kind data version in the same transaction as the
// write, and pages of ids become rows by keyed reads. Every Store has
// it (internal/storetest holds both engines to it).
type SearchLog interface {
	// KindVersion is the data version of one kind alone: it changes on
	// every write to that kind's records and on no other.
	KindVersion(ctx context.Context, kind SearchKind) (int64, error)
	// SearchDocs calls fn with every record of kind, in one read
	// transaction, and returns the kind's version that transaction saw.
	SearchDocs(ctx context.Context, kind SearchKind, fn func(SearchDoc)) (int64, error)
	// SearchChanges returns, in one read transaction, the changes to
	// the records of kind after version after. It fails with
	// ErrSearchLogGap when the log no longer lists them all, or the
	// records changed otherwise than in their play counts (Docs and
	// Gone) number more than max.
	SearchChanges(ctx context.Context, kind SearchKind, after int64, max int) (SearchUpdate, error)
	// ClipsByID returns the clips with the given ids, highest id first
	// (ids missing from the store are left out).
	ClipsByID(ctx context.Context, ids []int64) ([]Clip, error)
	// MoviesByID returns the movies with the given ids, highest id
	// first (ids missing from the store are left out), with the stored
	// columns that fields needs filled (MovieFieldColumns) and the
	// others left zero.
	MoviesByID(ctx context.Context, ids []int64, fields FieldSet) ([]Movie, error)
	// VodsByID returns the movies with the given ids with their MacCMS
	// types, in the order of ids (ids missing from the store are left
	// out).
	VodsByID(ctx context.Context, ids []int64) ([]Vod, error)
	// PruneSearchLog forgets the log rows of kind at or below through.
	PruneSearchLog(ctx context.Context, kind SearchKind, through int64) error
	// Identity names the database: the same through every handle and
	// process on it, another for any other database (a file copied aside
	// and started again is the same database until either is written),
	// so that an index kept in a file is never used with a database it
	// was not built from.
	Identity(ctx context.Context) (string, error)
}

// RowStreams bounds the whole-table streams of rows (the search index
// builds, the snapshot, exports) that run at once on one store. They
// hold a connection for as long as they read (seconds at a million
// rows, minutes at ten million), so each engine gives them connections
// of their own, RowStreams (+ 1 on PostgreSQL for the snapshot lock),
// and requests never queue behind them: one index build (they take
// turns) and the snapshot; a third waits. On two cores more would only
// share the same CPU.
const RowStreams = 2
