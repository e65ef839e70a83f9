package search

import "slices"

// chunk is one piece of a copy-on-write table (a page of the doc or
// attribute table, a block of the change order): its values, and
// whether someone else holds them too (a frozen view, or the mapped
// file they were read from), in which case they are copied before
// their first change.
//
// The flag lives beside the values it describes, in one struct, so
// that inserting, deleting or appending chunks moves both together:
// two parallel slices (values, flags) got out of step once and panicked
// a growing catalog's catch-up.
type chunk[T any] struct {
	vals   []T
	shared bool
}

// writable is the chunk's values, copied first when they are shared.
func (c *chunk[T]) writable() []T {
	if c.shared {
		c.vals = slices.Clone(c.vals)
		c.shared = false
	}
	return c.vals
}

// shareChunks marks every chunk shared, and returns a copy of the
// table whose chunks are shared too: neither side writes the values
// the other reads.
func shareChunks[T any](cs []chunk[T]) []chunk[T] {
	for i := range cs {
		cs[i].shared = true
	}
	return slices.Clone(cs)
}
