package admin_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// A console upload that breaks off answers 4xx, never 500, and the page
// reports what was committed: the records written and the line where
// the last record read starts.
func TestConsoleImportBrokenOff(t *testing.T) {
	t.Parallel()
	c := newConsole(t)
	u, _ := url.Parse(c.url)
	var form bytes.Buffer
	mw := multipart.NewWriter(&form)
	mw.WriteField("kind", "movies")
	fw, _ := mw.CreateFormFile("file", "cut.jsonl")
	io.WriteString(fw, "{\"name\":\"one\"}\n{\"name\":\"two\"}\n{\"name\":\"thr")

	conn, err := net.Dial("tcp", u.Host)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var cookies []string
	for _, ck := range c.client.Jar.Cookies(u) {
		cookies = append(cookies, ck.Name+"="+ck.Value)
	}
	// The announced length is 1,000 bytes more than is sent: the
	// connection is closed for writing before the body ends.
	fmt.Fprintf(conn, "POST /admin/import HTTP/1.1\r\nHost: %s\r\nContent-Type: %s\r\nContent-Length: %d\r\nCookie: %s\r\nOrigin: %s\r\n\r\n",
		u.Host, mw.FormDataContentType(), form.Len()+1000, strings.Join(cookies, "; "), c.url)
	conn.Write(form.Bytes())
	conn.(*net.TCPConn).CloseWrite()

	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	body := string(b)
	if res.StatusCode != http.StatusBadRequest {
		t.Fatalf("broken-off upload: got %d, want 400\n%.500s", res.StatusCode, body)
	}
	for _, want := range []string{"the upload broke off after", "cut.jsonl: 2 read, 2 imported, 0 rejected",
		"The 2 records written are kept; the last record read starts at line 2."} {
		if !strings.Contains(body, want) {
			t.Errorf("page does not say %q\n%s", want, body)
		}
	}
	if n, _ := c.store.CountMovies(context.Background()); n != 2 {
		t.Errorf("movies stored: got %d, want 2", n)
	}
}
