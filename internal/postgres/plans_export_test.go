package postgres

import (
	"context"

	"catalog/internal/catalog"
)

// PreparedPlans sums the generic and custom plans the server made for
// the prepared statements whose text contains part, on the connection
// the pool hands out (the only one when MaxConns is 1).
func PreparedPlans(ctx context.Context, s *Store, part string) (generic, custom int64, err error) {
	err = s.pool.QueryRow(ctx, `SELECT coalesce(sum(generic_plans), 0)::bigint, coalesce(sum(custom_plans), 0)::bigint
FROM pg_prepared_statements WHERE strpos(statement, $1) > 0`, part).Scan(&generic, &custom)
	return generic, custom, err
}

// PlanCacheMode is plan_cache_mode on the connection the pool hands out.
func PlanCacheMode(ctx context.Context, s *Store) (mode string, err error) {
	err = s.pool.QueryRow(ctx, `SHOW plan_cache_mode`).Scan(&mode)
	return mode, err
}

// The statements of a search index's catch-up (SearchChanges).
var (
	ChangedWholeSQL = changedWhole
	ChangedHitsSQL  = changedHits
	HitsOfIDsSQL    = hitsOfIDs
	ClipDocsSQL     = searchTables[catalog.SearchClips].docsOfIDs()
	MovieDocsSQL    = searchTables[catalog.SearchMovies].docsOfIDs()
)

// The statements a collection asks before it writes a page.
var (
	LinksSQL     = linksSQL
	TitleKeysSQL = movieIDsBy[catalog.KeyTitle]
)

// ImportTable is the oid of the temporary table name on the connection
// the pool hands out (0 when it has none) and how many rows it holds.
func ImportTable(ctx context.Context, s *Store, name string) (oid uint32, rows int64, err error) {
	err = s.pool.QueryRow(ctx, `SELECT coalesce(to_regclass('pg_temp.' || $1)::oid, 0)`, name).Scan(&oid)
	if err != nil || oid == 0 {
		return oid, 0, err
	}
	err = s.pool.QueryRow(ctx, `SELECT count(*) FROM pg_temp.`+name).Scan(&rows)
	return oid, rows, err
}
