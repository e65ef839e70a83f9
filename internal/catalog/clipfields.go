package catalog

import (
	"slices"
	"strings"
)

// The clip field table: the one place a clip field is declared, as the
// movie field table is for movies. The create and patch members
// (ClipFields, ClipInput), their rules (ClipInput.Apply), the served
// JSON (Clip.AppendJSON), both engines' column lists, scans and values,
// the import members, the export columns, the console's clip form and
// the OpenAPI schemas are derived from it, so a new clip field is a row
// here, its Clip and ClipInput members, plus one migration per engine.

// clipSpec is one row of the table. Its kind is kindText or kindURL,
// or kindPlatform for the platform.
type clipSpec struct {
	json      string
	kind      fieldKind
	maxRunes  int  // kindText
	multiline bool // kindText: newlines and tabs allowed
	required  bool // on create, and never emptied by a patch
	text      func(c *Clip) *string
	input     func(in *ClipInput) **string
	// label and hint name the field in the console's form; doc
	// describes it in the OpenAPI documents, schema names the document's
	// component that holds its create and patch rules.
	label, hint, doc, schema string
}

// kindPlatform is a clip's platform: "" or one of the configured values.
const kindPlatform fieldKind = 255

// clipSpecs are the clip's fields after the id, in canonical order
// (contract 3.1); created_at follows them.
var clipSpecs = [...]clipSpec{
	{json: "title", kind: kindText, maxRunes: MaxTitleRunes, required: true,
		text: func(c *Clip) *string { return &c.Title }, input: func(in *ClipInput) **string { return &in.Title },
		label: "Title", schema: "ClipTitle"},
	{json: "iframe_url", kind: kindURL, required: true,
		text: func(c *Clip) *string { return &c.IframeURL }, input: func(in *ClipInput) **string { return &in.IframeURL },
		label: "Player URL", hint: "The address the player iframe loads, e.g. https://www.youtube.com/embed/…",
		doc: "Absolute http(s) URL of the player; at most ${MaxURLBytes} bytes.", schema: "ClipIframeURL"},
	{json: "cover_url", kind: kindURL,
		text: func(c *Clip) *string { return &c.CoverURL }, input: func(in *ClipInput) **string { return &in.CoverURL },
		label: "Cover image URL", hint: "Leave empty to derive it from a YouTube or Dailymotion player URL.",
		doc: `Absolute http(s) URL, or "" when none was given or derived; at most ${MaxURLBytes} bytes.`, schema: "ClipCoverURL"},
	{json: "actor", kind: kindText, maxRunes: MaxNameRunes,
		text: func(c *Clip) *string { return &c.Actor }, input: func(in *ClipInput) **string { return &in.Actor },
		label: "Actor", schema: "ClipName"},
	{json: "studio", kind: kindText, maxRunes: MaxNameRunes,
		text: func(c *Clip) *string { return &c.Studio }, input: func(in *ClipInput) **string { return &in.Studio },
		label: "Studio", schema: "ClipName"},
	{json: "platform", kind: kindPlatform,
		text: func(c *Clip) *string { return &c.Platform }, input: func(in *ClipInput) **string { return &in.Platform },
		label: "Platform", doc: `"" or one platform value.`, schema: "ClipPlatform"},
	{json: "notes", kind: kindText, maxRunes: MaxNotesRunes, multiline: true,
		text: func(c *Clip) *string { return &c.Notes }, input: func(in *ClipInput) **string { return &in.Notes },
		label: "Notes", schema: "ClipNotes"},
}

// Derived from the table at init.
var (
	// ClipFields are the members a create or patch body may carry.
	ClipFields = func() []string {
		names := make([]string, len(clipSpecs))
		for i, s := range clipSpecs {
			names[i] = s.json
		}
		return names
	}()
	// clipKeys are the fields' JSON keys as AppendJSON writes them,
	// each after a comma.
	clipKeys = func() (keys [len(clipSpecs)]string) {
		for i, s := range clipSpecs {
			keys[i] = `,"` + s.json + `":`
		}
		return keys
	}()
	clipColumns = func() []ClipColumn {
		var cols []ClipColumn
		for _, s := range clipSpecs {
			text := s.text
			cols = append(cols, ClipColumn{Name: s.json,
				Dest:  func(c *Clip) any { return text(c) },
				Value: func(c *Clip) any { return *text(c) }})
			if s.json == "title" {
				// title_fold is what searches match (SearchText),
				// derived from the title and never read back.
				cols = append(cols, ClipColumn{Name: "title_fold", Value: func(c *Clip) any { return SearchText(c.Title, "") }})
			}
		}
		return cols
	}()
)

// ClipColumn is one stored column of a clip.
type ClipColumn = Column[Clip]

// ClipColumns returns the stored columns of a clip besides id and
// created_at, in canonical order, title_fold after title. The result is
// the caller's to keep.
func ClipColumns() []ClipColumn { return slices.Clone(clipColumns) }

// ClipFieldSpec is a clip field as the packages that derive their own
// lists from it (the console's form, the OpenAPI document) see it.
type ClipFieldSpec struct {
	Name      string
	MaxRunes  int  // text fields
	Multiline bool // text fields whose newlines are kept
	URL       bool // an absolute http(s) URL or ""
	Platform  bool // "" or one configured platform
	Required  bool // on create
	// Label and Hint name the field in the console, Doc describes it in
	// the OpenAPI document ("" for none; it may hold the document's
	// ${Name} placeholders), Schema names the document's component of
	// its create and patch rules.
	Label, Hint, Doc, Schema string
}

// ClipFieldSpecs lists the clip's fields after the id, in canonical
// order.
func ClipFieldSpecs() []ClipFieldSpec {
	out := make([]ClipFieldSpec, len(clipSpecs))
	for i, s := range clipSpecs {
		out[i] = ClipFieldSpec{Name: s.json, MaxRunes: s.maxRunes, Multiline: s.multiline, URL: s.kind == kindURL,
			Platform: s.kind == kindPlatform, Required: s.required, Label: s.label, Hint: s.hint, Doc: s.doc, Schema: s.schema}
	}
	return out
}

// EachClipField calls fn with every field of c after the id, in
// canonical order (ClipFields).
func EachClipField(c *Clip, fn func(name, value string)) {
	for _, s := range clipSpecs {
		fn(s.json, *s.text(c))
	}
}

// apply checks the value v of this field (nil: absent) and writes it to
// next; required says an absent or empty value is an error.
func (s *clipSpec) apply(next *Clip, v *string, platforms *Platforms, required bool, fe FieldErrors) {
	if v == nil {
		if required {
			fe.Add(s.json, "is required")
		}
		return
	}
	dst := s.text(next)
	switch s.kind {
	case kindPlatform:
		p := strings.TrimSpace(*v)
		if p == "" {
			*dst = ""
		} else if norm, ok := platforms.Normalize(p); ok {
			*dst = norm
		} else {
			fe.Add(s.json, "must be one of: "+platforms.Allowed())
		}
	case kindURL:
		u := strings.TrimSpace(*v)
		switch {
		case u == "" && required:
			fe.Add(s.json, "is required")
		case u == "":
			*dst = ""
		default:
			if msg := CheckURL(u); msg != "" {
				fe.Add(s.json, msg)
				return
			}
			*dst = u
		}
	default:
		t := CleanText(*v)
		if s.multiline {
			t = strings.ReplaceAll(t, "\r\n", "\n")
		}
		if t == "" && required {
			fe.Add(s.json, "is required")
			return
		}
		if msg := checkText(t, s.maxRunes, s.multiline); msg != "" {
			fe.Add(s.json, msg)
			return
		}
		*dst = t
	}
}
