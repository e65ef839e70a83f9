package testenv

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

const childEnv = "TESTENV_SKIP_OR_FAIL_CHILD"

// TestSkipOrFail runs itself as a child test that calls SkipOrFail, with
// and without CI: locally the child skips with the message, under CI it
// fails with it.
func TestSkipOrFail(t *testing.T) {
	if os.Getenv(childEnv) == "1" {
		SkipOrFail(t, "no frobnicator installed")
		t.Fatal("SkipOrFail returned")
	}
	for _, tt := range []struct {
		ci       string
		wantFail bool
		want     string
	}{
		{"", false, "--- SKIP: TestSkipOrFail"},
		{"false", false, "--- SKIP: TestSkipOrFail"},
		{"true", true, "--- FAIL: TestSkipOrFail"},
		{"1", true, "--- FAIL: TestSkipOrFail"},
	} {
		t.Run("CI="+tt.ci, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestSkipOrFail$", "-test.v", "-test.count=1")
			cmd.Env = append(os.Environ(), childEnv+"=1", "CI="+tt.ci)
			out, err := cmd.CombinedOutput()
			if failed := err != nil; failed != tt.wantFail {
				t.Errorf("child failed: got %v (%v), want %v", failed, err, tt.wantFail)
			}
			if !strings.Contains(string(out), tt.want) || !strings.Contains(string(out), "no frobnicator installed") {
				t.Errorf("child output:\n%s\nwant %q and the message", out, tt.want)
			}
		})
	}
}
