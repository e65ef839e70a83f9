package search_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"catalog/internal/catalog"
	"catalog/internal/fold"
	"catalog/internal/postgres"
	"catalog/internal/postgres/pgtest"
	"catalog/internal/search"
	"catalog/internal/search/searchtest"
	"catalog/internal/sqlite"
)

type store interface {
	catalog.Store
	catalog.SearchLog
	Migrate(context.Context) error
}

// engines opens two handles (two instances) on one fresh database of
// each engine; PostgreSQL is skipped without CATALOG_TEST_POSTGRES.
var engines = []struct {
	name string
	dsn  func(t *testing.T) string
	open func(ctx context.Context, dsn string) (store, error)
}{
	{"sqlite", func(t *testing.T) string { return filepath.Join(t.TempDir(), "t.db") },
		func(ctx context.Context, dsn string) (store, error) { return sqlite.Open(ctx, dsn, sqlite.Options{}) }},
	{"postgres", func(t *testing.T) string { return pgtest.EmptyDSN(t) },
		func(ctx context.Context, dsn string) (store, error) {
			return postgres.Open(ctx, dsn, postgres.Options{MaxConns: 4})
		}},
}

func openPair(t *testing.T, dsn string, open func(context.Context, string) (store, error)) (a, b store) {
	ctx := context.Background()
	for _, s := range []*store{&a, &b} {
		var err error
		if *s, err = open(ctx, dsn); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { (*s).Close() })
		if err := (*s).Migrate(ctx); err != nil {
			t.Fatal(err)
		}
	}
	return a, b
}

// pieces make titles and terms that stress folding and literal matching:
// case (É/é, ß/SS, İ), accents and marks (decomposed, Vietnamese, đ),
// widths, Thai with its marks, both kana, traditional and simplified
// Chinese (and so pinyin: 星期 is xingqi, xq), LIKE's wildcards, quotes
// and FTS5 syntax.
var pieces = []string{"a", "b", "ab", "A", "é", "É", "e\u0301", "ก", "ข", "ตอนที่", "ข้าว", "の", "猫", "夕暮れ", "%", "_", `"`, "x", "ß", "SS", "İ", "part", "Part", "\\", "*", "-", "AND", "1",
	"ế", "Việt", "đ", "Ａ", "１", "カ", "か", "ガ", "愛", "爱", "星期"}

// pinyinWords are query words that no title made of pieces holds, but
// that the pinyin of some (猫 mao, 夕暮 ximu, 星期 xingqi, 爱 ai) does.
var pinyinWords = []string{"mao", "xq", "xingqi", "ximu", "xm", "qim", "maoai", "XingQi"}

func randomText(rng *rand.Rand, n int) string {
	var b strings.Builder
	for range 1 + rng.IntN(n) {
		b.WriteString(pieces[rng.IntN(len(pieces))])
		if rng.IntN(4) == 0 {
			b.WriteByte(' ')
		}
	}
	return strings.TrimSpace(b.String()) + "z"
}

func randomQuery(rng *rand.Rand, titles []string) string {
	var words []string
	for range 1 + rng.IntN(3) {
		switch {
		case rng.IntN(8) == 0:
			words = append(words, pinyinWords[rng.IntN(len(pinyinWords))])
		case rng.IntN(2) == 0 && len(titles) > 0:
			// A piece of a real title: most queries should match.
			rs := []rune(titles[rng.IntN(len(titles))])
			i := rng.IntN(len(rs))
			j := min(len(rs), i+1+rng.IntN(4))
			words = append(words, string(rs[i:j]))
		default:
			words = append(words, pieces[rng.IntN(len(pieces))])
		}
	}
	if rng.IntN(4) == 0 {
		words = append(words, words[0]) // a repeat counts once
	}
	return strings.Join(words, " ")
}

// plainMatch is the search rule of contract 2 written out plainly: every
// term occurs in the folded title or, for a movie, in its folded code;
// with how = "full" or "initials", in the title's pinyin of that kind.
func plainMatch(title, code string, terms []string, how string) bool {
	var texts []string
	switch full, initials := fold.Pinyin(fold.String(title)); how {
	case "full":
		texts = []string{full}
	case "initials":
		texts = []string{initials}
	default:
		texts = []string{fold.String(title), fold.String(code)}
	}
	for _, term := range terms {
		if !slices.ContainsFunc(texts, func(s string) bool { return s != "" && strings.Contains(s, term) }) {
			return false
		}
	}
	return true
}

// reference is the page and the total of the records of kind in the
// database that match terms (plainMatch; and, for clips, of platform
// when it is not ""), newest first or last change first: computed from
// every stored record, never from the index. Latin-letter terms that
// match nothing are matched as full pinyin, then as initials.
func reference(t *testing.T, s store, kind catalog.SearchKind, terms []string, platform string, byChange bool, p catalog.Paging) ([]int64, int64) {
	t.Helper()
	type rec struct{ id, changed int64 }
	var hits []rec
	latin := len(terms) > 0 && !slices.ContainsFunc(terms, func(t string) bool { return !fold.LatinWord(t) })
	for _, how := range []string{"", "full", "initials"} {
		if len(hits) > 0 || how != "" && !latin {
			break
		}
		var err error
		if kind == catalog.SearchClips {
			err = s.ExportClips(context.Background(), func(c *catalog.Clip) error {
				if (platform == "" || c.Platform == platform) && plainMatch(c.Title, "", terms, how) {
					hits = append(hits, rec{id: c.ID})
				}
				return nil
			})
		} else {
			err = s.ExportMovies(context.Background(), func(m *catalog.Movie) error {
				if plainMatch(m.Name, m.IDCode, terms, how) {
					hits = append(hits, rec{id: m.ID, changed: m.UpdatedAt.Unix()})
				}
				return nil
			})
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	slices.SortFunc(hits, func(a, b rec) int {
		if byChange && a.changed != b.changed {
			return int(b.changed - a.changed)
		}
		return int(b.id - a.id)
	})
	ids := []int64{}
	for i := p.Offset(); i < min(p.Offset()+p.Limit, int64(len(hits))); i++ {
		ids = append(ids, hits[i].id)
	}
	return ids, int64(len(hits))
}

// TestIndexAgreesWithDatabase is the differential test: on random
// catalogs, random queries give the same ids and totals from the index
// (on one instance) as the reference computed from every record in the
// database, after random inserts, edits and deletes made through
// another instance; movies also in the resource API's change order.
func TestIndexAgreesWithDatabase(t *testing.T) {
	for _, e := range engines {
		t.Run(e.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			a, b := openPair(t, e.dsn(t), e.open)
			rng := rand.New(rand.NewPCG(7, 11))
			platforms := []string{"", "JAV", "ทวิต"}
			var titles []string
			newClip := func() catalog.Clip {
				title := randomText(rng, 8)
				titles = append(titles, title)
				return catalog.Clip{Title: title, IframeURL: "https://www.youtube.com/embed/dQw4w9WgXcQ", Platform: platforms[rng.IntN(3)]}
			}
			movieN := 0
			newMovie := func() catalog.Movie {
				movieN++
				name := randomText(rng, 8)
				titles = append(titles, name)
				code := fmt.Sprintf("M-%d", movieN)
				if rng.IntN(4) == 0 {
					code = fmt.Sprintf("ＡＢ－%d", movieN) // full-width
				}
				titles = append(titles, code)
				return catalog.Movie{Name: name, Slug: fmt.Sprintf("m-%d", movieN), IDCode: code}
			}
			var clips []catalog.Clip
			for range 150 {
				clips = append(clips, newClip())
			}
			if err := b.ImportClips(ctx, clips); err != nil {
				t.Fatal(err)
			}
			var movies []catalog.Movie
			for range 150 {
				movies = append(movies, newMovie())
			}
			if err := b.UpsertMovies(ctx, movies); err != nil {
				t.Fatal(err)
			}

			clipIx := search.NewLive(a, catalog.SearchClips, nil)
			movieIx := search.NewLive(a, catalog.SearchMovies, nil)
			clipIx.Start(ctx)
			movieIx.Start(ctx)
			searchtest.WaitReady(t, clipIx)
			searchtest.WaitReady(t, movieIx)

			pinyinHits := 0 // queries the pinyin fallback answered
			check := func(round int) {
				t.Helper()
				for range 40 {
					q := randomQuery(rng, titles)
					terms := catalog.SearchTerms(q)
					paging := catalog.Paging{Page: 1 + int64(rng.IntN(3)), Limit: 1 + int64(rng.IntN(10))}
					if rng.IntN(5) == 0 {
						// No terms: a page of the whole list, anywhere in it.
						terms = nil
						paging.Page = 1 + int64(rng.IntN(40))
					}
					var group *string
					platform := ""
					if rng.IntN(3) == 0 {
						platform = platforms[1+rng.IntN(2)]
						group = &platform
					}
					v, err := a.KindVersion(ctx, catalog.SearchClips)
					if err != nil {
						t.Fatal(err)
					}
					got, err := clipIx.Find(ctx, v, search.Query{Terms: terms, Group: group, Offset: paging.Offset(), Limit: paging.Limit})
					if err != nil {
						t.Fatalf("clip search %q: %v", q, err)
					}
					want, total := reference(t, a, catalog.SearchClips, terms, platform, false, paging)
					if got.Total != total || !slices.Equal(got.IDs, want) {
						t.Fatalf("round %d: clips q=%q platform %q %+v: index %d %v, database %d %v", round, q, platform, paging, got.Total, got.IDs, total, want)
					}

					v, err = a.KindVersion(ctx, catalog.SearchMovies)
					if err != nil {
						t.Fatal(err)
					}
					byChange := rng.IntN(2) == 0 // the resource API's order (wd)
					got, err = movieIx.Find(ctx, v, search.Query{Terms: terms, Sort: map[bool]catalog.Sort{true: catalog.SortUpdated}[byChange], Offset: paging.Offset(), Limit: paging.Limit})
					if err != nil {
						t.Fatalf("movie search %q: %v", q, err)
					}
					want, total = reference(t, a, catalog.SearchMovies, terms, "", byChange, paging)
					if got.Total != total || !slices.Equal(got.IDs, want) {
						t.Fatalf("round %d: movies q=%q by change %v %+v: index %d %v, database %d %v", round, q, byChange, paging, got.Total, got.IDs, total, want)
					}
					if got.Total > 0 && !slices.Equal(got.Terms, terms) {
						pinyinHits++
					}
				}
			}
			for round := range 8 {
				check(round)
				// Writes through the other instance.
				for range 10 {
					switch rng.IntN(5) {
					case 0:
						c := newClip()
						if err := b.CreateClip(ctx, &c); err != nil {
							t.Fatal(err)
						}
					case 1:
						id := int64(1 + rng.IntN(150+10*round))
						title := randomText(rng, 8)
						titles = append(titles, title)
						_, err := b.UpdateClip(ctx, id, func(c *catalog.Clip) error {
							c.Title = title
							c.Platform = platforms[rng.IntN(3)]
							return nil
						})
						if err != nil && catalog.ErrorCode(err) != catalog.ENOTFOUND {
							t.Fatal(err)
						}
					case 2:
						err := b.DeleteClip(ctx, int64(1+rng.IntN(150+10*round)))
						if err != nil && catalog.ErrorCode(err) != catalog.ENOTFOUND {
							t.Fatal(err)
						}
					case 3:
						m := newMovie()
						if err := b.UpsertMovies(ctx, []catalog.Movie{m}); err != nil {
							t.Fatal(err)
						}
					case 4:
						// Rename an existing movie by its id.
						m := newMovie()
						m.ID = int64(1 + rng.IntN(150))
						if err := b.UpsertMovies(ctx, []catalog.Movie{m}); err != nil {
							t.Fatal(err)
						}
					}
				}
			}
			check(8)
			if pinyinHits == 0 {
				t.Errorf("no query was answered by the pinyin fallback: the test does not cover it")
			}
		})
	}
}

// TestKindVersionsAndLog checks the per-kind data versions (a clip write
// leaves the movie version alone, and the reverse) and the log's gap
// rule: changes pruned away make SearchChanges report a gap, and a Live
// index that far behind rebuilds and answers right.
func TestKindVersionsAndLog(t *testing.T) {
	for _, e := range engines {
		t.Run(e.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			a, b := openPair(t, e.dsn(t), e.open)
			version := func(k catalog.SearchKind) int64 {
				v, err := a.KindVersion(ctx, k)
				if err != nil {
					t.Fatal(err)
				}
				return v
			}
			c0, m0 := version(catalog.SearchClips), version(catalog.SearchMovies)
			c := catalog.Clip{Title: "Golden part", IframeURL: "https://www.youtube.com/embed/dQw4w9WgXcQ"}
			if err := b.CreateClip(ctx, &c); err != nil {
				t.Fatal(err)
			}
			c1, m1 := version(catalog.SearchClips), version(catalog.SearchMovies)
			if c1 <= c0 || m1 != m0 {
				t.Fatalf("after a clip write: clip version %d -> %d, movie version %d -> %d", c0, c1, m0, m1)
			}
			if err := b.UpsertMovies(ctx, []catalog.Movie{{Name: "Golden movie", Slug: "g"}}); err != nil {
				t.Fatal(err)
			}
			c2, m2 := version(catalog.SearchClips), version(catalog.SearchMovies)
			if c2 != c1 || m2 <= m1 {
				t.Fatalf("after a movie write: clip version %d -> %d, movie version %d -> %d", c1, c2, m1, m2)
			}

			u, err := a.SearchChanges(ctx, catalog.SearchClips, c0, 100)
			if err != nil || u.Version != c1 || len(u.Docs) != 1 || u.Docs[0].ID != c.ID || u.Docs[0].Fold != "golden part" || len(u.Gone) != 0 {
				t.Fatalf("SearchChanges after %d: %+v %v", c0, u, err)
			}
			live := search.NewLive(a, catalog.SearchClips, nil)
			live.Start(ctx)
			searchtest.WaitReady(t, live)
			if err := b.DeleteClip(ctx, c.ID); err != nil {
				t.Fatal(err)
			}
			if err := a.PruneSearchLog(ctx, catalog.SearchClips, version(catalog.SearchClips)); err != nil {
				t.Fatal(err)
			}
			if _, err := a.SearchChanges(ctx, catalog.SearchClips, c1, 100); err != catalog.ErrSearchLogGap {
				t.Fatalf("SearchChanges after pruning: %v, want ErrSearchLogGap", err)
			}
			// The index, behind the pruned rows, rebuilds; meanwhile a
			// search waits for it (search.ReadyWait), then is told to
			// retry.
			for deadline := time.Now().Add(10 * time.Second); ; {
				r, err := live.Find(ctx, version(catalog.SearchClips), search.Query{Terms: []string{"golden"}, Limit: 20})
				if err == nil {
					if r.Total != 0 {
						t.Fatalf("deleted clip still found: %+v", r)
					}
					break
				}
				if err != search.ErrBuilding {
					t.Fatal(err)
				}
				if time.Now().After(deadline) {
					t.Fatal("index did not rebuild")
				}
			}
		})
	}
}

// TestPageCatchesUpWithMovingRows checks that a page whose records
// changed after the index answered (here: a title edited by another
// instance after the version was read) is searched again at the newer
// version instead of served with a record that no longer matches.
func TestPageCatchesUpWithMovingRows(t *testing.T) {
	for _, e := range engines {
		t.Run(e.name, func(t *testing.T) {
			ctx := t.Context()
			a, b := openPair(t, e.dsn(t), e.open)
			c := catalog.Clip{Title: "Alpha one", IframeURL: "https://www.youtube.com/embed/dQw4w9WgXcQ", Platform: "JAV"}
			if err := b.CreateClip(ctx, &c); err != nil {
				t.Fatal(err)
			}
			live := search.NewLive(a, catalog.SearchClips, nil)
			live.Start(ctx)
			searchtest.WaitReady(t, live)
			v, err := a.KindVersion(ctx, catalog.SearchClips)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := b.UpdateClip(ctx, c.ID, func(c *catalog.Clip) error { c.Title = "Beta"; return nil }); err != nil {
				t.Fatal(err)
			}
			group := "JAV"
			page, total, err := search.Page(ctx, live, v, search.Query{Terms: []string{"alpha"}, Group: &group, Limit: 20},
				func(ids []int64) ([]catalog.Clip, error) { return a.ClipsByID(ctx, ids) },
				func(c *catalog.Clip) (int64, string, string, string) { return c.ID, c.Title, "", c.Platform })
			if err != nil || total != 0 || len(page) != 0 {
				t.Fatalf("after the edit: page %v total %d err %v, want nothing found", page, total, err)
			}
		})
	}
}

// Hit batches written by another instance (a second handle on the same
// database) reach this instance's index as counts alone, interleaved
// with a whole change of a counted movie, and sort=hits answers with
// them at the next version.
func TestHitsFromAnotherInstance(t *testing.T) {
	for _, e := range engines {
		t.Run(e.name, func(t *testing.T) {
			ctx := t.Context()
			a, b := openPair(t, e.dsn(t), e.open)
			if err := b.UpsertMovies(ctx, []catalog.Movie{{Name: "One", Slug: "one"}, {Name: "Two", Slug: "two"}, {Name: "Three", Slug: "three"}}); err != nil {
				t.Fatal(err)
			}
			var ids []int64
			if _, err := a.SearchDocs(ctx, catalog.SearchMovies, func(d catalog.SearchDoc) { ids = append(ids, d.ID) }); err != nil || len(ids) != 3 {
				t.Fatalf("movies: %v %v", ids, err)
			}
			live := search.NewLive(a, catalog.SearchMovies, nil)
			live.Start(ctx)
			searchtest.WaitReady(t, live)
			today := catalog.HitDayOf(time.Now())
			order := func(what string, want ...int64) {
				t.Helper()
				v, err := b.KindVersion(ctx, catalog.SearchMovies)
				if err != nil {
					t.Fatal(err)
				}
				r, err := live.Find(ctx, v, search.Query{Sort: catalog.SortHitsDay, Today: today, Limit: 10})
				if err != nil || !slices.Equal(r.IDs, want) {
					t.Fatalf("%s: sort=hits_day %v %v, want %v", what, r.IDs, err, want)
				}
			}
			order("no hits", ids[2], ids[1], ids[0])
			if err := b.AddHits(ctx, today, []catalog.HitCount{{ID: ids[0], N: 2}, {ID: ids[1], N: 5}}); err != nil {
				t.Fatal(err)
			}
			order("a batch", ids[1], ids[0], ids[2])
			m, err := b.GetMovie(ctx, ids[1])
			if err != nil {
				t.Fatal(err)
			}
			m.Name, m.UpdatedAt = "Two, edited", time.Time{}
			if err := b.UpdateMovie(ctx, &m); err != nil {
				t.Fatal(err)
			}
			if err := b.AddHits(ctx, today, []catalog.HitCount{{ID: ids[0], N: 4}, {ID: ids[2], N: 1}}); err != nil {
				t.Fatal(err)
			}
			order("an edit between batches", ids[0], ids[1], ids[2])
			if r, err := live.Find(ctx, 0, search.Query{Terms: []string{"edited"}, Limit: 10}); err != nil || !slices.Equal(r.IDs, []int64{ids[1]}) {
				t.Fatalf("the edit: %v %v, want [%d]", r.IDs, err, ids[1])
			}
		})
	}
}
