package maccms

import (
	"encoding/json"
	"strconv"

	"catalog/internal/apidoc"
	"catalog/internal/catalog"
)

// DocVars are the values of the resource API's placeholders in the
// movie service's OpenAPI document (package apidoc), taken from the
// field table, so that the document describes what is encoded.
func DocVars() apidoc.Vars {
	return apidoc.Vars{"vodFieldKeys": vodFieldKeys(), "vodFieldProperties": vodFieldProperties()}
}

// vodFieldKeys are the keys of the fields a full MacCMS record carries
// as they are (vodMembers).
func vodFieldKeys() []string {
	keys := make([]string, len(vodMembers))
	for i, spec := range vodMembers {
		keys[i] = spec.Vod
	}
	return keys
}

// vodFieldProperties is the properties object of the VodFields schema:
// every value a string (contract 6), described by the field it carries.
func vodFieldProperties() json.RawMessage {
	var props []apidoc.Property
	for _, spec := range vodMembers {
		desc := spec.Member
		if spec.Kind == catalog.MemberList {
			desc += ", joined with ,"
		}
		if spec.Kind == catalog.MemberInt {
			desc += ", in decimal; \"\" when unknown"
		}
		props = append(props, apidoc.Property{Name: spec.Vod, Schema: `{"type":"string","description":` + strconv.Quote(desc) + `}`})
	}
	return apidoc.Object(props)
}
