// Package collect collects movies from MacCMS provide/vod sources
// (contract 10), as MacCMS's own collector does: it reads ac=detail page
// by page, in JSON or XML, maps each record to a movie, and writes each
// page in one transaction through catalog.SourceStore, which applies the
// identity rule.
//
// A source is a stranger: every request is bounded in time (connecting,
// then the whole page) and in size, redirects are few and only to
// http(s), and a run reads a bounded number of pages. Whatever goes
// wrong stops the run with a one-line error that names the page; the
// pages before it stay written and the failing page writes nothing.
package collect

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"catalog/internal/fetchguard"
)

// The limits of contract 10.
const (
	DefaultConnectTimeout = 10 * time.Second
	DefaultPageTimeout    = 60 * time.Second
	DefaultMaxPageBytes   = 16 << 20
	DefaultMaxPages       = 10000
	MaxRedirects          = 5
)

// Limits bound what a run asks of a source; a zero field takes its
// default. Tests shorten the timeouts.
type Limits struct {
	ConnectTimeout time.Duration
	PageTimeout    time.Duration
	MaxPageBytes   int64
	MaxPages       int
	// RetryWait is the wait before a failed page's second try
	// (DefaultRetryWait); the wait doubles for each later try.
	RetryWait time.Duration
}

func (l Limits) withDefaults() Limits {
	if l.ConnectTimeout <= 0 {
		l.ConnectTimeout = DefaultConnectTimeout
	}
	if l.PageTimeout <= 0 {
		l.PageTimeout = DefaultPageTimeout
	}
	if l.MaxPageBytes <= 0 {
		l.MaxPageBytes = DefaultMaxPageBytes
	}
	if l.MaxPages <= 0 {
		l.MaxPages = DefaultMaxPages
	}
	if l.RetryWait <= 0 {
		l.RetryWait = DefaultRetryWait
	}
	return l
}

// client fetches the pages of one source.
type client struct {
	http     *http.Client
	limits   Limits
	xml      bool
	base     *url.URL
	interval time.Duration
	hosts    *Hosts
}

// UserAgent is what a run calls itself in every request: catalog and
// its version, so that a source's operator knows who asks.
func UserAgent(version string) string {
	if version == "" {
		version = "dev"
	}
	return "catalog/" + version + " (collector; MacCMS provide API)"
}

// newClient checks the source's address and builds its HTTP client,
// which fetches through the guard of contract 13: fetch gives whether
// private addresses are allowed (and, in tests, which are exempt); the
// timeouts, size and redirects are the run's.
func newClient(rawURL string, limits Limits, fetch fetchguard.Options, version string) (*client, error) {
	u, err := url.Parse(strings.TrimSpace(rawURL))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("source address %q is not an http:// or https:// URL", rawURL)
	}
	limits = limits.withDefaults()
	fetch.ConnectTimeout = limits.ConnectTimeout
	fetch.MaxBody = limits.MaxPageBytes
	fetch.MaxRedirects = MaxRedirects
	fetch.UserAgent = UserAgent(version)
	return &client{http: fetchguard.NewClient(fetch), limits: limits, xml: namesXML(u), base: u}, nil
}

// namesXML reports whether a provide/vod address asks for XML: at=xml,
// or the path parameter /at/xml (contract 6).
func namesXML(u *url.URL) bool {
	if strings.EqualFold(u.Query().Get("at"), "xml") {
		return true
	}
	parts := strings.Split(strings.Trim(u.Path, "/"), "/")
	for i := 0; i+1 < len(parts); i++ {
		if strings.EqualFold(parts[i], "at") && strings.EqualFold(parts[i+1], "xml") {
			return true
		}
	}
	return false
}

// PageSize is the pagesize a run asks for when the address names none:
// the most the provide API serves (contract 6). Sources that ignore it
// page in their own size, which pagecount follows.
const PageSize = 100

// pageURL is the address of one detail page: the source's address with
// ac=detail, pg, pagesize unless the address sets one a page may hold
// (at most MaxPageRecords) and, when hours > 0, h.
func (c *client) pageURL(page, hours int) string {
	u := *c.base
	q := u.Query()
	q.Set("ac", "detail")
	q.Set("pg", strconv.Itoa(page))
	if n, err := strconv.Atoi(q.Get("pagesize")); err != nil || n <= 0 || n > MaxPageRecords {
		q.Set("pagesize", strconv.Itoa(PageSize))
	}
	if hours > 0 {
		q.Set("h", strconv.Itoa(hours))
	} else {
		q.Del("h")
	}
	u.RawQuery = q.Encode()
	return u.String()
}

// fetch reads one page whole, within the page timeout and size limit,
// and checks that it is what the format promises. Its errors are in our
// words (fetchguard.Describe): nothing the source sent is repeated.
func (c *client) fetch(ctx context.Context, page, hours int) ([]byte, error) {
	ctx, cancel := context.WithTimeoutCause(ctx, c.limits.PageTimeout, fmt.Errorf("no whole answer within %s", c.limits.PageTimeout))
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.pageURL(page, hours), nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json, text/xml;q=0.9, */*;q=0.1")
	res, err := c.http.Do(req)
	if err != nil {
		return nil, c.failed(ctx, err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		err := &fetchguard.StatusError{Code: res.StatusCode}
		if passingStatus(res.StatusCode) {
			return nil, passing{err}
		}
		return nil, err
	}
	if err := c.checkType(res.Header.Get("Content-Type")); err != nil {
		return nil, err
	}
	body, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, c.failed(ctx, err)
	}
	return body, nil
}

// failed words a request that failed on the way (netError), marked as
// one that may pass unless the guard refused it or the answer was too
// large.
func (c *client) failed(ctx context.Context, err error) error {
	var refused *fetchguard.RefusedError
	var large *fetchguard.TooLargeError
	if errors.As(err, &refused) || errors.As(err, &large) {
		return c.netError(ctx, err)
	}
	return passing{c.netError(ctx, err)}
}

// netError words a failed request: why its context ended (the page
// timeout, or the run's end), a connect timeout with its limit, else
// fetchguard's words for it.
func (c *client) netError(ctx context.Context, err error) error {
	if cause := context.Cause(ctx); cause != nil {
		return cause
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return fmt.Errorf("could not connect within %s", c.limits.ConnectTimeout)
	}
	var refused *fetchguard.RefusedError
	if errors.As(err, &refused) {
		return refused // in our words, and callers tell the flag that allows it
	}
	return errors.New(fetchguard.Describe(err))
}

// checkType refuses an answer whose Content-Type cannot hold the format.
// The text types are accepted because PHP, which most sources run on,
// labels every answer text/html unless told otherwise; what the body
// holds is checked when it is decoded.
func (c *client) checkType(header string) error {
	if header == "" {
		return nil
	}
	mt, _, err := mime.ParseMediaType(header)
	if err != nil {
		return errors.New("answer has an unreadable Content-Type")
	}
	switch {
	case mt == "text/html", mt == "text/plain":
		return nil
	case c.xml && (mt == "text/xml" || mt == "application/xml" || strings.HasSuffix(mt, "+xml")):
		return nil
	case !c.xml && (mt == "application/json" || mt == "text/json" || mt == "text/javascript" || mt == "application/javascript"):
		return nil
	}
	if c.xml {
		return errors.New("answer's Content-Type is not an XML type")
	}
	return errors.New("answer's Content-Type is not a JSON type")
}
