// Package catalog is the domain of the catalog program: one Go binary
// that serves a clip catalog and a movie catalog, each on its own
// listener, from one SQLite file or PostgreSQL database. The API both
// services implement is docs/CONTRACT.md; "contract N.M" in a comment
// anywhere in the tree means section N.M of that document.
//
// This package holds what the contract says about the records, whatever
// carries them: the Clip and Movie types and their validation and
// normalisation (clip.go, movie.go, platform.go, cover.go), the field
// tables the engines derive their columns from (moviefields.go,
// clipfields.go, column.go), search text (searchtext.go, search.go),
// paging (paging.go), the store interface every engine implements in
// full (store.go, searchlog.go) and the one error type,
// Error{Code, Message} (error.go), that the HTTP packages map to
// statuses. It imports nothing of ours; every other package depends on
// it.
//
// # One request, from route to SQL
//
// Every list has one read path: the in-process index (internal/search)
// gives the page's ids and the exact total, and one keyed read fetches
// those rows. That holds for the JSON APIs, the MacCMS resource API, the
// console and the public pages alike; the database never searches,
// counts or pages a list. The engines write rows, feed the index (every
// record through SearchDocs, then each change through SearchChanges,
// listed by triggers in the search log) and read rows by key.
// GET /api/movies?q=river&fields=id,title on the movie service's
// address goes:
//
//  1. cli.MovieService (internal/cli/services.go) assembled the service:
//     its layers, outermost first (metrics, trusted proxies, logging and
//     recovery, the --read-timeout deadline, headers), around the route
//     table of movieapi (internal/movieapi/routes.go), which routes
//     "GET /api/movies" to the handler API.list makes; serve gave it the store and the
//     index it started (internal/cli/serve.go, search.go).
//  2. that handler (internal/movieapi/movies.go) parses the query with
//     ParseFields, ParsePaging and ParseSearch from this package; bad
//     input is an *Error with code EINVALID, which writeError
//     (internal/movieapi/errors.go) answers 400 through httpx's one status
//     map (internal/httpx/errors.go).
//  3. cache.Reads.Serve (internal/cache/responses.go) reads the movies'
//     data version and answers from the response cache, or calls the
//     handler's encoder (movies.go) on a miss.
//  4. The encoder asks Live.Movies (internal/search/lists.go) for the
//     page. It turns the filter into a Query, and Page
//     (internal/search/live.go) brings the index up to that version from
//     the search log and has it answer the ids of the page and the total
//     (Index.Find, internal/search/query.go). A request that finds the
//     index still building waits at most 0.9 s, then is answered 503
//     (ErrBuilding).
//  5. Page loads the ids with Store.MoviesByID, which reads exactly the
//     columns of fields (MovieFieldColumns, here id and name) by key:
//     internal/sqlite/searchlog.go (on connections of its own that call
//     SQLite's C API, keyed.go) or internal/postgres/searchlog.go,
//     both held to the same behaviour by internal/storetest.
//  6. The encoder writes the list envelope of contract 4.2, each movie
//     encoding itself (Movie.AppendJSON in movie.go), and
//     httpx.WritePayload (internal/httpx/payload.go) sends it with a
//     strong ETag and gzip.
//
// The other lists differ only in step 4's method: Live.Clips (the clip
// API, the console's clips, the public grid: a platform is the index's
// group), Live.Movies (also the console's movies and /api/jav with ids
// and h) and Live.Vods (contract 6: type, year and play group are the
// index's facets, and the last-change order is its change order,
// internal/search/facets.go), whose keyed read is Store.VodsByID.
//
// A detail (GET /api/movies/{id}, /api/jav/{id}, /api/clips/{id}) skips
// step 4: its id goes to the same keyed read (MoviesByID with the
// request's fields, ClipsByID).
package catalog
