package search

import "sync/atomic"

// faultHook, when a test sets it, is called at the points where the
// index's upkeep may fail (fault), so that tests can make each of them
// panic and see the service outlive it. Nil in production.
var faultHook atomic.Pointer[func(where string)]

// fault calls faultHook with where: "apply" (a catch-up, between its
// deletes and its changes), "build", "find", "save" (writing a file)
// or "load" (reading one).
func fault(where string) {
	if h := faultHook.Load(); h != nil {
		(*h)(where)
	}
}
