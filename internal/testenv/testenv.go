// Package testenv decides what a test does when the machine lacks what it
// needs: a PostgreSQL server, Chromium, varnishd, curl. Locally such a
// test skips, saying how to run it; in continuous integration (CI=true,
// which .ci/run exports) it fails, because a suite that skips there would
// let the run pass without running it. It also keeps the long suites
// (Long) out of the default local run.
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

// LongEnv is the variable that runs the long suites outside CI.
const LongEnv = "CATALOG_TEST_LONG"

// Long skips a long suite (real browsers, Varnish, bodies of the largest
// size a limit admits: minutes of CPU together) unless CI is set or
// CATALOG_TEST_LONG holds a true value, so that the default go test ./...
// stays quick enough to run on every change. CI runs every one of them.
func Long(tb testing.TB) {
	tb.Helper()
	if long, _ := strconv.ParseBool(os.Getenv(LongEnv)); long || CI() {
		return
	}
	tb.Skip("long suite: runs under CI=true (.ci/run); set " + LongEnv + "=1 to run it here")
}
