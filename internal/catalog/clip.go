package catalog

import (
	"bytes"
	"encoding/json"
	"strings"
	"time"
	"unicode/utf8"
)

// Clip is one video clip record (contract 3.1).
type Clip struct {
	ID        int64
	Title     string
	IframeURL string
	CoverURL  string
	Actor     string
	Studio    string
	Platform  string
	Notes     string
	CreatedAt time.Time // UTC, whole seconds
}

// Field limits for clips (contract 3.5).
const (
	MaxTitleRunes = 300
	MaxNameRunes  = 200 // actor, studio
	MaxNotesRunes = 5000
	MaxClipBody   = 64 << 10
)

// ClipFields are the members a create or patch body may carry.
var ClipFields = []string{"title", "iframe_url", "cover_url", "actor", "studio", "platform", "notes"}

// ClipInput is a decoded create or patch body. A nil field was absent.
type ClipInput struct {
	Title, IframeURL, CoverURL, Actor, Studio, Platform, Notes *string
}

func (in *ClipInput) field(name string) **string {
	switch name {
	case "title":
		return &in.Title
	case "iframe_url":
		return &in.IframeURL
	case "cover_url":
		return &in.CoverURL
	case "actor":
		return &in.Actor
	case "studio":
		return &in.Studio
	case "platform":
		return &in.Platform
	case "notes":
		return &in.Notes
	}
	return nil
}

// Set sets a field by its JSON name; it reports false for unknown names.
func (in *ClipInput) Set(name, value string) bool {
	f := in.field(name)
	if f == nil {
		return false
	}
	*f = &value
	return true
}

// DecodeClipInput parses a JSON body strictly: it must be one object whose
// members are all known clip fields holding strings (null counts as
// absent). Every problem is reported by field name.
func DecodeClipInput(body []byte) (ClipInput, error) {
	var in ClipInput
	var raw map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(&raw); err != nil || raw == nil {
		return in, Errorf(EINVALID, "body must be a JSON object")
	}
	// dec.More does not see a stray "}" or "]" after the object, so check
	// that only white space follows it.
	if len(bytes.TrimLeft(body[dec.InputOffset():], " \t\r\n")) != 0 {
		return in, Errorf(EINVALID, "body must be a single JSON object")
	}
	fe := FieldErrors{}
	for name, v := range raw {
		f := in.field(name)
		if f == nil {
			fe.Add(name, "is not a known field")
			continue
		}
		if string(v) == "null" {
			continue
		}
		// encoding/json would quietly turn invalid UTF-8 into U+FFFD
		// and store a title the client never sent.
		if !utf8.Valid(v) {
			fe.Add(name, "must be valid UTF-8")
			continue
		}
		var s string
		if err := json.Unmarshal(v, &s); err != nil {
			fe.Add(name, "must be a string")
			continue
		}
		*f = &s
	}
	return in, fe.Err()
}

// Apply validates in and writes it onto c. With create set, title and
// iframe_url are required; otherwise only present fields change (a
// patch). When the resulting cover_url is empty, it is derived from
// iframe_url. Nothing is written to c unless every field is valid.
func (in ClipInput) Apply(c *Clip, platforms *Platforms, create bool) error {
	next := *c
	w := inputWriter{FieldErrors{}}
	w.text("title", in.Title, &next.Title, MaxTitleRunes, false, create || in.Title != nil)
	w.url("iframe_url", in.IframeURL, &next.IframeURL, create || in.IframeURL != nil)
	w.url("cover_url", in.CoverURL, &next.CoverURL, false)
	w.text("actor", in.Actor, &next.Actor, MaxNameRunes, false, false)
	w.text("studio", in.Studio, &next.Studio, MaxNameRunes, false, false)
	w.text("notes", in.Notes, &next.Notes, MaxNotesRunes, true, false)
	if in.Platform != nil {
		p := strings.TrimSpace(*in.Platform)
		if p == "" {
			next.Platform = ""
		} else if v, ok := platforms.Normalize(p); ok {
			next.Platform = v
		} else {
			w.fe.Add("platform", "must be one of: "+platforms.Allowed())
		}
	}
	if err := w.fe.Err(); err != nil {
		return err
	}
	// An absent or empty cover is derived; on a patch only when the
	// caller touched cover_url or iframe_url, so an uploaded cover stays.
	// A cover that was derived from the old iframe_url shows the old
	// video, so a new iframe_url without a cover derives it again.
	if !create && in.CoverURL == nil && in.IframeURL != nil && c.CoverURL == DeriveCover(c.IframeURL) {
		next.CoverURL = ""
	}
	if next.CoverURL == "" && (create || in.CoverURL != nil || in.IframeURL != nil) {
		next.CoverURL = DeriveCover(next.IframeURL)
	}
	*c = next
	return nil
}

// inputWriter writes the members of an input that pass their checks,
// noting each failure under its member's name.
type inputWriter struct{ fe FieldErrors }

// text writes v, cleaned, to dst: absent (nil) leaves dst, which is a
// failure when required; so is empty.
func (w inputWriter) text(name string, v *string, dst *string, maxRunes int, multiline, required bool) {
	if v == nil {
		if required {
			w.fe.Add(name, "is required")
		}
		return
	}
	s := CleanText(*v)
	if multiline {
		s = strings.ReplaceAll(s, "\r\n", "\n")
	}
	if s == "" && required {
		w.fe.Add(name, "is required")
		return
	}
	if msg := checkText(s, maxRunes, multiline); msg != "" {
		w.fe.Add(name, msg)
		return
	}
	*dst = s
}

// url writes v, trimmed, to dst: absent (nil) leaves dst; empty clears
// it; either is a failure when required.
func (w inputWriter) url(name string, v *string, dst *string, required bool) {
	if v == nil {
		if required {
			w.fe.Add(name, "is required")
		}
		return
	}
	s := strings.TrimSpace(*v)
	if s == "" {
		if required {
			w.fe.Add(name, "is required")
		}
		*dst = ""
		return
	}
	if msg := CheckURL(s); msg != "" {
		w.fe.Add(name, msg)
		return
	}
	*dst = s
}

// AppendJSON appends the clip's JSON object (contract 3.1) to b.
// Hand-written because it is on every hot path.
func (c *Clip) AppendJSON(b []byte) []byte {
	b = append(b, `{"id":`...)
	b = appendInt(b, c.ID)
	b = append(b, `,"title":`...)
	b = AppendJSONString(b, c.Title)
	b = append(b, `,"iframe_url":`...)
	b = AppendJSONString(b, c.IframeURL)
	b = append(b, `,"cover_url":`...)
	b = AppendJSONString(b, c.CoverURL)
	b = append(b, `,"actor":`...)
	b = AppendJSONString(b, c.Actor)
	b = append(b, `,"studio":`...)
	b = AppendJSONString(b, c.Studio)
	b = append(b, `,"platform":`...)
	b = AppendJSONString(b, c.Platform)
	b = append(b, `,"notes":`...)
	b = AppendJSONString(b, c.Notes)
	b = append(b, `,"created_at":"`...)
	b = c.CreatedAt.UTC().AppendFormat(b, time.RFC3339)
	return append(b, `"}`...)
}

// MarshalJSON makes Clip usable with encoding/json (tests, tools).
func (c Clip) MarshalJSON() ([]byte, error) { return c.AppendJSON(nil), nil }
