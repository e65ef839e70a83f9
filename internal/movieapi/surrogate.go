package movieapi

import (
	"net/http"

	"catalog/internal/edge"
)

// Surrogate keys (contract 7, internal/edge): every movie-service answer
// carries "movies" (set by Headers); these replace it where an
// answer names more, or something else.

// movieKeys tags a route with an {id} (the posters) with "movies" and
// "movie-ID"; a detail handler tags its answer itself.
func movieKeys(h http.Handler) http.Handler { return edge.ItemKeys(edge.Movies, edge.MovieKey, h) }
