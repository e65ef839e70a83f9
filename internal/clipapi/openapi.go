package clipapi

import (
	_ "embed"
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
func (s *server) docs() *apidoc.Docs {
	return apidoc.New(openapiTemplate, s.docVars(), s.writeError)
}

// docVars are the values of the document's placeholders.
func (s *server) docVars() apidoc.Vars {
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
		"MaxHeaderBytes":      httpx.MaxHeaderBytes,
	}
}
