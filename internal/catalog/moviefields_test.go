package catalog_test

import (
	"database/sql"
	"reflect"
	"slices"
	"testing"

	"catalog/internal/catalog"
)

// The field table's derived lists, pinned as the contract spells them
// (4.1 served keys, 4.6 import and export members) and as the
// migrations name the columns.
func TestMovieFieldTable(t *testing.T) {
	wantMembers := []string{"id", "name", "slug", "year", "poster1_url", "poster2_url",
		"categories", "actor", "director", "studio", "genre", "country",
		"synopsis", "id_code", "release", "score", "douban_id", "episodes"}
	if got := catalog.MovieMembers(); !slices.Equal(got, wantMembers) {
		t.Errorf("MovieMembers() = %q, want %q", got, wantMembers)
	}
	var names []string
	var long []string
	for _, c := range catalog.MovieColumns() {
		names = append(names, c.Name)
		if c.Long {
			long = append(long, c.Name)
		}
		if (c.Dest == nil) != (c.Name == "name_fold" || c.Name == "title_key" || c.Name == "play_kinds") {
			t.Errorf("column %s: Dest nil = %v; only name_fold, title_key and play_kinds are written and never read", c.Name, c.Dest == nil)
		}
	}
	wantColumns := []string{"name", "name_fold", "title_key", "slug", "year", "poster1_url", "poster2_url",
		"categories_json", "categories", "actor_json", "actor", "director_json", "director",
		"studio_json", "studio", "genre_json", "genre", "country_json", "country",
		"synopsis", "id_code", "release", "score", "douban_id", "episodes", "play_kinds"}
	if !slices.Equal(names, wantColumns) {
		t.Errorf("MovieColumns() = %q, want %q", names, wantColumns)
	}
	wantLong := []string{"categories_json", "categories", "actor_json", "actor", "director_json", "director",
		"studio_json", "studio", "genre_json", "genre", "country_json", "country", "synopsis", "episodes"}
	if !slices.Equal(long, wantLong) {
		t.Errorf("long columns = %q, want %q", long, wantLong)
	}
	// A keyed read of a page reads exactly the columns of its fields.
	for _, tt := range []struct {
		fields string
		legacy bool
		want   []string
	}{
		{"id,title", false, []string{"name"}},
		{"id", false, nil},
		{"actor,year", false, []string{"year", "actor_json", "actor"}},
		{"id,URL_player", true, []string{"episodes", "link_health"}},
		{"episodes,URL_player", true, []string{"episodes", "link_health"}},
		{"synopsis,release", false, []string{"synopsis", "release"}},
	} {
		fs, err := catalog.ParseFields(tt.fields, tt.legacy)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, c := range catalog.MovieFieldColumns(fs) {
			got = append(got, c.Name)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("MovieFieldColumns(%s) = %q, want %q", tt.fields, got, tt.want)
		}
	}
	var every, read []string
	for _, c := range catalog.MovieFieldColumns(catalog.AllFields(true)) {
		every = append(every, c.Name)
	}
	for _, c := range catalog.MovieReadColumns() {
		read = append(read, c.Name)
	}
	if !slices.Equal(every, read) {
		t.Errorf("MovieFieldColumns(every field) = %q, want every read column %q", every, read)
	}
	if want := [6]string{"categories", "actor", "director", "studio", "genre", "country"}; catalog.ListNames != want {
		t.Errorf("ListNames = %q, want %q", catalog.ListNames, want)
	}
}

// Every column's Dest and Value address the same member of a Movie, so
// what an engine writes is what it reads back.
func TestMovieColumnsRoundTrip(t *testing.T) {
	var in catalog.Movie
	in.Name = "Ä title"
	in.Episodes = []catalog.Server{{Name: "Main", Episodes: []catalog.Episode{{Name: "Ep 1", Slug: "ep-1", LinkM3U8: "https://cdn.example/1.m3u8"}}}}
	for i, c := range catalog.MovieColumns() {
		if c.Dest == nil {
			continue
		}
		switch p := c.Dest(&in).(type) {
		case *string:
			if *p == "" {
				*p = c.Name + string(rune('a'+i))
			}
		case *int64:
			*p = int64(i + 1)
		}
	}
	var out catalog.Movie
	for _, c := range catalog.MovieColumns() {
		switch {
		case c.Name == "play_kinds":
			if got := c.Value(&in); got != int64(catalog.PlayKindM3U8) {
				t.Errorf("%s = %v, want the m3u8 bit", c.Name, got)
			}
		case c.Name == "title_key":
			if got := c.Value(&in); got != catalog.TitleKey(in.Name) {
				t.Errorf("%s = %q, want TitleKey(name)", c.Name, got)
			}
		case c.Dest == nil:
			if got := c.Value(&in); got != catalog.SearchText(in.Name, in.IDCode) {
				t.Errorf("%s = %q, want SearchText(name, id_code)", c.Name, got)
			}
		default:
			switch d := c.Dest(&out).(type) {
			case *string:
				*d = c.Value(&in).(string)
			case *int64:
				*d = c.Value(&in).(int64)
			case sql.Scanner:
				if err := d.Scan(c.Value(&in)); err != nil {
					t.Errorf("%s: %v", c.Name, err)
				}
			default:
				t.Errorf("%s: Dest is a %T", c.Name, d)
			}
		}
	}
	out.ID, out.UpdatedAt = in.ID, in.UpdatedAt
	if !reflect.DeepEqual(out, in) {
		t.Errorf("written and read back:\n got %+v\nwant %+v", out, in)
	}
	var empty catalog.Movie
	for _, c := range catalog.MovieColumns() {
		if (c.Name == "actor_json" || c.Name == "episodes") && c.Value(&empty) != "[]" {
			t.Errorf("an empty %s is stored as %v, want []", c.Name, c.Value(&empty))
		}
	}
}

// The fields a full MacCMS record carries as they are, by the keys
// contract 6 gives them, and their XML elements.
func TestMovieVodMembers(t *testing.T) {
	got := map[string]string{}
	xml := map[string]string{}
	for _, spec := range catalog.MovieFieldSpecs() {
		if spec.Vod != "" {
			got[spec.Member] = spec.Vod
		}
		if spec.VodXML != "" {
			xml[spec.Member] = spec.VodXML
		}
	}
	want := map[string]string{"year": "vod_year", "poster1_url": "vod_pic_slide", "actor": "vod_actor", "director": "vod_director",
		"genre": "vod_class", "country": "vod_area", "synopsis": "vod_content", "id_code": "vod_sub", "release": "vod_pubdate"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("vod keys = %v, want %v", got, want)
	}
	wantXML := map[string]string{"year": "year", "actor": "actor", "director": "director", "country": "area", "synopsis": "des", "id_code": "subname"}
	if !reflect.DeepEqual(xml, wantXML) {
		t.Errorf("XML elements = %v, want %v", xml, wantXML)
	}
	m := catalog.Movie{Year: "2019"}
	m.Lists[1] = catalog.NewList([]string{"A, B", "C"})
	if got := m.VodText(catalog.FieldActor); got != "A, B,C" {
		t.Errorf("VodText(actor) = %q, want the items joined with a comma", got)
	}
	if got := m.VodText(catalog.FieldYear); got != "2019" {
		t.Errorf("VodText(year) = %q", got)
	}
}
