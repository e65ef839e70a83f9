package movieapi

import (
	_ "embed"
	"encoding/json"
	"maps"
	"strconv"
	"strings"

	"catalog/internal/apidoc"
	"catalog/internal/catalog"
	"catalog/internal/httpx"
	"catalog/internal/maccms"
)

// openapiTemplate is the movie service's OpenAPI document, MacCMS API
// (contract 6) included. Its limits are ${Name} placeholders filled
// from the constants below, so the document states exactly what the
// code enforces (see package apidoc).
//
//go:embed openapi.json
var openapiTemplate []byte

// docs builds the document and reference page of this service.
func (s *API) docs(version string) *apidoc.Docs {
	return apidoc.New(openapiTemplate, docVars(version), s.WriteError, nil, s.lang)
}

// docVars are the values of the document's placeholders, the resource
// API's (maccms.DocVars) included.
func docVars(version string) apidoc.Vars {
	vars := apidoc.Vars{
		"version":             version,
		"movieFields":         fieldNames(false),
		"javFields":           fieldNames(true),
		"DefaultLimit":        catalog.DefaultLimit,
		"MaxLimit":            catalog.MaxLimit,
		"MaxIDs":              catalog.MaxIDs,
		"MaxHours":            catalog.MaxHours,
		"CacheSuccess":        headerPolicy.Success,
		"CacheError":          httpx.NoStore,
		"PreflightMaxAge":     strconv.Itoa(preflightMaxAge),
		"PreflightHeaders":    preflightHeaders,
		"MaxSearchRunes":      catalog.MaxSearchRunes,
		"MaxSearchWords":      catalog.MaxSearchWords,
		"MaxFilterValue":      catalog.MaxFilterValue,
		"MaxHeaderBytes":      httpx.MaxHeaderBytes,
		"MaxServers":          catalog.MaxServers,
		"MaxServerEpisodes":   catalog.MaxServerEpisodes,
		"MaxServerNameRunes":  catalog.MaxServerNameRunes,
		"MaxEpisodeNameRunes": catalog.MaxEpisodeNameRunes,
		"MaxEpisodesBytes":    catalog.MaxEpisodesBytes,
		"MaxPageBytes":        catalog.MaxPageBytes,
		"movieProperties":     fieldProperties(false),
		"javProperties":       fieldProperties(true),
		"ScorePattern":        catalog.ScorePattern,
		"MaxDoubanID":         maxDoubanID,
	}
	maps.Copy(vars, maccms.DocVars())
	return vars
}

// fieldNames lists the selectable fields of an endpoint in output order.
func fieldNames(legacy bool) []string {
	var names []string
	for _, spec := range catalog.MovieFieldSpecs() {
		if legacy || !spec.Legacy {
			names = append(names, spec.Name)
		}
	}
	return names
}

// The schemas of the movie fields by kind (contract 4.1, 9), which the
// field table's rows are described with in the Movie and JavMovie
// schemas.
const (
	idSchema       = `{"type":"integer","minimum":1,"format":"int64"}`
	textSchema     = `{"type":"string"}`
	dateSchema     = `{"type":"string","pattern":"^([0-9]{4}-[0-9]{2}-[0-9]{2})?$","description":"YYYY-MM-DD or \"\"."}`
	listSchema     = `{"type":"array","items":{"type":"string"}}`
	joinedSchema   = `{"type":"string","description":"The list's items joined with \", \"; \"\" when none."}`
	episodesSchema = `{"$ref":"#/components/schemas/Episodes"}`
	playerSchema   = `{"type":"object","additionalProperties":false,"required":["server_data"],"properties":{"server_data":{"type":"object","additionalProperties":false,"required":["link_embed"],"properties":{"link_embed":{"type":"string"}}}},"description":"For old clients: the first embed link of the first server of episodes (\"\" when it has none)."}`
)

// fieldProperties is the properties object of the Movie schema, or of
// JavMovie when legacy: one property per field of the endpoint, from
// the field table, in output order.
func fieldProperties(legacy bool) json.RawMessage {
	var props []apidoc.Property
	for _, spec := range catalog.MovieFieldSpecs() {
		if spec.Legacy && !legacy {
			continue
		}
		schema := textSchema
		switch {
		case spec.Kind == catalog.MemberID:
			schema = idSchema
		case spec.Date:
			schema = dateSchema
		case spec.Count:
			schema = `{"type":"string","pattern":"^[0-9]+$","description":"Plays counted ` + countPeriod[spec.Name] + ` (POST /api/movies/{id}/hit), as a string like every scalar but the id; may lag by up to 10 s."}`
		case spec.Pattern != "":
			schema = `{"type":"string","pattern":` + strconv.Quote(spec.Pattern) + `,"description":` + strconv.Quote(spec.Hint) + `}`
		case spec.Kind == catalog.MemberInt:
			schema = intSchema(spec.MaxInt, "0 when unknown.")
		case spec.Kind == catalog.MemberList && legacy:
			schema = joinedSchema
		case spec.Kind == catalog.MemberList:
			schema = listSchema
		case spec.Kind == catalog.MemberEpisodes:
			schema = episodesSchema
		case spec.Legacy:
			schema = playerSchema
		}
		props = append(props, apidoc.Property{Name: spec.Name, Schema: schema})
	}
	return apidoc.Object(props)
}

// countPeriod says what each hit field counts.
var countPeriod = map[string]string{"hits": "in all", "hits_day": "in the current UTC day",
	"hits_week": "in the current ISO week (from Monday, UTC)", "hits_month": "in the current UTC month"}

// maxDoubanID is the largest vod_douban_id: catalog.MaxDoubanIDDigits
// nines.
var maxDoubanID, _ = strconv.ParseInt(strings.Repeat("9", catalog.MaxDoubanIDDigits), 10, 64)

func intSchema(maxInt int64, desc string) string {
	return `{"type":"integer","minimum":0,"maximum":` + strconv.FormatInt(maxInt, 10) + `,"description":` + strconv.Quote(desc) + `}`
}
