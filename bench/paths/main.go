// Command paths prints, for each request of issue 37's path count, the
// files and functions of internal/ it runs: those whose coverage
// counters move while it is served. Run it from the module root, built
// with coverage of every internal package (docs/development.md, "Size
// and request paths"):
//
//	go run -cover -covermode=atomic -coverpkg=catalog/internal/...,catalog/bench/paths ./bench/paths
//
// Each request goes through the whole movie service as serve assembles
// it (metrics outermost, the JSON request log), on a SQLite store of
// 500 demo movies whose index is built, after one warm request of its
// kind, so that it misses the response cache but meets warm code. Each
// kind is counted twice, with two requests that both miss, and only
// what both ran is printed: a background goroutine (the hits batcher,
// the index's catch-up) that runs during one of them is not the
// request's.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/coverage"
	"slices"
	"strconv"
	"strings"
	"time"

	"catalog/internal/catalog"
	"catalog/internal/cli"
	"catalog/internal/demo"
	"catalog/internal/httpx"
	"catalog/internal/metrics"
	"catalog/internal/search"
	"catalog/internal/sqlite"
)

func main() {
	if err := run(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, "paths:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context) error {
	if _, err := os.Stat("internal/catalog"); err != nil {
		return fmt.Errorf("run from the module root: %w", err)
	}
	dir, err := os.MkdirTemp("", "paths")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	h, err := service(ctx, dir)
	if err != nil {
		return err
	}
	actor, err := topActor(h)
	if err != nil {
		return err
	}
	for _, k := range []struct {
		name string
		warm string
		seen [2]string // two requests that both miss the response cache
	}{
		{"GET /api/movies?q=river&fields=id,title", "/api/movies?q=paper&fields=id,title",
			[2]string{"/api/movies?q=river&fields=id,title", "/api/movies?q=house&fields=id,title"}},
		{"GET /api/movies/{id}", "/api/movies/3", [2]string{"/api/movies/1", "/api/movies/2"}},
		{"GET /api/movies?actor=A&page=N", "/api/movies?actor=" + actor + "&page=2",
			[2]string{"/api/movies?actor=" + actor + "&page=3", "/api/movies?actor=" + actor + "&page=4"}},
	} {
		if _, err := get(h, k.warm); err != nil {
			return err
		}
		var runs [2]map[string][]string
		for i, target := range k.seen {
			if runs[i], err = counted(dir, h, target); err != nil {
				return err
			}
		}
		files, funcs := both(runs[0], runs[1])
		fmt.Printf("%s: %d files, %d functions\n", k.name, len(files), funcs)
		for _, f := range slices.Sorted(maps.Keys(files)) {
			fmt.Printf("  %s: %s\n", f, strings.Join(files[f], ", "))
		}
	}
	return nil
}

// service is the movie service as serve assembles it, over a SQLite
// file in dir holding 500 demo movies, its index built.
func service(ctx context.Context, dir string) (http.Handler, error) {
	store, err := sqlite.Open(ctx, filepath.Join(dir, "catalog.db"), sqlite.Options{})
	if err != nil {
		return nil, err
	}
	if err := store.Migrate(ctx); err != nil {
		return nil, err
	}
	platforms, err := catalog.NewPlatforms(catalog.DefaultPlatforms())
	if err != nil {
		return nil, err
	}
	g := demo.NewGenerator(1, platforms, time.Now().Add(-time.Hour), time.Second, 0)
	if err := demo.SeedMovies(ctx, store, g, 500); err != nil {
		return nil, err
	}
	live := search.NewLive(store, catalog.SearchMovies, nil)
	live.Start(ctx)
	for live.WaitReady(ctx) != nil {
	}
	log := slog.New(httpx.LogHandler(httpx.NewJSONHandler(io.Discard, httpx.LogOptions(slog.LevelInfo))))
	return cli.MovieService(cli.ServiceDeps{Store: store, Version: "paths", Logger: log, Metrics: metrics.New(),
		MovieSearch: live}), nil
}

// get serves one GET and returns its body, an error unless it is a 200.
func get(h http.Handler, target string) ([]byte, error) {
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, target, nil))
	if w.Code != http.StatusOK {
		return nil, fmt.Errorf("GET %s: %d %s", target, w.Code, w.Body)
	}
	return w.Body.Bytes(), nil
}

// topActor is the actor with the most movies, whose list has deep
// pages, as a query value.
func topActor(h http.Handler) (string, error) {
	body, err := get(h, "/api/movies/facets?field=actor&limit=1")
	if err != nil {
		return "", err
	}
	var page struct {
		List []struct{ Value string } `json:"list"`
	}
	if err := json.Unmarshal(body, &page); err != nil {
		return "", err
	}
	if len(page.List) == 0 {
		return "", fmt.Errorf("no actor in the demo catalog")
	}
	return url.QueryEscape(page.List[0].Value), nil
}

// counted serves target and returns the functions, by file under
// internal/, whose coverage counters moved meanwhile. The counters are
// written out just before and just after, and read afterwards, so that
// the window holds the request alone.
func counted(dir string, h http.Handler, target string) (map[string][]string, error) {
	before, err := writeCounters(dir)
	if err != nil {
		return nil, err
	}
	if _, err := get(h, target); err != nil {
		return nil, err
	}
	after, err := writeCounters(dir)
	if err != nil {
		return nil, err
	}
	b, err := readCounters(before)
	if err != nil {
		return nil, err
	}
	a, err := readCounters(after)
	if err != nil {
		return nil, err
	}
	return ran(b, a)
}

// writeCounters writes the process's coverage counters (with the meta
// data they need) into a new folder in dir, which it returns.
func writeCounters(dir string) (string, error) {
	snap, err := os.MkdirTemp(dir, "counters")
	if err != nil {
		return "", err
	}
	if err := coverage.WriteMetaDir(snap); err != nil {
		return "", fmt.Errorf("%w: build with -cover -covermode=atomic -coverpkg=catalog/internal/...,catalog/bench/paths", err)
	}
	return snap, coverage.WriteCountersDir(snap)
}

// readCounters reads the counters writeCounters wrote in snap, by
// block ("catalog/internal/x/y.go:12.5,14.2").
func readCounters(snap string) (map[string]int64, error) {
	out := filepath.Join(snap, "profile.txt")
	if b, err := exec.Command("go", "tool", "covdata", "textfmt", "-i="+snap, "-o="+out).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("go tool covdata: %v\n%s", err, b)
	}
	f, err := os.Open(out)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	counts := map[string]int64{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// "catalog/internal/x/y.go:12.5,14.2 3 7": block, statements, count.
		fields := strings.Fields(sc.Text())
		if len(fields) != 3 {
			continue // the "mode:" line
		}
		n, err := strconv.ParseInt(fields[2], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("coverage line %q: %v", sc.Text(), err)
		}
		counts[fields[0]] += n
	}
	return counts, sc.Err()
}

// ran gives the functions, by file under internal/, whose blocks moved
// between two readings of the counters; a closure counts as the
// function it is written in.
func ran(before, after map[string]int64) (map[string][]string, error) {
	out := map[string][]string{}
	decls := map[string][]ast.Decl{}
	fset := token.NewFileSet()
	for b, n := range after {
		if n <= before[b] {
			continue
		}
		file, pos, _ := strings.Cut(b, ":")
		file = strings.TrimPrefix(file, "catalog/")
		if !strings.HasPrefix(file, "internal/") {
			continue
		}
		line, err := strconv.Atoi(strings.Split(pos, ".")[0])
		if err != nil {
			return nil, fmt.Errorf("coverage block %q: %v", b, err)
		}
		fs, ok := decls[file]
		if !ok {
			f, err := parser.ParseFile(fset, file, nil, parser.SkipObjectResolution)
			if err != nil {
				return nil, err
			}
			fs = f.Decls
			decls[file] = fs
		}
		name := "?"
		for _, d := range fs {
			if fset.Position(d.Pos()).Line <= line && line <= fset.Position(d.End()).Line {
				name = declName(d)
				break
			}
		}
		if !slices.Contains(out[file], name) {
			out[file] = append(out[file], name)
		}
	}
	return out, nil
}

// both keeps the functions in a and b, each file's sorted, and counts
// them.
func both(a, b map[string][]string) (map[string][]string, int) {
	out := map[string][]string{}
	n := 0
	for file, fs := range a {
		for _, f := range fs {
			if slices.Contains(b[file], f) {
				out[file] = append(out[file], f)
				n++
			}
		}
		slices.Sort(out[file])
	}
	return out, n
}

// declName is "Type.Method" or "Func" for a function, and "var X" for
// a function literal in the value of a package-level X.
func declName(d ast.Decl) string {
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Recv == nil || len(d.Recv.List) == 0 {
			return d.Name.Name
		}
		typ := d.Recv.List[0].Type
		if s, ok := typ.(*ast.StarExpr); ok {
			typ = s.X
		}
		if g, ok := typ.(*ast.IndexExpr); ok {
			typ = g.X
		}
		if id, ok := typ.(*ast.Ident); ok {
			return id.Name + "." + d.Name.Name
		}
		return d.Name.Name
	case *ast.GenDecl:
		var names []string
		for _, sp := range d.Specs {
			if v, ok := sp.(*ast.ValueSpec); ok {
				for _, n := range v.Names {
					names = append(names, n.Name)
				}
			}
		}
		return "var " + strings.Join(names, ",")
	}
	return "?"
}
