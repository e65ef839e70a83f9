package catalog

import "slices"

// KeyRange is the range [lo, hi] of ids (not empty), and whether ids
// fill at least half of it: a page of a whole list, which both engines
// read as one range of the key (a single b-tree descent, then its leaves
// in order) instead of one descent per id, dropping the rows between the
// ids with OnlyAsked.
func KeyRange(ids []int64) (lo, hi int64, dense bool) {
	lo, hi = slices.Min(ids), slices.Max(ids)
	return lo, hi, hi-lo < 2*int64(len(ids))
}

// OnlyAsked keeps, in order, the rows of a range read whose id is among
// ids, and clears the others so that no strings stay alive past the page.
func OnlyAsked[T any](rows []T, ids []int64, id func(*T) int64) []T {
	asked := slices.Sorted(slices.Values(ids))
	kept := rows[:0]
	for i := range rows {
		if _, ok := slices.BinarySearch(asked, id(&rows[i])); ok {
			kept = append(kept, rows[i])
		}
	}
	clear(rows[len(kept):])
	return kept
}
