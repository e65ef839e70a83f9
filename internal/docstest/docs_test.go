package docstest

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"catalog/internal/cli"
	"catalog/internal/testenv"
)

// root is the repository, two floors above this package.
const root = "../.."

// noRun is the fence of a shell block the test does not run.
const noRun = "sh no-run"

// noRunReasons are what makes a block unsafe to run here; a no-run
// block must show at least one of them, so that the mark cannot hide a
// block that could run.
var noRunReasons = []struct {
	what string
	re   *regexp.Regexp
}{
	{"installs software", regexp.MustCompile(`\bapt-get\b|\bnpx\b|\bgo run \S+@`)},
	{"needs root or the system's services", regexp.MustCompile(`\bsudo\b|\bsystemctl\b|\bvarnishd\b|\bvarnishadm\b`)},
	{"needs a container engine", regexp.MustCompile(`\bpodman\b|\bdocker\b|deploy/container/build\.sh`)},
	{"needs PostgreSQL", regexp.MustCompile(`postgres(ql)?://|\bpg_dump\b|\bpg_restore\b|\.ci/postgres\.sh`)},
	{"reaches the network", regexp.MustCompile(`\bcatalog collect\b`)},
	{"runs the test suite", regexp.MustCompile(`\bgo test\b`)},
}

// maxNoRunShare bounds the share of shell blocks marked no-run.
const maxNoRunShare = 0.45

// block is one fenced code block of a document.
type block struct {
	doc  string // "README.md", "docs/api.md"
	line int    // of the opening fence
	lang string // the fence's info string
	text string
}

func (b block) String() string { return fmt.Sprintf("%s:%d", b.doc, b.line) }

// docs are the documents whose blocks run: README.md, then docs/*.md.
func docs(t *testing.T) []string {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	list := []string{"README.md"}
	for _, n := range names {
		rel, _ := filepath.Rel(root, n)
		list = append(list, filepath.ToSlash(rel))
	}
	return list
}

func read(t *testing.T, doc string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, doc))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// blocks are the fenced code blocks of doc.
func blocks(t *testing.T, doc string) []block {
	t.Helper()
	var out []block
	var cur *block
	var body strings.Builder
	for i, line := range strings.Split(read(t, doc), "\n") {
		switch {
		case cur == nil && strings.HasPrefix(line, "```"):
			cur = &block{doc: doc, line: i + 1, lang: strings.TrimSpace(strings.TrimPrefix(line, "```"))}
			body.Reset()
		case cur != nil && strings.TrimSpace(line) == "```":
			cur.text = body.String()
			out = append(out, *cur)
			cur = nil
		case cur != nil:
			body.WriteString(line + "\n")
		}
	}
	if cur != nil {
		t.Fatalf("%s: the block is not closed", cur)
	}
	return out
}

func isShell(b block) bool { return b.lang == "sh" || b.lang == noRun }

// TestNoRunSparingly: a shell block is either run (sh) or marked
// no-run with a reason the test recognises, and few are marked.
func TestNoRunSparingly(t *testing.T) {
	var shell, skipped int
	for _, doc := range docs(t) {
		for _, b := range blocks(t, doc) {
			switch {
			case b.lang == "bash" || b.lang == "shell" || b.lang == "console" || strings.HasPrefix(b.lang, "sh "):
				if b.lang != noRun {
					t.Errorf("%s: fence %q: write sh (run by this test) or %s", b, b.lang, noRun)
				}
			}
			if !isShell(b) {
				continue
			}
			shell++
			if b.lang != noRun {
				continue
			}
			skipped++
			if !slices.ContainsFunc(noRunReasons, func(r struct {
				what string
				re   *regexp.Regexp
			}) bool {
				return r.re.MatchString(b.text)
			}) {
				t.Errorf("%s: marked %s, but it installs nothing, needs no root, container, PostgreSQL or network and runs no tests: make it sh, so that it runs", b, noRun)
			}
		}
	}
	if shell == 0 {
		t.Fatal("no shell blocks found")
	}
	if share := float64(skipped) / float64(shell); share > maxNoRunShare {
		t.Errorf("%d of %d shell blocks are %s (%.0f %%, at most %.0f %%): make the examples runnable", skipped, shell, noRun, 100*share, 100*maxNoRunShare)
	}
}

// TestLength keeps the README a page a newcomer reads and BENCHMARKS.md
// the current figures, not a diary.
func TestLength(t *testing.T) {
	for _, tt := range []struct {
		doc  string
		max  int
		hint string
	}{
		{"README.md", 300, "move detail into docs/"},
		{"BENCHMARKS.md", 400, "keep the current figures; history stays in git log"},
	} {
		if n := strings.Count(read(t, tt.doc), "\n"); n > tt.max {
			t.Errorf("%s has %d lines, want at most %d: %s", tt.doc, n, tt.max, tt.hint)
		}
	}
}

var (
	linkRe    = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	headingRe = regexp.MustCompile(`(?m)^#{1,6} (.+)$`)
	htmlTagRe = regexp.MustCompile(`<[^>]*>`)
)

// anchor is GitHub's id of a heading: lower case, punctuation but
// dashes and underscores dropped, spaces as dashes.
func anchor(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(htmlTagRe.ReplaceAllString(heading, "")) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// anchors are the ids of doc's headings, outside code blocks.
func anchors(t *testing.T, doc string) map[string]bool {
	t.Helper()
	text := read(t, doc)
	for _, b := range blocks(t, doc) {
		text = strings.Replace(text, b.text, "", 1)
	}
	ids := map[string]bool{}
	for _, m := range headingRe.FindAllStringSubmatch(text, -1) {
		ids[anchor(strings.TrimSpace(m[1]))] = true
	}
	return ids
}

// TestLinks: every relative link of the documents names a file or
// folder that exists, and a #fragment a heading of that document.
func TestLinks(t *testing.T) {
	for _, doc := range docs(t) {
		text := read(t, doc)
		for _, b := range blocks(t, doc) {
			text = strings.Replace(text, b.text, "", 1)
		}
		for _, m := range linkRe.FindAllStringSubmatch(text, -1) {
			link := m[1]
			if strings.Contains(link, "://") || strings.HasPrefix(link, "mailto:") {
				continue
			}
			path, frag, _ := strings.Cut(link, "#")
			target := doc
			if path != "" {
				target = filepath.ToSlash(filepath.Join(filepath.Dir(doc), path))
				if _, err := os.Stat(filepath.Join(root, target)); err != nil {
					t.Errorf("%s: link %s: %s does not exist", doc, link, target)
					continue
				}
			}
			if frag != "" && strings.HasSuffix(target, ".md") && !anchors(t, target)[frag] {
				t.Errorf("%s: link %s: %s has no heading #%s", doc, link, target, frag)
			}
		}
	}
}

// TestLayout: the development guide's layout names every package.
func TestLayout(t *testing.T) {
	var layout string
	for _, b := range blocks(t, "docs/development.md") {
		if strings.HasPrefix(b.text, "cmd/catalog/") {
			layout = b.text
		}
	}
	if layout == "" {
		t.Fatal("docs/development.md: no layout block (a block starting with cmd/catalog/)")
	}
	named := map[string]bool{}
	for _, line := range strings.Split(layout, "\n") {
		if f := strings.Fields(line); len(f) > 0 && strings.HasSuffix(f[0], "/") {
			named[f[0]] = true
		}
	}
	for _, top := range []string{"internal", "bench"} {
		err := filepath.WalkDir(filepath.Join(root, top), func(path string, d fs.DirEntry, err error) error {
			if err != nil || !d.IsDir() || d.Name() == "testdata" {
				if d != nil && d.Name() == "testdata" {
					return filepath.SkipDir
				}
				return err
			}
			if gos, _ := filepath.Glob(filepath.Join(path, "*.go")); len(gos) == 0 {
				return nil
			}
			if !named[d.Name()+"/"] {
				rel, _ := filepath.Rel(root, path)
				t.Errorf("docs/development.md: the layout does not name %s (a line starting %s/)", filepath.ToSlash(rel), d.Name())
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// logBuffer is serve's log, which the test waits on.
type logBuffer struct {
	mu    sync.Mutex
	b     bytes.Buffer
	wrote chan struct{}
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.wrote != nil {
		close(l.wrote)
		l.wrote = nil
	}
	return l.b.Write(p)
}

// waitFor waits until the log holds n lines containing msg; every write
// wakes it, the deadline only catches a hang.
func (l *logBuffer) waitFor(t *testing.T, n int, msg string) {
	t.Helper()
	deadline := time.After(2 * time.Minute)
	for {
		l.mu.Lock()
		text := l.b.String()
		if l.wrote == nil {
			l.wrote = make(chan struct{})
		}
		wrote := l.wrote
		l.mu.Unlock()
		if strings.Count(text, msg) >= n {
			return
		}
		select {
		case <-wrote:
		case <-deadline:
			t.Fatalf("serve: %d × %q not in the log within 2 minutes:\n%s", n, msg, text)
		}
	}
}

// build compiles catalog into dir.
func build(t *testing.T, dir string) string {
	t.Helper()
	bin := filepath.Join(dir, "catalog")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/catalog")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// run runs a catalog command line in process.
func run(t *testing.T, args ...string) {
	t.Helper()
	var out bytes.Buffer
	getenv := func(string) string { return "" }
	if err := cli.Run(t.Context(), args, getenv, strings.NewReader(""), &out, &out); err != nil {
		t.Fatalf("catalog %s: %v\n%s", strings.Join(args, " "), err, out.String())
	}
}

// server is a catalog serve on scratch/catalog.db, seeded as --demo is.
type server struct {
	clips, movies, metrics string
}

func serve(t *testing.T, scratch string) server {
	t.Helper()
	db := filepath.Join(scratch, "catalog.db")
	run(t, "migrate", "--db", db)
	run(t, "seed", "--db", db, "--clips", "300", "--movies", "240", "--quiet")
	ctx, cancel := context.WithCancel(context.Background())
	addrs := make(chan cli.Addrs, 1)
	log := &logBuffer{}
	p := &cli.Program{
		Getenv: func(string) string { return "" }, Stdin: strings.NewReader(""), Stdout: log, Stderr: log,
		Listening: func(a cli.Addrs) { addrs <- a },
	}
	done := make(chan error, 1)
	go func() {
		done <- p.Run(ctx, []string{"serve", "--db", db, "--log-format", "json",
			"--clips-addr", "127.0.0.1:0", "--movies-addr", "127.0.0.1:0", "--metrics-addr", "127.0.0.1:0"})
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v\n%s", err, log.b.String())
		}
	})
	var a cli.Addrs
	select {
	case a = <-addrs:
	case err := <-done:
		t.Fatalf("serve stopped before listening: %v\n%s", err, log.b.String())
	}
	log.waitFor(t, 2, "search index ready") // clips and movies
	return server{clips: a.Clips.String(), movies: a.Movies.String(), metrics: a.Metrics.String()}
}

// prelude defines what the blocks run on: catalog (a serve line is
// started, must listen, and is stopped), go run ./cmd/catalog, and a
// curl that fails on an HTTP error.
const prelude = `set -o pipefail
__docs_check() {
	if [ "$1" != "$3" ]; then
		echo "docstest: line $2: exit status $1, want $3" >&2
		exit 101
	fi
}
__docs_serve() {
	local fifo ok=1 line pid
	fifo=$(mktemp -u) && mkfifo "$fifo" || return 1
	command catalog "$@" --clips-addr 127.0.0.1:0 --movies-addr 127.0.0.1:0 >"$fifo" 2>&1 &
	pid=$!
	exec 9<"$fifo"
	while IFS= read -r -t 120 line <&9; do
		case $line in *listening*) ok=0; break ;; esac
		printf '%s\n' "$line" >&2
	done
	kill -INT "$pid" 2>/dev/null
	cat <&9 >/dev/null
	wait "$pid"
	exec 9<&-
	rm -f "$fifo"
	return $ok
}
catalog() {
	if [ "$1" = serve ]; then
		__docs_serve "$@"
		return
	fi
	command catalog "$@"
}
go() {
	if [ "$1" = run ] && [ "$2" = ./cmd/catalog ]; then
		shift 2
		catalog "$@"
		return
	fi
	echo "docstest: only 'go run ./cmd/catalog' runs here; mark the block no-run" >&2
	return 127
}
curl() { command curl -sS --fail-with-body "$@"; }
`

var exitStatusRe = regexp.MustCompile(`#\s*exit status (\d+)\s*$`)

// command is one command line of a block, with its continuation lines.
type command struct {
	line int // of its first line in the document
	text string
}

// commands are b's command lines: comments and blank lines left out, a
// line ending in a backslash joined with the next.
func commands(b block) []command {
	var out []command
	lines := strings.Split(strings.TrimRight(b.text, "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		c := command{line: b.line + 1 + i, text: lines[i]}
		for strings.HasSuffix(c.text, "\\") && i+1 < len(lines) {
			i++
			c.text += "\n" + lines[i]
		}
		if trimmed := strings.TrimSpace(c.text); trimmed != "" && !strings.HasPrefix(trimmed, "#") {
			out = append(out, c)
		}
	}
	return out
}

// script is b's text with the addresses and folders of this run, each
// command followed by the check of its exit status.
func script(t *testing.T, b block, subst *strings.Replacer) string {
	t.Helper()
	var out strings.Builder
	out.WriteString(prelude)
	for _, c := range commands(b) {
		if strings.HasSuffix(strings.TrimSpace(c.text), "&") {
			t.Errorf("%s:%d: a command in the background; the docs test cannot wait for it", b.doc, c.line)
		}
		want := "0"
		if m := exitStatusRe.FindStringSubmatch(c.text); m != nil {
			want = m[1]
		}
		fmt.Fprintf(&out, "%s\n__docs_check $? %d %s\n", subst.Replace(c.text), c.line, want)
	}
	return out.String()
}

// TestShellBlocks runs every sh block of each document, in order, in a
// scratch folder of its own beside a serve on that folder's catalog.db.
func TestShellBlocks(t *testing.T) {
	if _, err := exec.LookPath("curl"); err != nil {
		testenv.SkipOrFail(t, "curl not found: the docs' examples use it")
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		testenv.SkipOrFail(t, "bash not found: the docs' blocks are bash")
	}
	bin := t.TempDir()
	build(t, bin)
	examples, err := filepath.Abs(filepath.Join(root, "examples"))
	if err != nil {
		t.Fatal(err)
	}
	t.Run("no-run flags", func(t *testing.T) { checkNoRunFlags(t, bash, bin) })
	for _, doc := range docs(t) {
		var runnable []block
		for _, b := range blocks(t, doc) {
			if b.lang == "sh" {
				runnable = append(runnable, b)
			}
		}
		if len(runnable) == 0 {
			continue
		}
		t.Run(doc, func(t *testing.T) {
			scratch := t.TempDir()
			if err := os.Symlink(examples, filepath.Join(scratch, "examples")); err != nil {
				t.Fatal(err)
			}
			if err := os.Mkdir(filepath.Join(scratch, "backup"), 0o700); err != nil {
				t.Fatal(err)
			}
			srv := serve(t, scratch)
			subst := strings.NewReplacer(
				"127.0.0.1:8080", srv.clips,
				"127.0.0.1:8081", srv.movies,
				"127.0.0.1:9464", srv.metrics,
				"/var/lib/catalog/", scratch+"/",
				"/backup/", scratch+"/backup/",
			)
			env := []string{"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"), "HOME=" + scratch, "TMPDIR=" + scratch, "LANG=C.UTF-8"}
			for _, b := range runnable {
				ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
				cmd := exec.CommandContext(ctx, bash, "--noprofile", "--norc", "-c", script(t, b, subst))
				cmd.Dir = scratch
				cmd.Env = env
				out, err := cmd.CombinedOutput()
				cancel()
				if err != nil {
					t.Errorf("%s: %v\n%s", b, err, tail(out))
				}
			}
		})
	}
}

var (
	assignRe   = regexp.MustCompile(`^(\s*[A-Z_][A-Z0-9_]*=\S*\s+)*catalog\s`)
	commandEnd = regexp.MustCompile(`\s(\||&&|;|>|<|<<<|#)\s`)
)

// checkNoRunFlags parses the catalog command lines of the no-run
// blocks: each with -h appended, so that its flags are checked and
// nothing runs (every command stops at -h after parsing the flags
// before it).
func checkNoRunFlags(t *testing.T, bash, bin string) {
	for _, doc := range docs(t) {
		for _, b := range blocks(t, doc) {
			if b.lang != noRun {
				continue
			}
			for _, c := range commands(b) {
				cmd := c.text
				if !assignRe.MatchString(cmd) {
					continue
				}
				if loc := commandEnd.FindStringIndex(cmd + " "); loc != nil {
					cmd = cmd[:loc[0]]
				}
				sh := exec.Command(bash, "--noprofile", "--norc", "-c", cmd+" -h")
				sh.Dir = t.TempDir()
				sh.Env = []string{"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH")}
				if out, err := sh.CombinedOutput(); err != nil {
					t.Errorf("%s:%d: %s -h: %v\n%s", doc, c.line, cmd, err, tail(out))
				}
			}
		}
	}
}

// tail is the end of a block's output, where its failure is.
func tail(out []byte) string {
	var lines []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if len(lines) > 40 {
		lines = lines[len(lines)-40:]
	}
	return strings.Join(lines, "\n")
}
