// Package apitest holds HTTP responses to a service's own OpenAPI
// document in tests. The services' test helpers pass every
// response they receive to Check, which fetches the document the
// service serves at /api/openapi.json and validates the response
// against it with libopenapi-validator (OpenAPI 3.1, JSON Schema
// 2020-12): status, documented headers and body. A path or method the
// document does not list fails the test unless the service answered it
// with the document's own NotFound (404) or MethodNotAllowed (405)
// response. Paths outside the document's scope (the first path segments
// that its paths use, "/api" and "/api.php") are HTML pages and are
// left alone.
package apitest

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"
	"github.com/pb33f/libopenapi-validator/config"
	"github.com/pb33f/libopenapi-validator/errors"
	"github.com/pb33f/libopenapi-validator/helpers"
	"github.com/pb33f/libopenapi-validator/paths"
	"github.com/pb33f/libopenapi-validator/schema_validation"
	v3 "github.com/pb33f/libopenapi/datamodel/high/v3"
)

// DocumentPath is where every service serves its document.
const DocumentPath = "/api/openapi.json"

// checker validates responses against one document.
type checker struct {
	model *v3.Document
	// full checks status, headers and body; headersOnly serves answers
	// without a complete body (HEAD, 206 parts).
	full, headersOnly validator.Validator
	opts              *config.ValidationOptions
	scope             map[string]bool // first path segments of the document's paths
	mu                sync.Mutex      // the validators' caches are not meant for parallel tests
}

// checkers caches one checker per document text: building the model
// costs milliseconds, and a test binary sees only a few documents.
var checkers sync.Map // [32]byte -> *checker or error

// Load parses and validates doc as an OpenAPI document, once per text.
func Load(doc []byte) (*checker, error) {
	key := sha256.Sum256(doc)
	if v, ok := checkers.Load(key); ok {
		if err, bad := v.(error); bad {
			return nil, err
		}
		return v.(*checker), nil
	}
	c, err := build(doc)
	if err != nil {
		checkers.Store(key, err)
		return nil, err
	}
	v, _ := checkers.LoadOrStore(key, c)
	return v.(*checker), nil
}

func build(doc []byte) (*checker, error) {
	document, err := libopenapi.NewDocument(doc)
	if err != nil {
		return nil, fmt.Errorf("parse document: %w", err)
	}
	model, err := document.BuildV3Model()
	if err != nil {
		return nil, fmt.Errorf("build document model: %w", err)
	}
	full, errs := validator.NewValidator(document, config.WithFormatAssertions())
	if len(errs) > 0 {
		return nil, fmt.Errorf("validator: %v", errs)
	}
	if ok, verrs := full.ValidateDocument(); !ok {
		var msgs []string
		for _, e := range verrs {
			msgs = append(msgs, e.Message+": "+e.Reason)
			for _, f := range e.SchemaValidationErrors {
				msgs = append(msgs, "  "+f.FieldPath+": "+f.Reason)
			}
		}
		return nil, fmt.Errorf("the document is not valid OpenAPI:\n%s", strings.Join(msgs, "\n"))
	}
	headersOnly, _ := validator.NewValidator(document, config.WithoutResponseBodyValidation())
	c := &checker{model: &model.Model, full: full, headersOnly: headersOnly,
		opts: config.NewValidationOptions(), scope: map[string]bool{}}
	for pair := model.Model.Paths.PathItems.First(); pair != nil; pair = pair.Next() {
		c.scope[firstSegment(pair.Key())] = true
	}
	return c, nil
}

func firstSegment(p string) string {
	p = strings.TrimPrefix(p, "/")
	seg, _, _ := strings.Cut(p, "/")
	return seg
}

// Document fetches the document that h serves.
func Document(t testing.TB, h http.Handler) []byte {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, DocumentPath, nil))
	if rec.Code != http.StatusOK {
		t.Fatalf("apitest: GET %s: got status %d, want 200; body %s", DocumentPath, rec.Code, rec.Body)
	}
	return rec.Body.Bytes()
}

// Request is one request of a test; zero fields are not sent (an empty
// Method is GET).
type Request struct {
	Method, Target, Body string
	Headers              map[string]string
	Cookie               *http.Cookie
	Remote               string // RemoteAddr
}

// Serve sends rq to h, holds the answer to h's document (Check) and
// returns it: the one request helper of the services' HTTP tests.
func Serve(t testing.TB, h http.Handler, rq Request) *httptest.ResponseRecorder {
	t.Helper()
	if rq.Method == "" {
		rq.Method = http.MethodGet
	}
	var body io.Reader
	if rq.Body != "" {
		body = strings.NewReader(rq.Body)
	}
	r := httptest.NewRequest(rq.Method, rq.Target, body)
	for k, v := range rq.Headers {
		r.Header.Set(k, v)
	}
	if rq.Cookie != nil {
		r.AddCookie(rq.Cookie)
	}
	if rq.Remote != "" {
		r.RemoteAddr = rq.Remote
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	Check(t, h, r, w.Code, w.Result().Header, w.Body.Bytes())
	return w
}

// Check fails t unless the response (status, header, body as received)
// to req, served by h, matches the document h serves.
func Check(t testing.TB, h http.Handler, req *http.Request, status int, header http.Header, body []byte) {
	t.Helper()
	c, err := Load(Document(t, h))
	if err != nil {
		t.Fatalf("apitest: %v", err)
	}
	for _, problem := range c.check(req, status, header, body) {
		t.Errorf("apitest: %s %s answered %d, which the OpenAPI document does not allow: %s",
			req.Method, req.URL.RequestURI(), status, problem)
	}
}

// Problems returns what is wrong with a response to req by the document
// doc; nothing when it fits. Check is the usual entry; this one serves
// tests of documented operations that no route serves yet.
func Problems(doc []byte, req *http.Request, status int, header http.Header, body []byte) ([]string, error) {
	c, err := Load(doc)
	if err != nil {
		return nil, err
	}
	return c.check(req, status, header, body), nil
}

// check returns what is wrong with the response; nothing when it fits.
func (c *checker) check(req *http.Request, status int, header http.Header, body []byte) []string {
	if !c.scope[firstSegment(req.URL.Path)] {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()

	header = header.Clone()
	head := req.Method == http.MethodHead
	if head {
		// HEAD is GET without the body (RFC 9110 9.3.2), which the
		// router answers for every GET route.
		req = req.Clone(req.Context())
		req.Method = http.MethodGet
	}
	if header.Get("Content-Encoding") == "gzip" && len(body) > 0 && status != http.StatusPartialContent {
		zr, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			return []string{"Content-Encoding gzip but the body is not gzip: " + err.Error()}
		}
		plain, err := io.ReadAll(zr)
		if err != nil {
			return []string{"Content-Encoding gzip but the body is not gzip: " + err.Error()}
		}
		body = plain
		header.Del("Content-Encoding")
		header.Del("Content-Length")
	}

	if _, errs, _ := paths.FindPath(req, c.model, c.opts); len(errs) > 0 {
		return c.unrouted(errs, status, header, body)
	}
	v := c.full
	if head || status == http.StatusPartialContent {
		v = c.headersOnly
	}
	res := &http.Response{StatusCode: status, Header: header, Body: io.NopCloser(bytes.NewReader(body)), Request: req}
	ok, verrs := v.ValidateHttpResponse(req, res)
	if ok {
		return nil
	}
	return describe(verrs)
}

// unrouted checks the answer to a path or method the document does not
// list: only the document's NotFound or MethodNotAllowed response may
// answer it; anything else is a route the document forgot.
func (c *checker) unrouted(errs []*errors.ValidationError, status int, header http.Header, body []byte) []string {
	want, name := http.StatusNotFound, "NotFound"
	if errs[0].ValidationSubType == helpers.ValidationMissingOperation {
		want, name = http.StatusMethodNotAllowed, "MethodNotAllowed"
	}
	if status != want {
		return []string{fmt.Sprintf("%s (not in the document; only its %s response, %d, may answer it)", errs[0].Message, name, want)}
	}
	resp := c.model.Components.Responses.GetOrZero(name)
	if resp == nil {
		return []string{"the document has no components.responses." + name}
	}
	var problems []string
	for pair := resp.Headers.First(); pair != nil; pair = pair.Next() {
		if pair.Value().Required && header.Get(pair.Key()) == "" {
			problems = append(problems, fmt.Sprintf("%s response without its required %s header", name, pair.Key()))
		}
	}
	mt := resp.Content.GetOrZero("application/json")
	if mt == nil || mt.Schema == nil {
		return append(problems, "components.responses."+name+" has no application/json schema")
	}
	if !strings.HasPrefix(header.Get("Content-Type"), "application/json") {
		problems = append(problems, fmt.Sprintf("%s response with Content-Type %q", name, header.Get("Content-Type")))
	}
	if ok, verrs := schema_validation.NewSchemaValidator().ValidateSchemaBytes(mt.Schema.Schema(), body); !ok {
		problems = append(problems, describe(verrs)...)
	}
	return problems
}

func describe(verrs []*errors.ValidationError) []string {
	var out []string
	for _, e := range verrs {
		msg := e.Message
		if e.Reason != "" {
			msg += ": " + e.Reason
		}
		for _, f := range e.SchemaValidationErrors {
			msg += fmt.Sprintf(" [%s: %s]", f.FieldPath, f.Reason)
		}
		out = append(out, msg)
	}
	return out
}
