// Package search is an in-process substring index over folded titles,
// so that a search answers in milliseconds with the exact total the
// contract asks for, whatever the length of its terms.
//
// Every record's search text is made by the caller with
// catalog.SearchText (what the stores keep: the folded title, and more),
// and every distinct run of one, two and three runes in it that holds no
// white space (its grams) gets a posting list: a roaring
// bitmap of the ids whose title contains that gram. A search term never
// holds white space, so a term of at most three runes is exactly one
// posting list, with no false positives. A longer term lies inside one
// word of every title that contains it: the titles under the known words
// containing it match at once (vocab.go), and only the other candidates
// of its trigrams' lists are checked against the folded title, kept in
// one byte arena. Several terms are intersected (all must occur; sparse
// sets by probing bits, intersect.go), and a page is read from the top
// of the result (newest first) by rank, so a deep page costs no more
// than the first. The total is the result's size.
//
// Ids are 32-bit in the bitmaps: a record with an id above 2^32-1 (only
// a database written before catalog.MaxID was enforced holds one) is
// left out of the index and counted (LeftOut), so that every other
// record is still listed and searched.
//
// Live keeps one Index per kind current from the database's search log
// (catalog.SearchLog), so that a write by any instance shows in the next
// search; Page answers a request from it, rows read from the store.
package search

import (
	"math"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/RoaringBitmap/roaring/v2"

	"catalog/internal/catalog"
)

// MaxID is the largest id the index holds.
const MaxID = math.MaxUint32

// Index is the posting lists and folded titles of one kind of record
// (clips or movies). It is safe for concurrent use: searches share a
// read lock, changes take the write lock.
type Index struct {
	mu     sync.RWMutex
	grams  gramTable
	all    *roaring.Bitmap // every id present
	groups setMap[string]  // ids per group (clip platform)
	names  []string        // group index-1 -> group name
	docs   docTable
	arena  arena // folded titles, back to back
	dead   int   // arena bytes of replaced or deleted titles
	frozen bool  // a frozen view shares the parts (freeze.go)

	vocab *vocabulary // whole words, to answer long terms without reading titles
	words *wordCache
	dense denseSets // bit copies of term sets (intersect.go)

	facets *facets    // movie attributes and the change order (facets.go)
	titles titleOrder // every id by folded title (titleorder.go)
	values values     // the values lists filter and facet on (values.go)
	// facetOrders is the unfiltered facets until the next change
	// (facetcount.go): Build and Apply reset it.
	facetOrders facetOrders

	// leftOut is the ids out of range (above MaxID, or not positive) of
	// the records given to the index: none of them is in any list.
	leftOut map[int64]struct{}
}

// New returns an empty index.
func New() *Index {
	return &Index{
		grams:   gramTable{lists: newSetMap[uint64]()},
		all:     roaring.New(),
		groups:  newSetMap[string](),
		vocab:   newVocabulary(maxVocabulary),
		words:   newWordCache(),
		facets:  newFacets(),
		values:  newValues(),
		leftOut: map[int64]struct{}{},
	}
}

// Doc is one record as the index sees it (catalog.SearchDoc).
type Doc struct {
	ID      int64
	Fold    string // catalog.SearchText of the title (and the movie's id_code)
	Group   string // the clip's platform ("" for none, and for movies)
	Changed int64  // movies: last change, unix seconds (facets.go)
	Type    int64  // movies: type id of the first category, 0 = none
	Year    string // movies: the stored year; only YYYY is a facet
	Play    int64  // movies: catalog.PlayKinds bits
	// Values are the record's values of the catalog.ValueFields, as
	// stored; the index folds them (values.go).
	Values []catalog.FieldValue
	Score  string       // movies: "0.0" to "10.0", or "" (facets.go)
	Hits   catalog.Hits // movies: play counts as stored
}

// gramKey packs up to three runes into one map key; rune+1 keeps an
// absent rune (0) apart from U+0000.
func gramKey(rs []rune) uint64 {
	var k uint64
	for _, r := range rs {
		k = k<<21 | uint64(r+1)
	}
	return k
}

// eachGram calls fn with the key of every gram of s (repeats included)
// that holds no white space. A search term never holds any
// (catalog.SearchTerms splits on it), so such grams would never be
// looked up; leaving them out saves about a third of the lists' memory.
func eachGram(s string, fn func(uint64)) {
	var w [3]rune
	n := 0
	for _, r := range s {
		if unicode.IsSpace(r) {
			n = 0 // the next gram starts after r
			continue
		}
		if n < 3 {
			w[n] = r
			n++
		} else {
			w[0], w[1], w[2] = w[1], w[2], r
		}
		// Grams ending at r: r alone, the last two, the last three.
		fn(gramKey(w[n-1 : n]))
		if n >= 2 {
			fn(gramKey(w[n-2 : n]))
		}
		if n >= 3 {
			fn(gramKey(w[0:3]))
		}
	}
}

// appendGrams appends the distinct gram keys of s to dst.
func appendGrams(dst []uint64, s string) []uint64 {
	start := len(dst)
	eachGram(s, func(k uint64) { dst = append(dst, k) })
	g := dst[start:]
	slices.Sort(g)
	return dst[:start+len(slices.Compact(g))]
}

// Len is the number of records in the index.
func (ix *Index) Len() int {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return int(ix.all.GetCardinality())
}

// Build adds docs in bulk (a fresh index, ids ascending is fastest) and
// compresses the lists at the end. A doc whose id is out of range is
// left out (LeftOut).
func (ix *Index) Build(next func() (Doc, bool)) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	ix.facetOrders.reset()
	fault("build")
	// Ids arrive ascending, so each list gets its ids in order: they
	// are gathered per gram and added in runs (AddMany), and a gram seen
	// twice in one title is noticed by its list's last id, not a sort.
	type pending struct {
		b    *roaring.Bitmap
		last uint32
		ids  []uint32
	}
	lists := map[uint64]*pending{}
	for {
		d, more := next()
		if !more {
			break
		}
		if d.ID <= 0 || d.ID > MaxID {
			ix.leftOut[d.ID] = struct{}{}
			continue
		}
		id := uint32(d.ID)
		eachGram(d.Fold, func(k uint64) {
			p := lists[k]
			if p == nil {
				p = &pending{b: ix.grams.forWrite(k)}
				lists[k] = p
			}
			if p.last == id {
				return
			}
			p.last = id
			p.ids = append(p.ids, id)
			if len(p.ids) >= 1024 {
				p.b.AddMany(p.ids)
				p.ids = p.ids[:0]
			}
		})
		ix.record(d)
	}
	for _, p := range lists {
		p.b.AddMany(p.ids)
	}
	ix.grams.lists.settle()
	ix.vocab.settle()
	ix.facets.settle()
	ix.settleTitles()
	ix.values.sets.settle()
	ix.all = settled(ix.all)
	// An exact-size copy: append left up to a quarter of the arena
	// spare, held for the life of the index.
	ix.arena.tail = slices.Clone(ix.arena.tail)
}

// settled is b run-compressed and copied to its exact size, for a set
// a bulk build made: the build's appends leave its array containers
// with room to spare (a tenth of the heap of a million demo movies'
// index, BenchmarkBuildDemo1M), which nothing would give back.
func settled(b *roaring.Bitmap) *roaring.Bitmap {
	b.RunOptimize()
	return b.Clone()
}

// Apply brings the index up to date with changes: a Doc replaces the
// record with its id, a deleted id (with Fold and Group ignored) is
// listed in gone. A doc whose id is out of range is left out (LeftOut).
func (ix *Index) Apply(docs []Doc, gone []int64) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	ix.facetOrders.reset()
	ix.facets.settle()
	ix.settleTitles()
	var buf []uint64
	for _, id := range gone {
		if id <= 0 || id > MaxID {
			delete(ix.leftOut, id)
			continue
		}
		ix.remove(uint32(id))
		ix.words.forget(uint32(id))
	}
	fault("apply") // between the deletes and the changes: half-applied
	for _, d := range docs {
		if d.ID <= 0 || d.ID > MaxID {
			ix.leftOut[d.ID] = struct{}{}
			continue
		}
		ix.remove(uint32(d.ID))
		buf = ix.put(buf[:0], d)
		ix.words.note(uint32(d.ID), d.Fold)
		ix.dense.forget(d.Fold)
	}
	if ix.dead > ix.arena.len()/2 && ix.dead > 1<<20 && !ix.frozen {
		ix.compact()
	}
}

// maxLeftOutNamed is the most left-out ids LeftOut names.
const maxLeftOutNamed = 5

// LeftOut is the number of records left out of the index because their
// id is out of range, and the smallest few of their ids.
func (ix *Index) LeftOut() (n int, first []int64) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	for id := range ix.leftOut {
		first = append(first, id)
	}
	slices.Sort(first)
	return len(ix.leftOut), first[:min(len(first), maxLeftOutNamed)]
}

// put adds d, which must not be present; buf is scratch space.
func (ix *Index) put(buf []uint64, d Doc) []uint64 {
	id := uint32(d.ID)
	buf = appendGrams(buf, d.Fold)
	for _, k := range buf {
		ix.grams.forWrite(k).Add(id)
	}
	ix.record(d)
	return buf
}

// record adds d's title, group and presence (its grams are the caller's).
func (ix *Index) record(d Doc) {
	id := uint32(d.ID)
	ix.all.Add(id)
	if _, ok := ix.groups.lookup(d.Group); !ok {
		ix.names = append(ix.names, d.Group)
	}
	ix.groups.forWrite(d.Group, nil).Add(id)
	gi := slices.Index(ix.names, d.Group) + 1
	vals := ix.values.appendIDs(nil, d.Values)
	off := ix.arena.add(d.Fold)
	n := len(ix.arena.tail)
	ix.arena.tail = encodeIDs(ix.arena.tail, vals)
	ix.docs.set(id, span{off: off, n: uint32(len(d.Fold)), group: uint16(gi), vals: uint16(len(ix.arena.tail) - n)})
	ix.vocab.add(id, d.Fold)
	ix.facets.add(id, d)
	ix.values.add(id, vals)
	ix.addTitle(id)
}

// remove takes id out of every list it is in.
func (ix *Index) remove(id uint32) {
	sp, ok := ix.docs.get(id)
	if !ok {
		return
	}
	ix.removeTitle(id)
	ix.dense.forget(ix.title(sp))
	ix.vocab.remove(id, ix.title(sp))
	for _, k := range appendGrams(nil, ix.title(sp)) {
		ix.grams.remove(k, id)
	}
	ix.all.Remove(id)
	ix.groups.forWrite(ix.names[sp.group-1], nil).Remove(id)
	ix.facets.remove(id)
	ix.values.remove(id, ix.arena.valueIDs(sp))
	ix.dead += sp.bytes()
	ix.docs.set(id, span{})
}

func (ix *Index) title(sp span) string { return ix.arena.at(sp) }

// compact rewrites the arena without the titles (and value ids) no
// record uses.
func (ix *Index) compact() {
	fresh := arena{tail: make([]byte, 0, ix.arena.len()-ix.dead)}
	it := ix.all.Iterator()
	for it.HasNext() {
		id := it.Next()
		sp, _ := ix.docs.get(id)
		off := fresh.add(ix.arena.at(sp))
		fresh.tail = append(fresh.tail, ix.arena.valueIDs(sp)...)
		sp.off = off
		ix.docs.set(id, sp)
	}
	ix.arena, ix.dead = fresh, 0
}

// Result is one page of a search.
type Result struct {
	IDs   []int64 // highest first
	Total int64
	// Terms are the terms the records matched: the query's, or their
	// pinyin spelling when the fallback answered (Find).
	Terms []string
}

// page is the page at [offset, offset+limit) counted from the top of a
// result of total ids, where down appends to dst the ids of the ranks
// [lo, hi) counted from the bottom, highest first (matchSet.down).
func page(total, offset, limit int64, down func(dst []int64, lo, hi int64) []int64) Result {
	res := Result{Total: total, IDs: []int64{}}
	if offset >= total || limit <= 0 {
		return res
	}
	end := min(offset+limit, total)
	res.IDs = down(make([]int64, 0, end-offset), total-end, total-offset)
	return res
}

// bitmapDown appends to dst the ids of b's ranks [lo, hi) (within b's
// size), highest first: one Select, for the lowest, then a walk up,
// reversed. A Select scans a bitmap container's words one by one, so a
// page costs one, not one an id.
func bitmapDown(b *roaring.Bitmap, dst []int64, lo, hi int64) []int64 {
	if lo >= hi {
		return dst
	}
	first, _ := b.Select(uint32(lo))
	var it roaring.IntIterator
	it.Initialize(b)
	it.AdvanceIfNeeded(first)
	start := len(dst)
	for range hi - lo {
		dst = append(dst, int64(it.Next()))
	}
	slices.Reverse(dst[start:])
	return dst
}

// sliceDown appends to dst the ids of s (ids, or change-order keys
// whose low 32 bits are the id) from its last to its first.
func sliceDown[T uint32 | uint64](dst []int64, s []T) []int64 {
	for _, v := range slices.Backward(s) {
		dst = append(dst, int64(uint32(v)))
	}
	return dst
}

// match returns the records containing term. The result must not be
// changed, and is valid while the read lock is held.
func (ix *Index) match(term string) *roaring.Bitmap {
	if strings.ContainsFunc(term, unicode.IsSpace) {
		// Not from catalog.SearchTerms: no gram list covers it.
		return ix.scan(term)
	}
	n := utf8.RuneCountInString(term)
	if n <= 3 {
		// A gram's list is exact: no title contains term without it.
		if b := ix.grams.get(gramKey([]rune(term))); b != nil {
			return b
		}
		return empty
	}
	if b := ix.words.get(term); b != nil {
		return b
	}
	rs := []rune(term)
	var lists []*roaring.Bitmap
	seen := map[uint64]bool{}
	for i := 0; i+3 <= len(rs); i++ {
		k := gramKey(rs[i : i+3])
		if seen[k] {
			continue
		}
		seen[k] = true
		b := ix.grams.get(k)
		if b == nil {
			return empty
		}
		lists = append(lists, b)
	}
	cand := roaring.FastAnd(lists...)
	out, check := roaring.New(), cand
	if cand.GetCardinality() > minWordTitles {
		// term holds no white space (see above), so the titles holding
		// a known word that contains it match without a look at them;
		// only the other candidates are read.
		out = ix.vocab.containing(term)
		check = roaring.AndNot(cand, out)
	}
	// Trigrams can all occur apart: check the title itself.
	check.Iterate(func(id uint32) bool {
		sp, _ := ix.docs.get(id)
		if strings.Contains(ix.title(sp), term) {
			out.Add(id)
		}
		return true
	})
	out.RunOptimize()
	ix.words.put(term, out, wordCacheBytes(int(ix.all.GetCardinality()))) // the read lock is held
	return out
}

var empty = roaring.New()

// scan returns the records containing term, read from every title.
func (ix *Index) scan(term string) *roaring.Bitmap {
	out := roaring.New()
	ix.all.Iterate(func(id uint32) bool {
		if sp, _ := ix.docs.get(id); strings.Contains(ix.title(sp), term) {
			out.Add(id)
		}
		return true
	})
	return out
}
