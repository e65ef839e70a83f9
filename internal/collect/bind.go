package collect

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"catalog/internal/catalog"
)

// Category bindings and records gone at the source (contract 10).
//
// A record is published under its type's local category; a record of a
// skipped type is not collected; a record of a type not bound yet is
// kept with its source, not shown, counted unbound. Binding the type
// later publishes what was kept, without fetching it again.

// binder applies a source's bindings to the records of one run.
type binder struct {
	source string
	types  map[int64]catalog.SourceType
	local  []string // the local categories auto-binding matches
	rules  []catalog.Synonym
	// kept: the source has records kept, so a record published may be
	// one of them, to forget.
	kept bool
}

// newBinder reads source's bindings and auto-binds again the types not
// bound by hand that are still unbound (a rule or a local category may
// have come since), publishing what they kept.
func newBinder(ctx context.Context, st Store, source string, rules []catalog.Synonym) (*binder, error) {
	b := &binder{source: source, types: map[int64]catalog.SourceType{}, rules: rules}
	types, err := st.SourceTypes(ctx, source)
	if err != nil {
		return nil, err
	}
	vt, err := st.VodTypes(ctx)
	if err != nil {
		return nil, err
	}
	for _, t := range vt {
		b.local = append(b.local, t.Name)
	}
	for _, t := range types {
		b.types[t.ID] = t
		if t.Category != "" && !slices.Contains(b.local, t.Category) {
			b.local = append(b.local, t.Category)
		}
	}
	ids, err := st.KeptVodIDs(ctx, source)
	if err != nil {
		return nil, err
	}
	b.kept = len(ids) > 0
	for _, t := range types {
		if t.Bound() || t.ByHand {
			continue
		}
		if c := catalog.AutoBind(t.Name, b.local, b.rules); c != "" {
			if _, err := Bind(ctx, st, source, t.ID, c, false, false); err != nil {
				return nil, err
			}
			t.Category = c
			b.types[t.ID] = t
		}
	}
	return b, nil
}

// sort sets the category of the records of bound types and returns
// them, with the records of types not bound (to keep) and how many
// were of skipped types. A type seen for the first time is auto-bound
// and stored.
func (b *binder) sort(ctx context.Context, st Store, records []catalog.CollectedMovie, names map[int64]string) (publish, keep []catalog.CollectedMovie, skipped int, err error) {
	var fresh []catalog.SourceType
	for i := range records {
		r := records[i]
		if r.TypeID == 0 {
			publish = append(publish, r) // no type: as mapped
			continue
		}
		t, ok := b.types[r.TypeID]
		if !ok {
			t = catalog.SourceType{ID: r.TypeID, Name: names[r.TypeID]}
			t.Category = catalog.AutoBind(t.Name, b.local, b.rules)
			if t.Category != "" && !slices.Contains(b.local, t.Category) {
				b.local = append(b.local, t.Category)
			}
			b.types[t.ID] = t
			fresh = append(fresh, t)
		} else if name := names[r.TypeID]; name != "" && name != t.Name {
			t.Name = name // renamed at the source (or bound ahead): the binding stays
			b.types[t.ID] = t
			fresh = append(fresh, t)
		}
		switch {
		case t.Skip:
			skipped++
		case t.Category == "":
			keep = append(keep, r)
		default:
			r.Movie = catalog.WithCategory(r.Movie, t.Category)
			publish = append(publish, r)
		}
	}
	if len(fresh) > 0 {
		if err := st.PutSourceTypes(ctx, b.source, fresh); err != nil {
			return nil, nil, 0, err
		}
	}
	if len(keep) > 0 {
		if err := st.KeepRecords(ctx, b.source, keep, false); err != nil {
			return nil, nil, 0, err
		}
		b.kept = true
	}
	return publish, keep, skipped, nil
}

// forgetKept forgets the kept copies of records just published.
func (b *binder) forgetKept(ctx context.Context, st Store, published []catalog.CollectedMovie) error {
	if !b.kept || len(published) == 0 {
		return nil
	}
	return st.DropKept(ctx, b.source, written(published))
}

// written is the vod_ids of the records of page that were written.
func written(page []catalog.CollectedMovie) []int64 {
	var ids []int64
	for _, r := range page {
		if r.Err == "" {
			ids = append(ids, r.VodID)
		}
	}
	return ids
}

// BindResult is what a binding changed.
type BindResult struct {
	Published int // kept records now shown
	Moved     int // movies moved from the type's former category
}

// publishBatch is how many kept records one write publishes.
const publishBatch = 500

// Bind binds source's type typeID to category, or to skip, and
// publishes the records kept for it (without fetching them again). By
// hand (byHand) it overrides any binding and moves the type's movies
// from the category it was bound to before; auto-binding never
// changes a binding made by hand. Binding to skip leaves the type's
// movies where they are: later runs do not collect its records. A type
// the source has not sent yet may be bound ahead (its name comes with
// its first record).
func Bind(ctx context.Context, st Store, source string, typeID int64, category string, skip, byHand bool) (BindResult, error) {
	var res BindResult
	types, err := st.SourceTypes(ctx, source)
	if err != nil {
		return res, err
	}
	old := catalog.SourceType{ID: typeID}
	if i := slices.IndexFunc(types, func(t catalog.SourceType) bool { return t.ID == typeID }); i >= 0 {
		old = types[i]
	}
	if old.ByHand && !byHand {
		return res, nil
	}
	if !skip {
		if category = catalog.CleanText(category); category == "" {
			return res, catalog.Errorf(catalog.EINVALID, "name a local category, or skip")
		}
	} else {
		category = ""
	}
	t := catalog.SourceType{ID: typeID, Name: old.Name, Category: category, Skip: skip, ByHand: byHand}
	if err := st.PutSourceTypes(ctx, source, []catalog.SourceType{t}); err != nil {
		return res, err
	}
	if skip {
		return res, nil
	}
	if old.Category != "" && old.Category != category {
		if res.Moved, err = moveType(ctx, st, source, typeID, old.Category, category); err != nil {
			return res, err
		}
	}
	kept, err := st.KeptRecords(ctx, source, typeID)
	if err != nil {
		return res, err
	}
	for start := 0; start < len(kept); start += publishBatch {
		page := kept[start:min(start+publishBatch, len(kept))]
		for j := range page {
			page[j].Movie = catalog.WithCategory(page[j].Movie, category)
		}
		if err := st.CollectMovies(ctx, source, page); err != nil {
			return res, fmt.Errorf("publishing the records kept for type %d: %w", typeID, err)
		}
		done := written(page)
		if err := st.DropKept(ctx, source, done); err != nil {
			return res, err
		}
		res.Published += len(done)
	}
	return res, nil
}

// moveType moves the movies source's records of typeID became from the
// category from to to (a joined record's movie is another's: it stays).
func moveType(ctx context.Context, st Store, source string, typeID int64, from, to string) (int, error) {
	recs, err := st.CollectedRecords(ctx, source, typeID)
	if err != nil {
		return 0, err
	}
	moved := 0
	for _, r := range recs {
		if r.Joined {
			continue
		}
		m, err := st.GetMovie(ctx, r.MovieID)
		if catalog.ErrorCode(err) == catalog.ENOTFOUND {
			continue
		} else if err != nil {
			return moved, err
		}
		m = catalog.MovedCategory(m, from, to)
		if err := st.UpdateMovie(ctx, &m); err != nil && catalog.ErrorCode(err) != catalog.ENOTFOUND {
			return moved, err
		}
		moved++
	}
	return moved, nil
}

// ParseBinding reads the target of `source bind`: "skip", or a local
// category.
func ParseBinding(s string) (category string, skip bool) {
	if strings.EqualFold(strings.TrimSpace(s), "skip") {
		return "", true
	}
	return s, false
}

// ParseTypeID reads a remote type_id.
func ParseTypeID(s string) (int64, error) {
	id, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil || id <= 0 {
		return 0, catalog.Errorf(catalog.EINVALID, "REMOTE_TYPE_ID must be a positive integer, got %q", s)
	}
	return id, nil
}

// concludeGone applies source's choice to the records it collected or
// kept that a full run did not see (seen: every vod_id the run read):
// keep leaves them; hide takes each movie out of the catalog and keeps
// it with the source, not shown; delete deletes it. A joined record's
// servers are taken out of the movie it joined (hide and delete), and
// the records kept unbound are forgotten. It returns how many records
// it concluded gone.
func concludeGone(ctx context.Context, st Store, source string, gone catalog.Gone, seen map[int64]bool) (int, error) {
	if gone != catalog.GoneHide && gone != catalog.GoneDelete {
		return 0, nil
	}
	recs, err := st.CollectedRecords(ctx, source, -1)
	if err != nil {
		return 0, err
	}
	var forget []int64
	var hide []catalog.CollectedMovie
	for _, r := range recs {
		if seen[r.VodID] {
			continue
		}
		m, err := st.GetMovie(ctx, r.MovieID)
		if catalog.ErrorCode(err) == catalog.ENOTFOUND {
			forget = append(forget, r.VodID)
			continue
		} else if err != nil {
			return 0, err
		}
		if r.Joined {
			m = catalog.WithoutSourceServers(m, source, r.Servers)
			if err := st.UpdateMovie(ctx, &m); err != nil && catalog.ErrorCode(err) != catalog.ENOTFOUND {
				return 0, err
			}
		} else {
			if gone == catalog.GoneHide {
				hide = append(hide, catalog.CollectedMovie{VodID: r.VodID, TypeID: r.TypeID, Movie: m})
			}
			if err := st.DeleteMovie(ctx, r.MovieID); err != nil && catalog.ErrorCode(err) != catalog.ENOTFOUND {
				return 0, err
			}
		}
		forget = append(forget, r.VodID)
	}
	// The hidden copies first, so that a failure between the two loses
	// nothing.
	if err := st.KeepRecords(ctx, source, hide, true); err != nil {
		return 0, err
	}
	if err := st.ForgetRecords(ctx, source, forget); err != nil {
		return 0, err
	}
	kept, err := st.KeptVodIDs(ctx, source)
	if err != nil {
		return 0, err
	}
	var drop []int64
	for id, hidden := range kept {
		if !seen[id] && !hidden {
			drop = append(drop, id)
		}
	}
	return len(forget) + len(drop), st.DropKept(ctx, source, drop)
}
