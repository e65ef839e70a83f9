package cache_test

import (
	"context"
	"strconv"
	"testing"

	"catalog/internal/cache"
	"catalog/internal/httpx"
)

// BenchmarkReadsHit is the cost the cache adds to a hit: the map
// lookup, in parallel.
func BenchmarkReadsHit(b *testing.B) {
	r := cache.NewResponses(0)
	body := make([]byte, 6<<10)
	fill := func(context.Context) (*httpx.Payload, error) { return httpx.NewPayload(body), nil }
	keys := make([]string, 100)
	for i := range keys {
		keys[i] = "list\x00" + strconv.Itoa(i)
		r.Get(context.Background(), 1, keys[i], fill)
	}
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		ctx := context.Background()
		for i := 0; pb.Next(); i++ {
			if _, err := r.Get(ctx, 1, keys[i%len(keys)], fill); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkResponsesChurn fills a small cache with ever new keys, the
// deep-page pattern: every Get is a miss that stores and evicts.
func BenchmarkResponsesChurn(b *testing.B) {
	c := cache.NewResponses(1 << 20)
	body := make([]byte, 512)
	fill := func(context.Context) (*httpx.Payload, error) { return httpx.NewPayload(body), nil }
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		c.Get(context.Background(), 1, strconv.Itoa(i), fill)
	}
}
