package clipapi

import (
	_ "embed"
	"encoding/json"
	"slices"
	"strconv"
	"time"

	"catalog/internal/apidoc"
	"catalog/internal/auth"
	"catalog/internal/catalog"
	"catalog/internal/httpx"
	"catalog/internal/importer"
)

// openapiTemplate is the clip service's OpenAPI document. Its limits are
// ${Name} placeholders filled from the constants below, so the document
// states exactly what the code enforces (see package apidoc).
//
//go:embed openapi.json
var openapiTemplate []byte

// docs builds the document and reference page of this service.
func (s *API) docs() *apidoc.Docs {
	return apidoc.New(openapiTemplate, s.docVars(), s.WriteError, s.locale, s.lang)
}

// docVars are the values of the document's placeholders.
func (s *API) docVars() apidoc.Vars {
	return apidoc.Vars{
		"version":             s.version,
		"platforms":           s.platforms.List(),
		"platformsOrEmpty":    append([]string{""}, s.platforms.List()...),
		"SessionCookie":       auth.CookieName,
		"DefaultLimit":        catalog.DefaultLimit,
		"MaxLimit":            catalog.MaxLimit,
		"MaxTitleRunes":       catalog.MaxTitleRunes,
		"MaxNameRunes":        catalog.MaxNameRunes,
		"MaxNotesRunes":       catalog.MaxNotesRunes,
		"MaxURLBytes":         catalog.MaxURLBytes,
		"MaxClipBody":         catalog.MaxClipBody,
		"MaxUpload":           importer.MaxUpload,
		"MaxRecord":           importer.MaxRecord,
		"UploadMinBytes":      httpx.UploadMinBytes,
		"UploadWindowSeconds": int(httpx.UploadWindow / time.Second),
		"ScopeClipsWrite":     catalog.ScopeClipsWrite,
		"ScopeMoviesWrite":    catalog.ScopeMoviesWrite,
		"MaxSearchRunes":      catalog.MaxSearchRunes,
		"MaxSearchWords":      catalog.MaxSearchWords,
		"MaxFilterValue":      catalog.MaxFilterValue,
		"MaxHeaderBytes":      httpx.MaxHeaderBytes,
		"clipRequired":        clipRequired(),
		"clipProperties":      clipProperties(),
		"clipCreateRequired":  clipCreateRequired(),
		"clipInputProperties": clipInputProperties(),
	}
}

// The Clip, ClipCreate and ClipPatch schemas' members, from the clip
// field table (catalog.ClipFieldSpecs): a clip is its id, its fields
// and created_at; a create or patch body is its fields.
const (
	clipIDSchema      = `{"type":"integer","minimum":1,"format":"int64","description":"Assigned by the service, increasing."}`
	clipCreatedSchema = `{"type":"string","format":"date-time","pattern":"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$","description":"RFC 3339 UTC with seconds, assigned by the service."}`
)

func clipRequired() []string {
	return slices.Concat([]string{"id"}, catalog.ClipFields, []string{"created_at"})
}

// clipProperties describes each field as a stored clip holds it: text
// within its length, a URL (the required one a URI), the platform.
func clipProperties() json.RawMessage {
	props := []apidoc.Property{{Name: "id", Schema: clipIDSchema}}
	for _, spec := range catalog.ClipFieldSpecs() {
		schema := `{"type":"string"`
		switch {
		case spec.URL && spec.Required:
			schema += `,"format":"uri"`
		case spec.MaxRunes > 0 && spec.Required:
			schema += `,"minLength":1`
		}
		if spec.MaxRunes > 0 {
			schema += `,"maxLength":` + strconv.Itoa(spec.MaxRunes)
		}
		if spec.Doc != "" {
			schema += `,"description":` + string(catalog.AppendJSONString(nil, spec.Doc))
		}
		props = append(props, apidoc.Property{Name: spec.Name, Schema: schema + "}"})
	}
	return apidoc.Object(append(props, apidoc.Property{Name: "created_at", Schema: clipCreatedSchema}))
}

func clipCreateRequired() []string {
	var names []string
	for _, spec := range catalog.ClipFieldSpecs() {
		if spec.Required {
			names = append(names, spec.Name)
		}
	}
	return names
}

// clipInputProperties refers each field of a create or patch body to
// the component of its rules.
func clipInputProperties() json.RawMessage {
	var props []apidoc.Property
	for _, spec := range catalog.ClipFieldSpecs() {
		props = append(props, apidoc.Property{Name: spec.Name, Schema: `{"$ref":"#/components/schemas/` + spec.Schema + `"}`})
	}
	return apidoc.Object(props)
}
