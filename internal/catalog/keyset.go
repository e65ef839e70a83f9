package catalog

import "context"

// KeysetStore lets a reader page through the unfiltered lists by id
// instead of skipping rows with OFFSET: a caller remembers where pages
// start (from a full walk of the ids at one data version) and then
// fetches a page with a seek. Both engines implement it
// (internal/storetest checks them); it is separate from Store so that
// the handlers keep working on a store without it, with the same answers
// (TestKeysetFallback in internal/clipapi and internal/movieapi).
type KeysetStore interface {
	// ClipIDs calls fn with the id of every clip on platform ("" = all
	// platforms), highest first, inside one read transaction, and
	// returns the data version that transaction saw.
	ClipIDs(ctx context.Context, platform string, fn func(id int64)) (version int64, err error)
	// ClipsFrom returns up to limit clips on platform ("" = all) with an
	// id at most from, highest first, after passing over skip of them.
	ClipsFrom(ctx context.Context, platform string, from, skip, limit int64) ([]Clip, error)
	// MovieIDs calls fn with every movie id, highest first, inside one
	// read transaction, and returns that transaction's data version.
	MovieIDs(ctx context.Context, fn func(id int64)) (version int64, err error)
	// MoviesFrom returns up to limit movies with an id at most from,
	// highest first, after passing over skip of them. Only the fields
	// in fields need to be filled (UpdatedAt may be zero): when
	// ShortFieldsOnly(fields), a store may skip the long columns.
	MoviesFrom(ctx context.Context, from, skip, limit int64, fields FieldSet) ([]Movie, error)
}

// ShortFieldsOnly reports whether fields needs none of the long columns.
func ShortFieldsOnly(fields FieldSet) bool { return fields&longFields == 0 }
