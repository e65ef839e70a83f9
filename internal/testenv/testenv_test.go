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

const longChildEnv = "TESTENV_LONG_CHILD"

// TestLong runs itself as a child test that calls Long: it skips by
// default and runs under CI=true or CATALOG_TEST_LONG=1.
func TestLong(t *testing.T) {
	if os.Getenv(longChildEnv) == "1" {
		Long(t)
		t.Log("long suite ran")
		return
	}
	for _, tt := range []struct {
		ci, long string
		want     string
	}{
		{"", "", "--- SKIP: TestLong"},
		{"", "0", "--- SKIP: TestLong"},
		{"true", "", "--- PASS: TestLong"},
		{"", "1", "--- PASS: TestLong"},
	} {
		t.Run("CI="+tt.ci+",CATALOG_TEST_LONG="+tt.long, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestLong$", "-test.v", "-test.count=1")
			cmd.Env = append(os.Environ(), longChildEnv+"=1", "CI="+tt.ci, "CATALOG_TEST_LONG="+tt.long)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("child failed: %v\n%s", err, out)
			}
			if !strings.Contains(string(out), tt.want) {
				t.Errorf("child output:\n%s\nwant %q", out, tt.want)
			}
			if ran := strings.Contains(string(out), "long suite ran"); ran != strings.Contains(tt.want, "PASS") {
				t.Errorf("child ran the suite: %v, want %v", ran, !ran)
			}
		})
	}
}
