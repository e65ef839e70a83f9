package movieapi

import (
	"net/http"

	"catalog/internal/edge"
)

// Surrogate keys (contract 7, internal/edge): every movie-service answer
// carries "movies" (set by Headers); these replace it where an
// answer names more, or something else.

// movieKeys tags a detail with "movies" and "movie-ID".
func movieKeys(h http.Handler) http.Handler { return edge.ItemKeys(edge.Movies, edge.MovieKey, h) }
