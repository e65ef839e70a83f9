package catalog_test

import (
	"slices"
	"testing"

	"catalog/internal/catalog"
)

// A page is read as a range when its ids fill at least half of it, and
// only the asked rows of the range are kept.
func TestKeyRange(t *testing.T) {
	for _, tt := range []struct {
		ids    []int64
		lo, hi int64
		dense  bool
	}{
		{[]int64{7}, 7, 7, true},
		{[]int64{30, 29, 28}, 28, 30, true},
		{[]int64{30, 28, 26, 24}, 24, 30, true},  // 4 ids over 7: at least half
		{[]int64{30, 27, 24, 21}, 21, 30, false}, // 4 ids over 10: 9 >= 8
		{[]int64{5, 5, 5}, 5, 5, true},
		{[]int64{1, 1000}, 1, 1000, false},
	} {
		lo, hi, dense := catalog.KeyRange(tt.ids)
		if lo != tt.lo || hi != tt.hi || dense != tt.dense {
			t.Errorf("KeyRange(%v) = %d, %d, %v, want %d, %d, %v", tt.ids, lo, hi, dense, tt.lo, tt.hi, tt.dense)
		}
	}
	rows := []int64{30, 29, 28, 27, 26}
	got := catalog.OnlyAsked(rows, []int64{26, 30, 28, 99}, func(v *int64) int64 { return *v })
	if !slices.Equal(got, []int64{30, 28, 26}) || rows[3] != 0 || rows[4] != 0 {
		t.Errorf("OnlyAsked = %v (rows after: %v), want [30 28 26] and the rest cleared", got, rows)
	}
}
