package catalog_test

import (
	"slices"
	"testing"

	"catalog/internal/catalog"
)

// The clip columns as the migrations name them, and a round trip of
// every read column.
func TestClipColumns(t *testing.T) {
	var names []string
	in := catalog.Clip{Title: "Ä Title", IframeURL: "https://a.example/e", CoverURL: "https://a.example/c.jpg",
		Actor: "actor", Studio: "studio", Platform: "youtube", Notes: "notes"}
	var out catalog.Clip
	for _, c := range catalog.ClipColumns() {
		names = append(names, c.Name)
		if c.Dest == nil {
			if c.Value(&in) != catalog.SearchText(in.Title, "") {
				t.Errorf("%s = %v, want SearchText(title)", c.Name, c.Value(&in))
			}
			continue
		}
		*c.Dest(&out).(*string) = c.Value(&in).(string)
	}
	want := []string{"title", "title_fold", "iframe_url", "cover_url", "actor", "studio", "platform", "notes"}
	if !slices.Equal(names, want) {
		t.Errorf("ClipColumns() = %q, want %q", names, want)
	}
	if out != in {
		t.Errorf("written and read back:\n got %+v\nwant %+v", out, in)
	}
}

// The create and patch members are contract 3.5's, in its order, and
// the two required ones are title and iframe_url.
func TestClipFieldTable(t *testing.T) {
	want := []string{"title", "iframe_url", "cover_url", "actor", "studio", "platform", "notes"}
	if !slices.Equal(catalog.ClipFields, want) {
		t.Errorf("ClipFields = %q, want %q", catalog.ClipFields, want)
	}
	var required []string
	for _, spec := range catalog.ClipFieldSpecs() {
		if spec.Required {
			required = append(required, spec.Name)
		}
	}
	if !slices.Equal(required, []string{"title", "iframe_url"}) {
		t.Errorf("required = %q, want title and iframe_url", required)
	}
}
