package movieapi_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"catalog/internal/catalog"
	"catalog/internal/testenv"
)

// bigEpisodes is one server of 5,000 episodes whose JSON form is
// 2,000,000 bytes: a series near the largest a movie may hold.
func bigEpisodes(t testing.TB, id int) []catalog.Server {
	t.Helper()
	s := catalog.Server{Name: "Main"}
	for i := range 5000 {
		e := catalog.Episode{Name: fmt.Sprintf("Ep %04d", i+1), Slug: fmt.Sprintf("ep-%04d", i+1),
			LinkEmbed: fmt.Sprintf("https://player.example/e/%03d/%04d/", id, i),
			LinkM3U8:  fmt.Sprintf("https://cdn.example/hls/%03d/%04d/index.m3u8?", id, i)}
		s.Episodes = append(s.Episodes, e)
	}
	base := len(catalog.EpisodesJSON([]catalog.Server{s}))
	pad := (2_000_000 - base) / 5000
	for i := range s.Episodes {
		s.Episodes[i].LinkEmbed += strings.Repeat("a", pad/2)
		s.Episodes[i].LinkM3U8 += strings.Repeat("b", pad-pad/2)
	}
	if n := len(catalog.EpisodesJSON([]catalog.Server{s})); n < 1_995_000 || n > 2_000_000 {
		t.Fatalf("episodes of %d bytes, want about 2,000,000", n)
	}
	return []catalog.Server{s}
}

// One list answer carries at most 32 MiB: a page of movies whose
// episodes pass that while it is encoded is a 400 naming the page size
// parameter; a smaller page, or the same page without episodes, is
// served. Sixteen movies of 2,000,000 bytes of episodes (32.0 MB) fit
// under 32 MiB (33.5 MB), seventeen (34 MB) do not.
func TestPageSizeCap(t *testing.T) {
	testenv.Long(t) // 40 MB of episodes, parsed for every page
	store := newTestStore(t)
	in := make([]movieInput, 20)
	for i := range in {
		in[i].ID = int64(i + 1)
		in[i].Name = fmt.Sprintf("Series %d", i+1)
		in[i].Episodes = bigEpisodes(t, i)
	}
	addMovies(t, store, in...)
	h := newService(t, store, nil)

	r := get(t, h, "/api/movies?limit=16", http.StatusOK)
	if n := len(listIDs(t, r.body)); n != 16 || len(r.body) < 31_900_000 {
		t.Errorf("limit=16: %d movies in %d bytes, want 16 in 32 MB", n, len(r.body))
	}
	for _, target := range []string{"/api/movies?limit=17", "/api/jav?limit=17"} {
		r = get(t, h, target, http.StatusBadRequest)
		checkError(t, r, http.StatusBadRequest, "limit: this page would be larger than 32 MiB")
	}
	if r := get(t, h, "/api/movies?limit=20&fields=id,title", http.StatusOK); len(listIDs(t, r.body)) != 20 {
		t.Errorf("without episodes: not every movie served")
	}
	// MacCMS full records carry the episodes as play lists (1.8 MB a
	// record here): 17 fit, 20 (36 MB) do not, in either encoding.
	get(t, h, vodPath+"?ac=detail&pagesize=17", http.StatusOK)
	for _, at := range []string{"", "&at=xml"} {
		r := get(t, h, vodPath+"?ac=detail&pagesize=20"+at, http.StatusBadRequest)
		checkError(t, r, http.StatusBadRequest, "pagesize: this page would be larger than 32 MiB")
	}
}
