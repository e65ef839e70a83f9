package apitest

import (
	"bytes"
	"compress/gzip"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

const testDoc = `{
  "openapi": "3.1.0",
  "info": {"title": "t", "version": "1"},
  "paths": {
    "/api/things/{id}": {
      "get": {
        "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string"}}],
        "responses": {
          "200": {
            "description": "ok",
            "headers": {"ETag": {"required": true, "schema": {"type": "string"}}},
            "content": {"application/json": {"schema": {"type": "object", "additionalProperties": false, "required": ["n"], "properties": {"n": {"type": "integer", "maximum": 10}}}}}
          },
          "404": {"$ref": "#/components/responses/NotFound"}
        }
      }
    }
  },
  "components": {
    "responses": {
      "NotFound": {"description": "none", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
      "MethodNotAllowed": {"description": "no", "headers": {"Allow": {"required": true, "schema": {"type": "string"}}}, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
    },
    "schemas": {"Error": {"type": "object", "additionalProperties": false, "required": ["msg"], "properties": {"msg": {"type": "string"}}}}
  }
}`

func gz(s string) string {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write([]byte(s))
	w.Close()
	return b.String()
}

// TestCheck: responses that fit the document pass; a wrong body, a
// missing header, an undocumented status and a path or method the
// document does not list fail.
func TestCheck(t *testing.T) {
	c, err := Load([]byte(testDoc))
	if err != nil {
		t.Fatal(err)
	}
	json := http.Header{"Content-Type": {"application/json; charset=utf-8"}}
	tagged := http.Header{"Content-Type": {"application/json"}, "Etag": {`"x"`}}
	zipped := http.Header{"Content-Type": {"application/json"}, "Etag": {`"x"`}, "Content-Encoding": {"gzip"}}
	allow := http.Header{"Content-Type": {"application/json"}, "Allow": {"GET, HEAD"}}
	tests := []struct {
		name, method, target string
		status               int
		header               http.Header
		body                 string
		fail                 string // part of the problem; "" = passes
	}{
		{"fits", "GET", "/api/things/1", 200, tagged, `{"n": 3}`, ""},
		{"gzip body fits", "GET", "/api/things/1", 200, zipped, gz(`{"n": 3}`), ""},
		{"head has no body", "HEAD", "/api/things/1", 200, tagged, ``, ""},
		{"outside the scope", "GET", "/admin", 200, nil, `<html>`, ""},
		{"documented 404", "GET", "/api/things/9", 404, json, `{"msg": "none"}`, ""},
		{"unknown path, its 404", "GET", "/api/nothing", 404, json, `{"msg": "no such path"}`, ""},
		{"unknown method, its 405", "DELETE", "/api/things/1", 405, allow, `{"msg": "no"}`, ""},
		{"over a maximum", "GET", "/api/things/1", 200, tagged, `{"n": 11}`, "n"},
		{"extra member", "GET", "/api/things/1", 200, tagged, `{"n": 1, "x": 2}`, "x"},
		{"gzip body wrong", "GET", "/api/things/1", 200, zipped, gz(`{"n": "3"}`), "n"},
		{"missing header", "GET", "/api/things/1", 200, json, `{"n": 3}`, "ETag"},
		{"undocumented status", "GET", "/api/things/1", 500, json, `{"msg": "x"}`, "500"},
		{"error in another shape", "GET", "/api/things/9", 404, json, `{"error": "x"}`, "error"},
		{"unknown path served", "GET", "/api/nothing", 200, json, `{"n": 1}`, "not in the document"},
		{"unknown method served", "POST", "/api/things/1", 201, json, `{"n": 1}`, "not in the document"},
		{"405 without Allow", "DELETE", "/api/things/1", 405, json, `{"msg": "no"}`, "Allow"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest(tt.method, tt.target, nil)
			problems := c.check(req, tt.status, tt.header, []byte(tt.body))
			all := strings.Join(problems, "\n")
			switch {
			case tt.fail == "" && len(problems) > 0:
				t.Errorf("got problems, want none:\n%s", all)
			case tt.fail != "" && !strings.Contains(all, tt.fail):
				t.Errorf("got problems %q, want one naming %q", all, tt.fail)
			}
		})
	}
}

// TestLoadRefusesInvalidDocuments: a document that is not OpenAPI fails
// before any response is checked.
func TestLoadRefusesInvalidDocuments(t *testing.T) {
	for _, doc := range []string{`{`, `{"openapi": "3.1.0", "info": {"title": "t"}, "paths": {"/x": {"get": {"responses": {"200": {"description": 5}}}}}}`} {
		if _, err := Load([]byte(doc)); err == nil {
			t.Errorf("Load(%s): no error", doc)
		}
	}
}
