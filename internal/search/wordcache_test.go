package search

import (
	"strconv"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"
)

// The word cache's bound grows with the catalog: 8 bytes a record, at
// least 8 MiB, so that a large catalog keeps as many terms as a small
// one although each term's set is larger.
func TestWordCacheBoundGrowsWithTheCatalog(t *testing.T) {
	for _, c := range []struct {
		records int
		want    int64
	}{
		{0, 8388608},
		{1_000_000, 8388608},
		{1_048_576, 8388608},
		{10_000_000, 80000000},
	} {
		if got := wordCacheBytes(c.records); got != c.want {
			t.Errorf("wordCacheBytes(%d) = %d, want %d", c.records, got, c.want)
		}
	}

	// Twenty sets of about 1 MiB each (a term in a tenth of ten million
	// titles): an 8 MiB bound keeps the last few, the bound of ten
	// million records keeps them all.
	set := roaring.New()
	for i := uint32(0); i < 10_000_000; i += 20 {
		set.Add(i)
	}
	kept := func(maxBytes int64) int {
		c := newWordCache()
		for i := range 20 {
			c.put("term"+strconv.Itoa(i), set.Clone(), maxBytes)
		}
		n := 0
		for i := range 20 {
			if c.get("term"+strconv.Itoa(i)) != nil {
				n++
			}
		}
		return n
	}
	if n := kept(8388608); n > 8 {
		t.Errorf("an 8 MiB cache kept %d sets of %d bytes", n, set.GetSizeInBytes())
	}
	if n := kept(80000000); n != 20 {
		t.Errorf("the bound of ten million records kept %d of 20 sets of %d bytes", n, set.GetSizeInBytes())
	}
}
