package locale

import (
	"testing"
	"testing/fstest"
)

// TestAddALanguage: a language is one more file in the folder. It shows
// in the switcher under its own name, and a message it lacks falls back
// to English (TestCatalogsComplete keeps the real files from lacking
// any).
func TestAddALanguage(t *testing.T) {
	fsys := fstest.MapFS{
		"m/en.toml": {Data: []byte("[language]\nname = \"English\"\n[site]\nname = \"Clip catalog\"\nskip = \"Skip to content\"\n")},
		"m/ja.toml": {Data: []byte("[language]\nname = \"日本語\"\n[site]\nname = \"クリップ目録\"\n")},
	}
	c, err := load(fsys, "m")
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Languages(); len(got) != 2 || got[1] != (Language{Tag: "ja", Name: "日本語"}) {
		t.Fatalf("languages %v, want en then ja (日本語)", got)
	}
	if tag, ok := c.Match("ja-JP, en;q=0.5"); !ok || tag != "ja" {
		t.Errorf("Match(ja-JP) = %q %v, want ja", tag, ok)
	}
	ja := c.Get("ja")
	if got := ja.T("site.name"); got != "クリップ目録" {
		t.Errorf("site.name in ja: %q", got)
	}
	if got := ja.T("site.skip"); got != "Skip to content" {
		t.Errorf("a message ja lacks: %q, want the English", got)
	}
	if _, err := load(fstest.MapFS{"m/th.toml": {Data: []byte("[language]\nname = \"ไทย\"\n")}}, "m"); err == nil {
		t.Error("a folder without en.toml loaded")
	}
}
