// Package catalog is the domain of the catalog program: one Go binary
// that serves a clip catalog and a movie catalog, each on its own
// listener, from one SQLite file or PostgreSQL database. The API both
// services implement is docs/CONTRACT.md; "contract N.M" in a comment
// anywhere in the tree means section N.M of that document.
//
// This package holds what the contract says about the records, whatever
// carries them: the Clip and Movie types and their validation and
// normalisation (clip.go, movie.go, platform.go, cover.go), search text
// (searchtext.go, search.go), paging (paging.go), the store interfaces the
// engines implement (store.go, keyset.go, searchlog.go) and the one
// error type, Error{Code, Message} (error.go), that the HTTP packages
// map to statuses. It imports nothing of ours; every other package
// depends on it.
//
// # One request, from route to SQL
//
// GET /api/movies?q=tokyo&page=2 on the movie service's address goes:
//
//  1. cmd/catalog/main.go calls cli.Run (internal/cli/cli.go), which
//     dispatches "serve" to Program.serve (internal/cli/serve.go): it
//     opens the store (internal/cli/store.go: sqlite.Open or
//     postgres.Open), listens, builds both services and serves them with
//     httpx.NewServer (internal/httpx/middleware.go).
//  2. The movie service is movieapi.New (internal/movieapi/routes.go):
//     its route table maps "GET /api/movies" to listMovies behind
//     httpx.ReadDeadline (the --read-timeout, internal/httpx/deadline.go)
//     and httpx.Common (logging, recovery, security headers).
//  3. The handler (internal/movieapi/movies.go: serveList) parses the
//     query with ParseFields, ParsePaging and ParseSearch from this
//     package; bad input becomes an *Error with code EINVALID, which
//     writeError (internal/movieapi/errors.go) turns into a 400 through
//     httpx's one status map (internal/httpx/errors.go).
//  4. The answer comes from the response cache (internal/cache, keyed by
//     the normalised query and the movies' data version, in
//     internal/movieapi/reads.go); on a miss, encodeList calls
//     pageOfMovies, which asks the in-process search index first
//     (internal/search, via internal/movieapi/search.go) and, when it is
//     not ready, MovieStore.ListMovies (store.go).
//  5. ListMovies is SQL written by hand per engine:
//     internal/sqlite/movies.go (the folded-title search built by
//     newSearch in internal/sqlite/clips.go, a count, then a LIMIT/OFFSET
//     page) or internal/postgres/movies.go (the same through
//     countAndPage in internal/postgres/query.go). Both are held to the
//     same behaviour by internal/storetest.
//  6. Back in movieapi, each Movie encodes itself (Movie.AppendJSON in
//     movie.go) into the list envelope of contract 4.2, and
//     httpx.WritePayload (internal/httpx/payload.go) sends it with a
//     strong ETag and gzip.
package catalog
