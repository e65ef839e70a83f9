package clipapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"catalog/internal/auth"
	"catalog/internal/catalog"
	"catalog/internal/cli"
	"catalog/internal/httpx"
	"catalog/internal/testenv"
)

// newToken stores an API token with the given scopes and returns its
// secret, as `catalog token create` and the console do.
func (e *env) newToken(scopes string) (string, catalog.APIToken) {
	e.t.Helper()
	tok, err := catalog.NewAPIToken("test", scopes)
	if err != nil {
		e.t.Fatal(err)
	}
	secret, hash := auth.NewSecret()
	tok.TokenHash = hash
	if err := e.store.CreateToken(context.Background(), &tok); err != nil {
		e.t.Fatal(err)
	}
	return secret, tok
}

func bearer(secret string, more map[string]string) map[string]string {
	h := map[string]string{"Authorization": "Bearer " + secret, "Content-Type": "application/json"}
	for k, v := range more {
		h[k] = v
	}
	return h
}

const tokenClip = `{"title":"From a script","iframe_url":"https://youtu.be/dQw4w9WgXcQ"}`

// Contract 8: a Bearer token with clips:write may create, change and
// delete clips; a missing, malformed, unknown or revoked token is 401,
// one without the scope 403.
func TestBearerTokensOnClipWrites(t *testing.T) {
	e := newEnv(t)
	clipsWrite, _ := e.newToken("clips:write")
	moviesOnly, _ := e.newToken("movies:write")
	revoked, revokedTok := e.newToken("clips:write,movies:write")
	if err := e.store.RevokeToken(context.Background(), revokedTok.ID); err != nil {
		t.Fatal(err)
	}

	refused := []struct {
		name   string
		header string
		status int
	}{
		{"no header", "", http.StatusUnauthorized},
		{"not bearer", "Basic " + clipsWrite, http.StatusUnauthorized},
		{"empty bearer", "Bearer ", http.StatusUnauthorized},
		{"unknown token", "Bearer " + auth.Prefix + strings.Repeat("ab", 32), http.StatusUnauthorized},
		{"truncated token", "Bearer " + clipsWrite[:len(clipsWrite)-1], http.StatusUnauthorized},
		{"revoked token", "Bearer " + revoked, http.StatusUnauthorized},
		{"token without the scope", "Bearer " + moviesOnly, http.StatusForbidden},
	}
	for _, tt := range refused {
		t.Run(tt.name, func(t *testing.T) {
			h := map[string]string{"Content-Type": "application/json"}
			if tt.header != "" {
				h["Authorization"] = tt.header
			}
			for _, rq := range []request{
				{method: "POST", target: "/api/clips", body: tokenClip, headers: h},
				{method: "PATCH", target: "/api/clips/1", body: `{"title":"x"}`, headers: h},
				{method: "DELETE", target: "/api/clips/1", headers: h},
			} {
				wantError(t, e.do(rq), tt.status)
			}
		})
	}
	if n := e.clipCount(); n != 0 {
		t.Fatalf("refused requests wrote %d clips", n)
	}

	w := e.do(request{method: "POST", target: "/api/clips", body: tokenClip, headers: bearer(clipsWrite, nil)})
	if w.Code != http.StatusCreated {
		t.Fatalf("POST with clips:write: got %d %s, want 201", w.Code, w.Body)
	}
	id := decodeClip(t, w).ID
	target := "/api/clips/" + strconv.FormatInt(id, 10)
	if w := e.do(request{method: "PATCH", target: target, body: `{"title":"Renamed"}`, headers: bearer(clipsWrite, nil)}); w.Code != http.StatusOK || decodeClip(t, w).Title != "Renamed" {
		t.Fatalf("PATCH with clips:write: got %d %s", w.Code, w.Body)
	}
	if w := e.do(request{method: "DELETE", target: target, headers: bearer(clipsWrite, nil)}); w.Code != http.StatusNoContent {
		t.Fatalf("DELETE with clips:write: got %d %s", w.Code, w.Body)
	}

	// The use is recorded for the console's list.
	list, err := e.store.ListTokens(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, tok := range list {
		if tok.Scopes[0] == catalog.ScopeClipsWrite && len(tok.Scopes) == 1 && tok.LastUsed.IsZero() {
			t.Errorf("token %d was used but its last use is empty", tok.ID)
		}
	}
}

// A token request carries no cookie, so it skips the cross-origin check;
// with a cookie present the check applies again.
func TestBearerTokensAndCrossOrigin(t *testing.T) {
	e := newEnv(t)
	secret, _ := e.newToken("clips:write")
	crossSite := map[string]string{"Sec-Fetch-Site": "cross-site", "Origin": "https://elsewhere.example"}

	if w := e.do(request{method: "POST", target: "/api/clips", body: tokenClip, headers: bearer(secret, crossSite)}); w.Code != http.StatusCreated {
		t.Errorf("cross-site token request without cookies: got %d %s, want 201", w.Code, w.Body)
	}
	cookie := e.login()
	w := e.do(request{method: "POST", target: "/api/clips", body: tokenClip, headers: bearer(secret, crossSite), cookie: cookie})
	wantError(t, w, http.StatusForbidden)
	w = e.do(request{method: "POST", target: "/api/clips", body: tokenClip, headers: bearer(secret, crossSite),
		cookie: &http.Cookie{Name: "unrelated", Value: "1"}})
	wantError(t, w, http.StatusForbidden)
	// A request with a bad token is judged by the token, even when its
	// session cookie is valid.
	w = e.do(request{method: "POST", target: "/api/clips", body: tokenClip, cookie: cookie,
		headers: map[string]string{"Authorization": "Bearer nope", "Content-Type": "application/json"}})
	wantError(t, w, http.StatusUnauthorized)
}

// A token's last use is written at most once a minute.
func TestBearerTokenLastUse(t *testing.T) {
	e := newEnv(t)
	secret, tok := e.newToken("clips:write")
	e.do(request{method: "DELETE", target: "/api/clips/999", headers: bearer(secret, nil)})
	got, err := e.store.TokenByHash(context.Background(), tok.TokenHash)
	if err != nil {
		t.Fatal(err)
	}
	if got.LastUsed.IsZero() || time.Since(got.LastUsed) > time.Minute {
		t.Errorf("last use after a request: got %v, want about now", got.LastUsed)
	}
}

func TestImportEndpoint(t *testing.T) {
	e := newEnv(t)
	movies, _ := e.newToken("movies:write")
	clipsOnly, _ := e.newToken("clips:write")
	jsonl := `{"name":"One","id_code":"IMP-1","categories":["Drama"]}
{"name":"","id_code":"IMP-2"}
{"name":"Three","release":"2019-02-30"}
{"name":"Four","slug":"four"}
`
	post := func(kind, contentType, secret, body string) *httptest.ResponseRecorder {
		h := map[string]string{"Content-Type": contentType}
		if secret != "" {
			h["Authorization"] = "Bearer " + secret
		}
		return e.do(request{method: "POST", target: "/api/import/" + kind, body: body, headers: h})
	}

	w := post("movies", "application/x-ndjson", movies, jsonl)
	if w.Code != http.StatusOK {
		t.Fatalf("import: got %d %s", w.Code, w.Body)
	}
	want := `{"data":{"read":4,"imported":2,"rejected":2,"rejects":[{"line":2,"message":"name: is required"},{"line":3,"message":"release: must be a real date as YYYY-MM-DD"}],"unreported":0,"last_line":4}}`
	if got := w.Body.String(); got != want {
		t.Errorf("report:\n got %s\nwant %s", got, want)
	}
	if n, _ := e.store.CountMovies(context.Background()); n != 2 {
		t.Errorf("movies after the import: got %d, want 2", n)
	}

	csv := "name,id_code,actor\nCSV movie,IMP-9,A|B\n"
	if w := post("movies", "text/csv; charset=utf-8", movies, csv); w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `"imported":1`) {
		t.Errorf("CSV import: got %d %s", w.Code, w.Body)
	}
	if w := post("movies", "application/json", movies, `[{"name":"Array movie"}]`); w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `"imported":1`) {
		t.Errorf("JSON array import: got %d %s", w.Code, w.Body)
	}
	if w := post("clips", "application/x-ndjson", clipsOnly, tokenClip+"\n"); w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `"imported":1`) {
		t.Errorf("clip import: got %d %s", w.Code, w.Body)
	}

	wantError(t, post("movies", "application/x-ndjson", "", jsonl), http.StatusUnauthorized)
	wantError(t, post("movies", "application/x-ndjson", clipsOnly, jsonl), http.StatusForbidden)
	wantError(t, post("clips", "application/x-ndjson", movies, jsonl), http.StatusForbidden)
	wantError(t, post("movies", "text/plain", movies, jsonl), http.StatusUnsupportedMediaType)
	wantError(t, post("movies", "", movies, jsonl), http.StatusUnsupportedMediaType)
	wantError(t, post("actors", "application/x-ndjson", movies, jsonl), http.StatusNotFound)
}

// The body limit is 256 MiB (contract 8), announced or not.
func TestImportEndpointLimit(t *testing.T) {
	testenv.Long(t) // bodies of 256 MiB
	e := newEnv(t)
	secret, _ := e.newToken("movies:write")

	r := httptest.NewRequest("POST", "/api/import/movies", strings.NewReader("{}"))
	r.Header.Set("Authorization", "Bearer "+secret)
	r.Header.Set("Content-Type", "application/x-ndjson")
	r.ContentLength = 268_435_457
	w := httptest.NewRecorder()
	e.handler.ServeHTTP(w, r)
	wantError(t, w, http.StatusRequestEntityTooLarge)

	// Exactly 268,435,456 bytes stream through; one more is a 413 that
	// says what was imported before the limit.
	record := `{"name":"Before the limit"}` + "\n"
	for _, tt := range []struct {
		size   int64
		status int
	}{{268_435_456, http.StatusOK}, {268_435_457, http.StatusRequestEntityTooLarge}} {
		body := io.MultiReader(strings.NewReader(record), &blankLines{n: tt.size - int64(len(record))})
		r := httptest.NewRequest("POST", "/api/import/movies", body)
		r.ContentLength = -1 // streamed, size not announced
		r.Header.Set("Authorization", "Bearer "+secret)
		r.Header.Set("Content-Type", "application/x-ndjson")
		w := httptest.NewRecorder()
		e.handler.ServeHTTP(w, r)
		if w.Code != tt.status {
			t.Errorf("%d bytes: got %d %.300s, want %d", tt.size, w.Code, w.Body, tt.status)
		}
		n, err := e.store.CountMovies(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if tt.status == http.StatusRequestEntityTooLarge {
			// The record before the limit is written (an upsert of the
			// first upload's movie, by its slug), and the message and
			// the report say so.
			if n != 1 || !strings.Contains(w.Body.String(), "; 1 records were imported before the limit") ||
				!strings.Contains(w.Body.String(), `"last_line":1}`) {
				t.Errorf("%d bytes: %d movies stored, message %s; want 1 stored and the count in the message", tt.size, n, w.Body)
			}
		}
	}
}

// blankLines reads as n newlines, without holding them in memory.
type blankLines struct{ n int64 }

func (b *blankLines) Read(p []byte) (int, error) {
	if b.n <= 0 {
		return 0, io.EOF
	}
	if int64(len(p)) > b.n {
		p = p[:b.n]
	}
	for i := range p {
		p[i] = '\n'
	}
	b.n -= int64(len(p))
	return len(p), nil
}

// A second import while one runs is refused clearly.
func TestImportEndpointOneAtATime(t *testing.T) {
	e := newEnv(t)
	secret, _ := e.newToken("movies:write")
	pr, pw := io.Pipe()
	first := make(chan int)
	go func() {
		r := httptest.NewRequest("POST", "/api/import/movies", pr)
		r.Header.Set("Authorization", "Bearer "+secret)
		r.Header.Set("Content-Type", "application/x-ndjson")
		w := httptest.NewRecorder()
		e.handler.ServeHTTP(w, r)
		first <- w.Code
	}()
	// Once the first import has read a line, it holds the slot.
	if _, err := io.WriteString(pw, `{"name":"Slow upload"}`+"\n"); err != nil {
		t.Fatal(err)
	}
	w := e.do(request{method: "POST", target: "/api/import/movies", body: `{"name":"x"}`,
		headers: map[string]string{"Authorization": "Bearer " + secret, "Content-Type": "application/x-ndjson"}})
	body := wantError(t, w, http.StatusConflict)
	if !strings.Contains(body.Error.Message, "another import is running") {
		t.Errorf("409 message: got %q", body.Error.Message)
	}
	pw.Close()
	if code := <-first; code != http.StatusOK {
		t.Errorf("first import: got %d, want 200", code)
	}
}

// A write admitted by a token has an audit line naming the token, with
// the request id that joins it to the request line.
func TestTokenWritesAudited(t *testing.T) {
	var logs bytes.Buffer
	e := newEnv(t, func(c *cli.ServiceDeps) { c.Logger = slog.New(httpx.LogHandler(slog.NewJSONHandler(&logs, nil))) })
	secret, tok := e.newToken("clips:write")
	w := e.do(request{method: "POST", target: "/api/clips", body: tokenClip, headers: bearer(secret, map[string]string{"X-Request-Id": "audit-1"})})
	if w.Code != http.StatusCreated {
		t.Fatalf("POST: got %d", w.Code)
	}
	var audit, line map[string]any
	for _, l := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatal(err)
		}
		switch m["msg"] {
		case "api token write":
			audit = m
		case "request":
			if m["method"] == "POST" {
				line = m
			}
		}
	}
	if audit == nil || audit["token_id"] != float64(tok.ID) || audit["token"] != "test" || audit["method"] != "POST" ||
		audit["path"] != "/api/clips" || audit["request_id"] != "audit-1" {
		t.Errorf("audit line %v, want the token's id and name, the write and request_id audit-1", audit)
	}
	if line == nil || line["request_id"] != "audit-1" || line["status"] != float64(201) {
		t.Errorf("request line %v, want request_id audit-1 and status 201", line)
	}
	// A refused token writes no audit line.
	logs.Reset()
	e.do(request{method: "POST", target: "/api/clips", body: tokenClip, headers: bearer(auth.Prefix+strings.Repeat("ab", 32), nil)})
	if strings.Contains(logs.String(), "api token write") {
		t.Errorf("a refused token was audited as a write: %s", logs.String())
	}
}
