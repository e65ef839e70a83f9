package search

import (
	"context"
	"time"

	"catalog/internal/catalog"
)

// The lists of both services, of the console and of the public pages,
// one read path each: Page with the list's Query, then one keyed read of
// the page's records. version is the kind's data version the request
// read (the response cache keys on it); 0 reads the store's current one.

// Clips is a page of clips, newest first: a search, one platform, the
// value filters or the whole list, at any depth, and the exact total.
func (l *Live) Clips(ctx context.Context, version int64, f catalog.ClipFilter) ([]catalog.Clip, int64, error) {
	q := Query{Terms: f.Terms, Match: f.Match, Offset: f.Paging.Offset(), Limit: f.Paging.Limit}
	if f.Platform != "" {
		q.Group = &f.Platform
	}
	return listPage(ctx, l, version, q, l.src.ClipsByID,
		func(c *catalog.Clip) (int64, string, string, string) { return c.ID, c.Title, "", c.Platform })
}

// Movies is a page of movies, newest first, with the stored columns of
// fields read (catalog.MovieFieldColumns; the name and the id_code too
// when f searches),
// and the exact total. f.IDs and f.ChangedSince (/api/jav's ids and h),
// the value filters and the years filter as well as the terms, in
// f.Sort's order.
func (l *Live) Movies(ctx context.Context, version int64, f catalog.MovieFilter, fields catalog.FieldSet) ([]catalog.Movie, int64, error) {
	if len(f.Terms) > 0 {
		fields |= 1<<catalog.FieldTitle | 1<<catalog.FieldIDCode
	}
	q := Query{Terms: f.Terms, IDs: f.IDs, Since: SinceUnix(f.ChangedSince), Match: f.Match, Sort: f.Sort,
		Years: yearSpan(f.Years), Offset: f.Paging.Offset(), Limit: f.Paging.Limit}
	return listPage(ctx, l, version, q,
		func(ctx context.Context, ids []int64) ([]catalog.Movie, error) {
			movies, err := l.src.MoviesByID(ctx, ids, fields)
			if err != nil || f.Sort == catalog.SortNew {
				return movies, err // the store's order: id, highest first
			}
			return catalog.InOrder(ids, movies, func(m *catalog.Movie) int64 { return m.ID }), nil
		},
		func(m *catalog.Movie) (int64, string, string, string) { return m.ID, m.Name, m.IDCode, "" })
}

// Vods is a page of the MacCMS resource API (contract 6), last change
// first (or first change first), with every filter of f, and the exact
// total.
func (l *Live) Vods(ctx context.Context, version int64, f catalog.VodFilter) ([]catalog.Vod, int64, error) {
	q := Query{Terms: f.Terms, IDs: f.IDs, Type: f.TypeID, Play: f.PlayKind, Since: SinceUnix(f.ChangedSince),
		Match: f.Match, Years: yearSpan(f.Years), Sort: catalog.SortUpdated, Ascending: f.Ascending,
		Offset: f.Paging.Offset(), Limit: f.Paging.Limit}
	if f.By != catalog.SortNew {
		q.Sort, q.Ascending = f.By, false
	}
	return listPage(ctx, l, version, q, l.src.VodsByID,
		func(v *catalog.Vod) (int64, string, string, string) { return v.ID, v.Name, v.IDCode, "" })
}

// yearSpan is Query.Years of y.
func yearSpan(y catalog.YearRange) *[2]int {
	if y.IsZero() {
		return nil
	}
	span := y.Span()
	return &span
}

// listPage is Page at version, or at the store's current version when
// it is 0, with load reading the page's records by key.
func listPage[T any](ctx context.Context, l *Live, version int64, q Query,
	load func(ctx context.Context, ids []int64) ([]T, error), doc func(*T) (int64, string, string, string)) ([]T, int64, error) {
	if version == 0 {
		var err error
		if version, err = l.src.KindVersion(ctx, l.kind); err != nil {
			return nil, 0, err
		}
	}
	return Page(ctx, l, version, q, func(ids []int64) ([]T, error) { return load(ctx, ids) }, doc)
}

// SinceUnix is Query.Since for "changed at or after t": the first whole
// second at or after t (stored times are whole seconds), 0 for the zero
// time.
func SinceUnix(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	s := t.Unix()
	if t.Nanosecond() > 0 {
		s++
	}
	return s
}

// MovieFacet is a page of field's values (Index.Facet) over the movies
// f selects, f's own filter on field left out.
func (l *Live) MovieFacet(ctx context.Context, version int64, field string, f catalog.MovieFilter) (FacetPage, error) {
	q := Query{Terms: f.Terms, IDs: f.IDs, Since: SinceUnix(f.ChangedSince), Match: otherFields(f.Match, field),
		Years: yearSpan(f.Years), Offset: f.Paging.Offset(), Limit: f.Paging.Limit}
	if field == FacetYear {
		q.Years = nil
	}
	return l.facetPage(ctx, version, field, q)
}

// ClipFacet is a page of field's values (Index.Facet) over the clips f
// selects, f's own filter on field left out.
func (l *Live) ClipFacet(ctx context.Context, version int64, field string, f catalog.ClipFilter) (FacetPage, error) {
	q := Query{Terms: f.Terms, Match: otherFields(f.Match, field), Offset: f.Paging.Offset(), Limit: f.Paging.Limit}
	if f.Platform != "" && field != FacetPlatform {
		q.Group = &f.Platform
	}
	return l.facetPage(ctx, version, field, q)
}

func (l *Live) facetPage(ctx context.Context, version int64, field string, q Query) (FacetPage, error) {
	if version == 0 {
		var err error
		if version, err = l.src.KindVersion(ctx, l.kind); err != nil {
			return FacetPage{}, err
		}
	}
	return l.Facet(ctx, version, field, q)
}

// otherFields is match without the filter on field.
func otherFields(match []catalog.FieldValue, field string) []catalog.FieldValue {
	var out []catalog.FieldValue
	for _, m := range match {
		if m.Field.String() != field {
			out = append(out, m)
		}
	}
	return out
}
