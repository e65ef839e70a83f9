// Package testenv decides what a test does when the machine lacks what it
// needs: a PostgreSQL server, Chromium, varnishd, curl. Locally such a
// test skips, saying how to run it; in continuous integration (CI=true,
// which .ci/run exports) it fails, because a suite that skips there would
// let the run pass without running it.
package testenv

import (
	"os"
	"strconv"
	"testing"
)

// CI reports whether the tests run in continuous integration: the CI
// variable holds a true value ("true", "1").
func CI() bool {
	ci, _ := strconv.ParseBool(os.Getenv("CI"))
	return ci
}

// SkipOrFail skips the test with msg, or fails it with msg under CI.
func SkipOrFail(tb testing.TB, msg string) {
	tb.Helper()
	if CI() {
		tb.Fatal(msg + " (CI is set: a test that cannot run fails the run)")
	}
	tb.Skip(msg)
}
