package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Writing a file by temporary name and rename must not replace a device
// or a pipe named as the output: `--out /dev/null` times a command, and
// as root a rename over /dev/null would turn it into a file for every
// process on the machine. A named pipe stands in for the device here, so
// that a broken rule cannot break the test machine; it must still be a
// pipe afterwards and have received the output.
func TestOutToAPipeWritesInPlace(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env := map[string]string{"CATALOG_DB": migrated(t, filepath.Join(dir, "c.db"))}
	wantExit(t, run(t, env, "", "seed", "--movies", "3", "--clips", "2"), 0)
	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"export", []string{"export", "movies", "--format", "jsonl", "--quiet"}, `"name":`},
		{"snapshot", []string{"snapshot", "--quiet"}, `"generated_at"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			fifo := filepath.Join(dir, tt.name+".fifo")
			if err := syscall.Mkfifo(fifo, 0o600); err != nil {
				t.Skipf("no named pipes here: %v", err)
			}
			got := make(chan string, 1)
			go func() {
				b, _ := os.ReadFile(fifo)
				got <- string(b)
			}()
			wantExit(t, run(t, env, "", append(tt.args, "--out", fifo)...), 0)
			select {
			case out := <-got:
				if !strings.Contains(out, tt.want) {
					t.Errorf("the pipe received %.200q, want the output", out)
				}
			case <-time.After(10 * time.Second):
				// The reader still waits for a writer: the output went
				// somewhere else (a file renamed over the pipe).
				t.Errorf("nothing was written to the pipe within 10 s")
			}
			if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
				t.Errorf("%s after the command: %v, %v; want it still a named pipe", fifo, fi.Mode(), err)
			}
		})
	}
	fifo := filepath.Join(dir, "backup.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err == nil {
		r := run(t, env, "", "backup", "--out", fifo, "--force")
		wantExit(t, r, 2)
		if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
			t.Errorf("backup replaced the pipe: %v, %v", fi.Mode(), err)
		}
	}
}
