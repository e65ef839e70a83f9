// Package gen_test reads a live serve --demo with the Go clients that
// oapi-codegen generates from the services' OpenAPI documents
// (clipclient, movieclient; .ci/clients.sh regenerates them and checks
// that the committed code is what the served documents give).
package gen_test

import (
	"context"
	"io"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"catalog/internal/cli"
	"catalog/internal/gen/clipclient"
	"catalog/internal/gen/movieclient"
)

// serveDemo runs serve --demo in this process until the test ends and
// returns the base URLs of the clip and movie services.
func serveDemo(t *testing.T) (clips, movies string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	listening := make(chan cli.Addrs, 1)
	done := make(chan error, 1)
	env := map[string]string{"CATALOG_CLIPS_ADDR": "127.0.0.1:0", "CATALOG_MOVIES_ADDR": "127.0.0.1:0"}
	p := &cli.Program{Getenv: func(k string) string { return env[k] }, Stdin: strings.NewReader(""),
		Stdout: io.Discard, Stderr: io.Discard, Version: "gen-test", Listening: func(a cli.Addrs) { listening <- a }}
	go func() { done <- p.Run(ctx, []string{"serve", "--demo"}) }()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	select {
	case a := <-listening:
		return "http://" + a.Clips.String(), "http://" + a.Movies.String()
	case err := <-done:
		t.Fatalf("serve --demo stopped before listening: %v", err)
	case <-time.After(60 * time.Second):
		t.Fatal("serve --demo did not start listening")
	}
	return "", ""
}

func TestGeneratedClientsReadServeDemo(t *testing.T) {
	clipsURL, moviesURL := serveDemo(t)
	ctx := context.Background()

	t.Run("clips", func(t *testing.T) {
		c, err := clipclient.NewClientWithResponses(clipsURL)
		if err != nil {
			t.Fatal(err)
		}
		health, err := c.HealthWithResponse(ctx, nil)
		if err != nil {
			t.Fatalf("health: %v", err)
		}
		if health.JSON200 == nil || health.JSON200.Status != "ok" || health.JSON200.Version != "gen-test" || !health.JSON200.Search.Valid() {
			t.Fatalf("health: got %+v; want ok, version gen-test, search ready or building", health.JSON200)
		}
		limit := 5
		list, err := c.ListClipsWithResponse(ctx, &clipclient.ListClipsParams{Limit: &limit})
		if err != nil || list.JSON200 == nil {
			t.Fatalf("list: got status %d, %v", list.StatusCode(), err)
		}
		// The demo catalog has 300 clips, newest first.
		if got := list.JSON200; got.Meta.Total != 300 || got.Meta.Limit != 5 || len(got.Data) != 5 || got.Data[0].Id <= got.Data[1].Id {
			t.Fatalf("list: got meta %+v and %d clips, want total 300, limit 5, newest first", got.Meta, len(got.Data))
		}
		first := list.JSON200.Data[0]
		one, err := c.GetClipWithResponse(ctx, strconv.FormatInt(first.Id, 10))
		if err != nil || one.JSON200 == nil || one.JSON200.Data.Title != first.Title || !one.JSON200.Data.CreatedAt.Equal(first.CreatedAt) {
			t.Fatalf("clip %d: got %+v, %v; want %+v", first.Id, one.JSON200, err, first)
		}
		missing, err := c.GetClipWithResponse(ctx, "999999")
		if err != nil || missing.JSON404 == nil || missing.JSON404.Error.Status != 404 {
			t.Fatalf("clip 999999: got status %d, %+v, %v; want the 404 error shape", missing.StatusCode(), missing.JSON404, err)
		}
		platforms, err := c.ListPlatformsWithResponse(ctx)
		if err != nil || platforms.JSON200 == nil || len(platforms.JSON200.Data) != 5 || platforms.JSON200.Data[0] != "JAV" ||
			!slices.Contains(platforms.JSON200.Data, "คลิปหลุด") {
			t.Fatalf("platforms: got %+v, %v; want the five defaults, JAV first, คลิปหลุด among them", platforms.JSON200, err)
		}
	})

	t.Run("movies", func(t *testing.T) {
		c, err := movieclient.NewClientWithResponses(moviesURL)
		if err != nil {
			t.Fatal(err)
		}
		limit := 3
		list, err := c.ListMoviesWithResponse(ctx, &movieclient.ListMoviesParams{Limit: &limit})
		if err != nil || list.JSON200 == nil {
			t.Fatalf("list: got status %d, %v", list.StatusCode(), err)
		}
		// The demo catalog has 240 movies: 80 pages of 3.
		if got := list.JSON200; got.Total != 240 || got.Pagecount != 80 || got.Limit != "3" || len(got.List) != 3 {
			t.Fatalf("list: got total %d, pagecount %d, limit %q, %d movies; want 240, 80, \"3\", 3", got.Total, got.Pagecount, got.Limit, len(got.List))
		}
		first := list.JSON200.List[0]
		if first.Id == nil || first.Title == nil {
			t.Fatalf("list: the first movie has no id or title: %+v", first)
		}
		one, err := c.GetMovieWithResponse(ctx, strconv.FormatInt(*first.Id, 10), nil)
		if err != nil || one.JSON200 == nil || one.JSON200.Data.Title == nil || *one.JSON200.Data.Title != *first.Title {
			t.Fatalf("movie %d: got %+v, %v; want title %q", *first.Id, one.JSON200, err, *first.Title)
		}
		jav, err := c.ListJavWithResponse(ctx, &movieclient.ListJavParams{Limit: &limit})
		if err != nil || jav.JSON200 == nil || jav.JSON200.Total != 240 || len(jav.JSON200.List) != 3 {
			t.Fatalf("jav: got status %d, %+v, %v; want 3 of 240", jav.StatusCode(), jav.JSON200, err)
		}
		missing, err := c.GetMovieWithResponse(ctx, "999999", nil)
		if err != nil || missing.JSON404 == nil || missing.JSON404.Msg != "movie not found" {
			t.Fatalf("movie 999999: got status %d, %+v, %v; want the 404 envelope", missing.StatusCode(), missing.JSON404, err)
		}
	})
}
