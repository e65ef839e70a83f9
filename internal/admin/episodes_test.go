package admin_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"catalog/internal/catalog"
	"catalog/internal/importer"
	"catalog/internal/testdb"
)

// The movie form edits servers and episodes as blocks, one episode a
// line as NAME | EMBED URL | M3U8 URL (contract 9), without JavaScript:
// every server shows, plus one empty block to add another.
func TestConsoleMovieEpisodes(t *testing.T) {
	t.Parallel()
	c := newConsole(t)
	ctx := context.Background()
	form := url.Values{
		"name":          {"Series"},
		"server_name.0": {"Main"},
		"server_data.0": {"Ep 1 | https://p.example/e/1 | https://cdn.example/1.m3u8\r\n\r\nตอนที่ 2 |  | https://cdn.example/2.m3u8?a=$b#c\r\n"},
		"server_name.2": {"Backup"}, // a gap between blocks is fine
		"server_data.2": {"Full | https://b.example/1"},
	}
	res, _ := c.post("/admin/movies", form)
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("add: got %d", res.StatusCode)
	}
	id, _ := catalog.ParseID(strings.TrimPrefix(res.Header.Get("Location"), "/admin/movies?added="))
	m, err := c.store.GetMovie(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	want := []catalog.Server{
		{Name: "Main", Episodes: []catalog.Episode{
			{Name: "Ep 1", Slug: "ep-1", LinkEmbed: "https://p.example/e/1", LinkM3U8: "https://cdn.example/1.m3u8"},
			{Name: "ตอนที่ 2", Slug: "ตอนที่-2", LinkM3U8: "https://cdn.example/2.m3u8?a=$b#c"}}},
		{Name: "Backup", Episodes: []catalog.Episode{{Name: "Full", Slug: "full", LinkEmbed: "https://b.example/1"}}},
	}
	if !reflect.DeepEqual(m.Episodes, want) {
		t.Fatalf("stored episodes:\n got %+v\nwant %+v", m.Episodes, want)
	}

	// The edit form shows both servers and one empty block.
	_, body := c.get(fmt.Sprintf("/admin/movies/%d/edit", id))
	for _, s := range []string{`name="server_name.0" type="text" value="Main"`, `name="server_name.1" type="text" value="Backup"`, `maxlength="2097152"`, `name="server_data.2"`,
		"Ep 1 | https://p.example/e/1 | https://cdn.example/1.m3u8\nตอนที่ 2 |  | https://cdn.example/2.m3u8?a=$b#c</textarea>"} {
		if !strings.Contains(body, s) {
			t.Errorf("edit form lacks %q", s)
		}
	}
	if strings.Contains(body, `name="server_data.3"`) {
		t.Errorf("edit form shows more than one empty server block")
	}

	// A bad line is reported beside its block, with its line number, and
	// nothing is written.
	bad := url.Values{"name": {"Series"}, "server_name.0": {"Main"}, "server_data.0": {"Ep 1 | https://p.example/1\n\nEp 2 | ftp://x | "},
		"server_name.1": {"Main"}, "server_data.1": {"Ep 1 | | https://cdn.example/1.m3u8"}}
	res, body = c.post(fmt.Sprintf("/admin/movies/%d", id), bad)
	if res.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("bad save: got %d", res.StatusCode)
	}
	for _, s := range []string{`data-error-for="server_data.0"`, "line 3: link_embed must be an absolute http or https URL", `data-error-for="server_name.1"`} {
		if !strings.Contains(body, s) {
			t.Errorf("bad save: page lacks %q", s)
		}
	}
	if got, _ := c.store.GetMovie(ctx, id); !reflect.DeepEqual(got.Episodes, want) {
		t.Errorf("a refused save changed the episodes")
	}

	// Emptying a block removes its server.
	res, _ = c.post(fmt.Sprintf("/admin/movies/%d", id), url.Values{"name": {"Series"}, "server_name.1": {"Backup"}, "server_data.1": {"Full | https://b.example/1"}})
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("save: got %d", res.StatusCode)
	}
	if got, _ := c.store.GetMovie(ctx, id); !reflect.DeepEqual(got.Episodes, want[1:]) {
		t.Errorf("after removing Main: %+v", got.Episodes)
	}
}

// A series of 2,000 episodes is edited through the form.
func TestConsoleLongSeries(t *testing.T) {
	t.Parallel()
	c := newConsole(t)
	var lines []string
	for i := 1; i <= 2000; i++ {
		lines = append(lines, fmt.Sprintf("Ep %d | https://player.example.com/embed/long/%d | https://cdn.example.com/hls/long/%d/index.m3u8", i, i, i))
	}
	form := url.Values{"name": {"Long"}, "server_name.0": {"Main"}, "server_data.0": {strings.Join(lines, "\n")}}
	res, _ := c.post("/admin/movies", form)
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("add: got %d", res.StatusCode)
	}
	id, _ := catalog.ParseID(strings.TrimPrefix(res.Header.Get("Location"), "/admin/movies?added="))
	form.Set("server_data.0", strings.Join(lines[:1999], "\n"))
	if res, _ = c.post(fmt.Sprintf("/admin/movies/%d", id), form); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("save: got %d", res.StatusCode)
	}
	m, err := c.store.GetMovie(context.Background(), id)
	if err != nil || len(m.Episodes[0].Episodes) != 1999 {
		t.Fatalf("after the edit: %v", err)
	}
	if res, body := c.get(fmt.Sprintf("/admin/movies/%d/edit", id)); res.StatusCode != http.StatusOK || !strings.Contains(body, "Ep 1999 |") {
		t.Fatalf("edit form of a long series: %d", res.StatusCode)
	}
}

// deletingStore deletes a movie the moment a save of it starts, after
// the form's movie was read: the race of an edit with a delete from
// another browser.
type deletingStore struct {
	catalog.Store
}

func (d deletingStore) GetMovie(ctx context.Context, id int64) (catalog.Movie, error) {
	m, err := d.Store.GetMovie(ctx, id)
	if err == nil {
		d.Store.DeleteMovie(ctx, id)
	}
	return m, err
}

func (d deletingStore) UpdateMovie(ctx context.Context, m *catalog.Movie) error {
	d.Store.DeleteMovie(ctx, m.ID)
	return d.Store.UpdateMovie(ctx, m)
}

// A movie deleted between the form's load and its save gives the form's
// 404 and is not brought back.
func TestConsoleEditDeletedMovie(t *testing.T) {
	t.Parallel()
	store := testdb.Open(t)
	ctx := context.Background()
	m := catalog.Movie{Name: "Doomed", IDCode: "DOOM-1"}
	if err := m.Normalize(); err != nil {
		t.Fatal(err)
	}
	batch := []catalog.Movie{m}
	if err := store.UpsertMovies(ctx, batch); err != nil {
		t.Fatal(err)
	}
	id := batch[0].ID
	c := newConsoleOn(t, deletingStore{store})
	res, body := c.post(fmt.Sprintf("/admin/movies/%d", id), url.Values{"name": {"Doomed again"}, "id_code": {"DOOM-1"}})
	if res.StatusCode != http.StatusNotFound || !strings.Contains(body, "may have been deleted") {
		t.Errorf("save of a movie deleted meanwhile: got %d, want the form's 404", res.StatusCode)
	}
	if _, err := store.GetMovie(ctx, id); catalog.ErrorCode(err) != catalog.ENOTFOUND {
		t.Errorf("the deleted movie came back: %v", err)
	}
}

// An edit keeps the custom slugs of the episodes it does not rename
// (the form's lines carry no slug), also of two episodes of one name;
// a renamed episode's slug is derived again from its new name.
func TestConsoleEditKeepsEpisodeSlugs(t *testing.T) {
	t.Parallel()
	c := newConsole(t)
	ctx := context.Background()
	m := catalog.Movie{Name: "Slugs", Episodes: []catalog.Server{
		{Name: "Main", Episodes: []catalog.Episode{
			{Name: "Ep 1", Slug: "e01", LinkEmbed: "https://p.example/1"},
			{Name: "Trailer", Slug: "trailer-a", LinkEmbed: "https://p.example/ta"},
			{Name: "Trailer", Slug: "trailer-b", LinkEmbed: "https://p.example/tb"},
			{Name: "Ep 2", Slug: "e02", LinkEmbed: "https://p.example/2"}}},
		{Name: "Backup", Episodes: []catalog.Episode{{Name: "Ep 1", Slug: "b01", LinkM3U8: "https://cdn.example/1.m3u8"}}},
	}}
	if err := m.Normalize(); err != nil {
		t.Fatal(err)
	}
	batch := []catalog.Movie{m}
	if err := c.store.UpsertMovies(ctx, batch); err != nil {
		t.Fatal(err)
	}
	id := batch[0].ID
	_, body := c.get(fmt.Sprintf("/admin/movies/%d/edit", id))
	if !strings.Contains(body, "Trailer | https://p.example/tb | \nEp 2 | https://p.example/2 | </textarea>") {
		t.Fatalf("edit form does not show the episodes as lines")
	}
	form := url.Values{"name": {"Slugs"},
		"server_name.0": {"Main"}, "server_data.0": {"Ep 1 | https://p.example/1-new |\nTrailer | https://p.example/ta |\nTrailer | https://p.example/tb |\nEpisode 2 | https://p.example/2 |\nEp 3 | https://p.example/3 |"},
		"server_name.1": {"Backup"}, "server_data.1": {"Ep 1 | | https://cdn.example/1.m3u8"}}
	if res, _ := c.post(fmt.Sprintf("/admin/movies/%d", id), form); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("save: got %d", res.StatusCode)
	}
	got, err := c.store.GetMovie(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	var slugs []string
	for _, s := range got.Episodes {
		for _, e := range s.Episodes {
			slugs = append(slugs, s.Name+"/"+e.Slug)
		}
	}
	want := []string{"Main/e01", "Main/trailer-a", "Main/trailer-b", "Main/episode-2", "Main/ep-3", "Backup/b01"}
	if !reflect.DeepEqual(slugs, want) {
		t.Errorf("slugs after the edit: got %q, want %q", slugs, want)
	}
}

// formOf reads the values a browser would post from the first form of
// page whose action is action: every named input and textarea.
func formOf(t *testing.T, page, action string) url.Values {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	attr := func(n *html.Node, key string) string {
		for _, a := range n.Attr {
			if a.Key == key {
				return a.Val
			}
		}
		return ""
	}
	var form *html.Node
	for n := range doc.Descendants() {
		if n.Type == html.ElementNode && n.Data == "form" && attr(n, "action") == action {
			form = n
			break
		}
	}
	if form == nil {
		t.Fatalf("no form posting to %s", action)
	}
	values := url.Values{}
	for n := range form.Descendants() {
		if n.Type != html.ElementNode || attr(n, "name") == "" {
			continue
		}
		switch n.Data {
		case "input":
			values.Add(attr(n, "name"), attr(n, "value"))
		case "textarea":
			var text strings.Builder
			for c := range n.ChildNodes() {
				text.WriteString(c.Data)
			}
			values.Add(attr(n, "name"), text.String())
		}
	}
	return values
}

// Everything an import accepts in an episode line can be edited and
// saved: a movie imported with "|" and "\" in its episodes' names (and a
// "|" in a URL) is saved unchanged through the console's form, and a
// name typed with an escaped "|" is stored with it.
func TestConsoleEpisodeNamesWithBars(t *testing.T) {
	t.Parallel()
	c := newConsole(t)
	ctx := context.Background()
	record := `{"name": "Bars", "id_code": "BAR-1", "episodes": [{"server_name": "Main | HD", "server_data": [` +
		`{"name": "Ep 1 | Pilot", "link_embed": "https://p.example/e/1|a", "link_m3u8": "https://cdn.example/1.m3u8"},` +
		`{"name": "A\\|B \\\\ C\\", "link_m3u8": "https://cdn.example/2.m3u8?x=a|b"},` +
		`{"name": "| leading and trailing |", "link_embed": "https://p.example/e/3"},` +
		`{"name": "back\\slash", "link_embed": "https://p.example/e/4"}]}]}`
	sum, err := importer.Movies(ctx, c.store, "bars.jsonl", strings.NewReader(record), importer.Options{})
	if err != nil || sum.Imported != 1 {
		t.Fatalf("import: %+v, %v", sum, err)
	}
	id, err := c.store.MovieIDByKey(ctx, "BAR-1", "")
	if err != nil {
		t.Fatal(err)
	}
	stored, err := c.store.GetMovie(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if got := stored.Episodes[0].Episodes[1].Name; got != `A\|B \\ C\` {
		t.Fatalf("imported name: got %q", got)
	}

	path := fmt.Sprintf("/admin/movies/%d", id)
	_, page := c.get(path + "/edit")
	form := formOf(t, page, path)
	res, body := c.post(path, form)
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("saving the form unchanged: got %d\n%s", res.StatusCode, body)
	}
	saved, err := c.store.GetMovie(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(saved, stored) {
		t.Fatalf("saved unchanged:\n got %+v\nwant %+v", saved, stored)
	}

	// A name typed with \| keeps its bar; a line without escapes reads
	// as before.
	form.Set("server_data.0", `New \| name | https://p.example/n | https://cdn.example/n.m3u8`+"\n"+`Plain | | https://cdn.example/p.m3u8|q`)
	if res, body := c.post(path, form); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("saving typed lines: got %d\n%s", res.StatusCode, body)
	}
	saved, _ = c.store.GetMovie(ctx, id)
	want := []catalog.Episode{
		{Name: "New | name", Slug: catalog.Slugify("New | name"), LinkEmbed: "https://p.example/n", LinkM3U8: "https://cdn.example/n.m3u8"},
		{Name: "Plain", Slug: "plain", LinkM3U8: "https://cdn.example/p.m3u8|q"},
	}
	if !reflect.DeepEqual(saved.Episodes[0].Episodes, want) {
		t.Errorf("typed lines:\n got %+v\nwant %+v", saved.Episodes[0].Episodes, want)
	}
}
