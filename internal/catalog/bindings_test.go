package catalog_test

import (
	"testing"

	"catalog/internal/catalog"
)

// Auto-binding's order (contract 10): a local category of the same
// folded name first, then the operator's rules, then the shipped
// synonym table (the row's local category when one exists, else the
// row's first name); nothing else binds.
func TestAutoBind(t *testing.T) {
	rules := []catalog.Synonym{{Local: "Cinema", Remote: "Movies"}, {Local: "Kids", Remote: "少儿"}}
	for _, tt := range []struct {
		remote string
		local  []string
		want   string
	}{
		{"MOVIES", []string{"movies", "Cinema"}, "movies"}, // folded name beats the rule
		{"Movies", []string{"电影"}, "Cinema"},               // the rule beats the table
		{"少兒", nil, "Kids"},                                // rules compare folded names
		{"Film", []string{"Movie"}, "Movie"},               // the table: the row's existing category
		{"電影片", nil, "电影"},                                 // the table, folded; the row's first name
		{"连续剧", []string{"TV"}, "TV"},                      // Chinese to an English local
		{"Documentary", []string{"纪录片", "Docs"}, "纪录片"},
		{"Anime", nil, "动漫"},
		{"综艺节目", nil, "综艺"},
		{"Horror", []string{"Drama"}, ""}, // nothing binds: unbound
		{"", []string{""}, ""},
	} {
		if got := catalog.AutoBind(tt.remote, tt.local, rules); got != tt.want {
			t.Errorf("AutoBind(%q, %q): got %q, want %q", tt.remote, tt.local, got, tt.want)
		}
	}
}

func TestParseSynonymsAndGone(t *testing.T) {
	rules, err := catalog.ParseSynonyms("电影=电影片, Kids=少儿\nTV=Series")
	if err != nil || len(rules) != 3 || rules[1] != (catalog.Synonym{Local: "Kids", Remote: "少儿"}) {
		t.Fatalf("ParseSynonyms: %+v, %v", rules, err)
	}
	if back, _ := catalog.ParseSynonyms(catalog.FormatSynonyms(rules)); len(back) != 3 || back[2] != rules[2] {
		t.Errorf("FormatSynonyms does not read back: %+v", back)
	}
	for _, bad := range []string{"电影", "=x", "x="} {
		if _, err := catalog.ParseSynonyms(bad); catalog.ErrorCode(err) != catalog.EINVALID {
			t.Errorf("ParseSynonyms(%q): %v, want EINVALID", bad, err)
		}
	}
	if g, err := catalog.ParseGone(""); g != catalog.GoneKeep || err != nil {
		t.Errorf("ParseGone(\"\"): %q, %v", g, err)
	}
	if _, err := catalog.ParseGone("purge"); err == nil {
		t.Error("ParseGone(purge): no error")
	}
}
