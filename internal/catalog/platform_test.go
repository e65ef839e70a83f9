package catalog_test

import (
	"slices"
	"strings"
	"testing"

	"catalog/internal/catalog"
)

func TestDefaultPlatforms(t *testing.T) {
	p, err := catalog.NewPlatforms(catalog.DefaultPlatforms())
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"JAV", "JAVJAV", "JAVJAVJAV", "คลิปหลุด", "ทวิต"}
	if got := p.List(); !slices.Equal(got, want) {
		t.Errorf("List() = %q, want %q", got, want)
	}
	// A caller that changes its copy changes no one else's defaults.
	mine := catalog.DefaultPlatforms()
	mine[0] = "changed"
	_ = append(mine[:1], "appended")
	if got := catalog.DefaultPlatforms(); !slices.Equal(got, want) {
		t.Errorf("DefaultPlatforms() after a caller changed its copy = %q, want %q", got, want)
	}
}

func TestNewPlatformsErrors(t *testing.T) {
	tests := []struct {
		name   string
		values []string
	}{
		{"nil", nil},
		{"empty list", []string{}},
		{"empty value", []string{"JAV", ""}},
		{"blank value", []string{"JAV", "  "}},
		{"duplicate", []string{"JAV", "X", "JAV"}},
		{"duplicate after trim", []string{"JAV", " JAV "}},
		{"duplicate after NFC", []string{"Café", "Cafe\u0301"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := catalog.NewPlatforms(tt.values)
			if err == nil {
				t.Fatalf("NewPlatforms(%q) = %v, want an error", tt.values, p.List())
			}
			if code := catalog.ErrorCode(err); code != catalog.EINVALID {
				t.Errorf("code = %q, want %q", code, catalog.EINVALID)
			}
		})
	}
}

func TestParsePlatforms(t *testing.T) {
	tests := []struct {
		csv  string
		want []string // nil = error
	}{
		{"JAV,JAVJAV,JAVJAVJAV,คลิปหลุด,ทวิต", []string{"JAV", "JAVJAV", "JAVJAVJAV", "คลิปหลุด", "ทวิต"}},
		{"Zeta, Alpha ,Mid", []string{"Zeta", "Alpha", "Mid"}},
		{"Cafe\u0301", []string{"Café"}},
		{"", nil},
		{",", nil},
		{"A,,B", nil},
		{"A,B,", nil},
		{"A,B,A", nil},
	}
	for _, tt := range tests {
		t.Run(tt.csv, func(t *testing.T) {
			p, err := catalog.ParsePlatforms(tt.csv)
			if tt.want == nil {
				if err == nil {
					t.Fatalf("ParsePlatforms(%q) = %q, want an error", tt.csv, p.List())
				}
				return
			}
			if err != nil {
				t.Fatalf("ParsePlatforms(%q): %v", tt.csv, err)
			}
			if got := p.List(); !slices.Equal(got, tt.want) {
				t.Errorf("List() = %q, want %q", got, tt.want)
			}
			if got, want := p.Allowed(), strings.Join(tt.want, ", "); got != want {
				t.Errorf("Allowed() = %q, want %q", got, want)
			}
		})
	}
}

func TestPlatformsNormalize(t *testing.T) {
	p, err := catalog.NewPlatforms([]string{"JAV", "คลิปหลุด", "Café", "Ελληνικά"})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		in, want string
		ok       bool
	}{
		{"JAV", "JAV", true},
		{"jav", "", false},  // case-sensitive
		{"JAV ", "", false}, // callers trim; Normalize compares exactly
		{"คลิปหลุด", "คลิปหลุด", true},
		{"Café", "Café", true},
		{"Cafe\u0301", "Café", true},         // NFD input
		{"Ελληνικα\u0301", "Ελληνικά", true}, // NFD Greek
		{"Cafe", "", false},
		{"", "", false},
	}
	for _, tt := range tests {
		got, ok := p.Normalize(tt.in)
		if ok != tt.ok || (ok && got != tt.want) {
			t.Errorf("Normalize(%q) = %q, %v, want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}
