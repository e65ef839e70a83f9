package cache

import (
	"context"

	"catalog/internal/httpx"
)

// NewResponses returns Reads of at most maxBytes (0: DefaultMaxBytes)
// for the tests that give each read its version (Get).
func NewResponses(maxBytes int64) *Reads {
	r := ForStore(nil, 0)
	if maxBytes > 0 {
		r.maxBytes = maxBytes
	}
	return r
}

// Get is the answer under key at version: kept, or filled by fill.
func (r *Reads) Get(ctx context.Context, version int64, key string, fill func(context.Context) (*httpx.Payload, error)) (*httpx.Payload, error) {
	return r.payload(ctx, version, key, "", func(ctx context.Context, _ int64) ([]byte, error) {
		p, err := fill(ctx)
		if err != nil {
			return nil, err
		}
		return p.Plain, nil
	})
}

// Len reports the number of kept answers and their bytes.
func (r *Reads) Len() (entries int, bytes int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.entries), r.bytes
}
