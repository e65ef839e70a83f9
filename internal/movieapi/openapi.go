package movieapi

import (
	_ "embed"
	"strconv"

	"catalog/internal/apidoc"
	"catalog/internal/catalog"
	"catalog/internal/httpx"
)

// openapiTemplate is the movie service's OpenAPI document, MacCMS API
// (contract 6) included. Its limits are ${Name} placeholders filled
// from the constants below, so the document states exactly what the
// code enforces (see package apidoc).
//
//go:embed openapi.json
var openapiTemplate []byte

// docs builds the document and reference page of this service.
func (s *server) docs(version string) *apidoc.Docs {
	return apidoc.New(openapiTemplate, docVars(version), s.writeError)
}

// docVars are the values of the document's placeholders.
func docVars(version string) apidoc.Vars {
	return apidoc.Vars{
		"version":             version,
		"movieFields":         fieldNames(false),
		"javFields":           fieldNames(true),
		"DefaultLimit":        catalog.DefaultLimit,
		"MaxLimit":            catalog.MaxLimit,
		"MaxIDs":              maxIDs,
		"MaxHours":            maxHours,
		"CacheSuccess":        headerPolicy.Success,
		"CacheError":          httpx.NoStore,
		"PreflightMaxAge":     strconv.Itoa(preflightMaxAge),
		"PreflightHeaders":    preflightHeaders,
		"MaxSearchRunes":      catalog.MaxSearchRunes,
		"MaxSearchWords":      catalog.MaxSearchWords,
		"MaxHeaderBytes":      httpx.MaxHeaderBytes,
		"MaxServers":          catalog.MaxServers,
		"MaxServerEpisodes":   catalog.MaxServerEpisodes,
		"MaxServerNameRunes":  catalog.MaxServerNameRunes,
		"MaxEpisodeNameRunes": catalog.MaxEpisodeNameRunes,
		"MaxEpisodesBytes":    catalog.MaxEpisodesBytes,
	}
}

// fieldNames lists the selectable fields of an endpoint in output order.
func fieldNames(legacy bool) []string {
	var names []string
	all := catalog.AllFields(legacy)
	for f := catalog.FieldID; f <= catalog.FieldURLPlayer; f++ {
		if all.Has(f) {
			names = append(names, f.Name())
		}
	}
	return names
}
