package budget

import "catalog/internal/catalog"

// Light reports whether a list read is as cheap as a point read, so that
// it need not take a slot of the list budget: its total is a kept count
// (no search terms, no filter that must be counted) and its page starts
// before catalog.DeepOffset. Such a read needs microseconds, so it must
// never queue for a slot behind searches that take the database
// seconds.
func Light(keptCount bool, offset int64) bool { return keptCount && offset < catalog.DeepOffset }
