package budget

import "catalog/internal/catalog"

// Light reports whether a list read is as cheap as a point read, so that
// it need not take a slot of the list budget: its total is a kept count
// (no search terms, no filter that must be counted) and its page starts
// before catalog.DeepOffset. Without this, the first page of a list waited for
// a slot behind searches that the database answers in seconds while the
// search index warms up (issue 11 at 10M), though it needs microseconds.
func Light(keptCount bool, offset int64) bool { return keptCount && offset < catalog.DeepOffset }
