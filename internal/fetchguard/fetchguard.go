// Package fetchguard is the one way this program fetches a stranger's
// URL (contract 13): a collected source, a play link, a poster. A
// guarded client refuses, at dial time and after DNS, every address that
// reaches inside the network the program runs in (loopback, private,
// link-local, unique-local, multicast, unspecified, and their
// IPv4-mapped forms), for the first request and for every redirect,
// since a redirect dials again. Checking the address the dialer is about
// to connect to, rather than a name looked up beforehand, is what makes
// a name that resolves to a public address once and to a private one
// the next time (DNS rebinding) harmless.
//
// Redirects are few and only to http(s), no Referer is sent, an answer's
// body is bounded, and errors are worded in our own words: nothing a
// stranger wrote (a reason phrase, a certificate's names, a host in a
// Location) reaches an error message.
package fetchguard

import (
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Defaults of Options.
const (
	DefaultConnectTimeout = 10 * time.Second
	DefaultMaxRedirects   = 5
)

// Options configure a guarded client. The zero value is the strict
// guard with the defaults.
type Options struct {
	// AllowPrivate lets the client reach private addresses
	// (--fetch-allow-private): a source on the operator's own network,
	// or a test server on 127.0.0.1.
	AllowPrivate bool
	// ConnectTimeout bounds connecting, TLS handshake included; 0 means
	// DefaultConnectTimeout.
	ConnectTimeout time.Duration
	// Timeout bounds a whole request, redirects and body included; 0
	// means none (the caller's context bounds it).
	Timeout time.Duration
	// MaxRedirects is how many redirects are followed; 0 means
	// DefaultMaxRedirects, a negative value none.
	MaxRedirects int
	// MaxBody bounds an answer's body: a longer one (or one announcing
	// a longer Content-Length) is a *TooLargeError. 0 means no bound.
	MaxBody int64
	// UserAgent, when set, is sent with every request that has none.
	UserAgent string
	// Resolver looks names up; nil means net.DefaultResolver. Tests
	// give one whose answers they control.
	Resolver *net.Resolver
	// Exempt, when set, lets through the private addresses it returns
	// true for, when AllowPrivate is false: a test's own server, standing
	// for a public one, while every other private address stays refused.
	Exempt func(netip.AddrPort) bool
}

// NewClient returns an *http.Client that fetches through the guard.
// It uses no proxy: a proxy would connect on our behalf to addresses the
// guard never sees.
func NewClient(o Options) *http.Client {
	if o.ConnectTimeout <= 0 {
		o.ConnectTimeout = DefaultConnectTimeout
	}
	if o.MaxRedirects == 0 {
		o.MaxRedirects = DefaultMaxRedirects
	}
	dialer := &net.Dialer{Timeout: o.ConnectTimeout, KeepAlive: 30 * time.Second, Resolver: o.Resolver}
	if !o.AllowPrivate {
		dialer.Control = func(_, address string, _ syscall.RawConn) error { return check(address, o.Exempt) }
	}
	transport := &http.Transport{
		Proxy:               nil,
		DialContext:         dialer.DialContext,
		TLSHandshakeTimeout: o.ConnectTimeout,
		MaxIdleConnsPerHost: 2,
		IdleConnTimeout:     90 * time.Second,
		ForceAttemptHTTP2:   true,
	}
	return &http.Client{
		Transport:     &guarded{next: transport, opts: o},
		CheckRedirect: checkRedirect(o.MaxRedirects),
		Timeout:       o.Timeout,
	}
}

// check refuses to connect to a private address unless exempt lets it
// through. The dialer calls it with the address it resolved, just
// before connecting.
func check(address string, exempt func(netip.AddrPort) bool) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return &RefusedError{Reason: "unreadable address"}
	}
	if reason := Private(ap.Addr()); reason != "" && (exempt == nil || !exempt(ap)) {
		return &RefusedError{Addr: ap.Addr().Unmap(), Reason: reason}
	}
	return nil
}

// guarded sets the headers of every request and bounds every answer.
type guarded struct {
	next http.RoundTripper
	opts Options
}

func (g *guarded) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.URL.Scheme != "http" && req.URL.Scheme != "https" {
		if req.Body != nil {
			req.Body.Close()
		}
		return nil, &RedirectError{Reason: "only http and https addresses are fetched"}
	}
	if req.Header.Get("Referer") != "" || (g.opts.UserAgent != "" && req.Header.Get("User-Agent") == "") {
		req = req.Clone(req.Context())
		req.Header.Del("Referer")
		if g.opts.UserAgent != "" && req.Header.Get("User-Agent") == "" {
			req.Header.Set("User-Agent", g.opts.UserAgent)
		}
	}
	res, err := g.next.RoundTrip(req)
	if err != nil || g.opts.MaxBody <= 0 {
		return res, err
	}
	if res.ContentLength > g.opts.MaxBody {
		res.Body.Close()
		return nil, &TooLargeError{Limit: g.opts.MaxBody}
	}
	res.Body = &boundedBody{ReadCloser: res.Body, left: g.opts.MaxBody, limit: g.opts.MaxBody}
	return res, nil
}

// boundedBody fails a read past its bound with a *TooLargeError.
type boundedBody struct {
	io.ReadCloser
	left  int64
	limit int64
}

func (b *boundedBody) Read(p []byte) (int, error) {
	if b.left < 0 {
		return 0, &TooLargeError{Limit: b.limit}
	}
	if int64(len(p)) > b.left+1 {
		p = p[:b.left+1]
	}
	n, err := b.ReadCloser.Read(p)
	b.left -= int64(n)
	if b.left < 0 {
		return n + int(b.left), &TooLargeError{Limit: b.limit}
	}
	return n, err
}

// checkRedirect follows at most limit redirects, only to http(s), and
// sends no Referer to the next address: the source's address and its
// query (an API key) stay ours.
func checkRedirect(limit int) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		if limit < 0 || len(via) > limit {
			return &RedirectError{Reason: "more than " + strconv.Itoa(max(0, limit)) + " redirects"}
		}
		if req.URL.Scheme != "http" && req.URL.Scheme != "https" {
			return &RedirectError{Reason: "redirected to an address that is not http or https"}
		}
		req.Header.Del("Referer")
		return nil
	}
}

// RefusedError is a connection the guard refused.
type RefusedError struct {
	Addr   netip.Addr // the address the name resolved to; invalid when unknown
	Reason string     // loopback, private, link-local, ...
}

func (e *RefusedError) Error() string {
	if !e.Addr.IsValid() {
		return "refused: private address (" + e.Reason + ")"
	}
	return "refused: private address " + e.Addr.String() + " (" + e.Reason + ")"
}

// RedirectError is a redirect the client did not follow.
type RedirectError struct{ Reason string }

func (e *RedirectError) Error() string { return e.Reason }

// TooLargeError is an answer longer than Options.MaxBody.
type TooLargeError struct{ Limit int64 }

func (e *TooLargeError) Error() string { return "answer is larger than " + SizeText(e.Limit) }

// SizeText writes a byte count the way people read limits: 16 MiB.
func SizeText(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return strconv.FormatInt(n>>20, 10) + " MiB"
	case n >= 1<<10 && n%(1<<10) == 0:
		return strconv.FormatInt(n>>10, 10) + " KiB"
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

// StatusError is an answer whose status is not the one asked for.
type StatusError struct{ Code int }

// Error names the status by its number and Go's text for it, never the
// reason phrase the stranger sent.
func (e *StatusError) Error() string {
	if t := http.StatusText(e.Code); t != "" {
		return "answered " + strconv.Itoa(e.Code) + " " + t
	}
	return "answered " + strconv.Itoa(e.Code) + " (" + statusClass(e.Code) + ")"
}

func statusClass(code int) string {
	switch code / 100 {
	case 1:
		return "informational"
	case 2:
		return "success"
	case 3:
		return "a redirect"
	case 4:
		return "a client error"
	case 5:
		return "a server error"
	}
	return "not an HTTP status"
}

// Describe words a failed fetch in our own words: what kind of failure
// it was, never the text of the stranger's answer, certificate or
// redirect target. It returns "" for a nil error.
func Describe(err error) string {
	if err == nil {
		return ""
	}
	var (
		refused  *RefusedError
		redirect *RedirectError
		large    *TooLargeError
		status   *StatusError
		dnsErr   *net.DNSError
		verify   *tls.CertificateVerificationError
		record   tls.RecordHeaderError
		alert    tls.AlertError
		ne       net.Error
	)
	switch {
	case errors.As(err, &refused):
		return refused.Error()
	case errors.As(err, &redirect):
		return redirect.Error()
	case errors.As(err, &large):
		return large.Error()
	case errors.As(err, &status):
		return status.Error()
	case errors.Is(err, context.Canceled):
		return "cancelled"
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		return "timed out"
	case errors.As(err, &dnsErr):
		if dnsErr.IsNotFound {
			return "the host's name is not known"
		}
		return "could not look up the host's name"
	case errors.As(err, &verify):
		return "TLS: the certificate is not valid for this host"
	case errors.As(err, &record), errors.As(err, &alert):
		return "TLS handshake failed"
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused"
	case errors.Is(err, syscall.ECONNRESET):
		return "connection reset"
	case errors.Is(err, syscall.EHOSTUNREACH), errors.Is(err, syscall.ENETUNREACH):
		return "host unreachable"
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return "connection closed before the whole answer"
	}
	return "request failed"
}

// CheckURL refuses, before any fetch, an address that is not http(s) or
// whose host is a private address written out (an IP address, or
// localhost); names are checked when they are dialled. An operator's
// command calls it so that a source on the operator's own network is
// refused at once, with the flag that allows it, rather than at its
// first run.
func CheckURL(raw string, allowPrivate bool) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" {
		return errors.New("must be an http:// or https:// address")
	}
	if allowPrivate {
		return nil
	}
	host := strings.ToLower(strings.TrimSuffix(u.Hostname(), "."))
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return &RefusedError{Reason: "localhost"}
	}
	if a, err := netip.ParseAddr(host); err == nil {
		if reason := Private(a); reason != "" {
			return &RefusedError{Addr: a.Unmap(), Reason: reason}
		}
	}
	return nil
}

// Special-purpose ranges refused beside those netip names.
var (
	thisNetwork = netip.MustParsePrefix("0.0.0.0/8")
	shared      = netip.MustParsePrefix("100.64.0.0/10")  // carrier-grade NAT
	ietf        = netip.MustParsePrefix("192.0.0.0/24")   // protocol assignments
	benchmark   = netip.MustParsePrefix("198.18.0.0/15")  // network tests
	reserved    = netip.MustParsePrefix("240.0.0.0/4")    // and the broadcast address
	siteLocal   = netip.MustParsePrefix("fec0::/10")      // deprecated, still routed inside
	nat64       = netip.MustParsePrefix("64:ff9b::/96")   // an IPv4 address in the last 32 bits
	nat64Local  = netip.MustParsePrefix("64:ff9b:1::/48") // local-use NAT64
	v4Compat    = netip.MustParsePrefix("::/96")          // deprecated IPv4-compatible form
	sixToFour   = netip.MustParsePrefix("2002::/16")      // an IPv4 address in bits 16-47
)

// Private returns why a is an address the guard refuses ("loopback",
// "private", "link-local", "unique-local", "multicast", "unspecified",
// "reserved"), or "" when it may be fetched. IPv4 addresses written in
// IPv6 (mapped, compatible, NAT64, 6to4) are judged by the IPv4 address
// they carry.
func Private(a netip.Addr) string {
	a = a.Unmap()
	if a.Is6() {
		b := a.As16()
		switch {
		case nat64.Contains(a), v4Compat.Contains(a) && !a.IsUnspecified() && !a.IsLoopback():
			if r := Private(netip.AddrFrom4([4]byte(b[12:16]))); r != "" {
				return r
			}
		case sixToFour.Contains(a):
			if r := Private(netip.AddrFrom4([4]byte(b[2:6]))); r != "" {
				return r
			}
		}
	}
	switch {
	case !a.IsValid():
		return "unreadable address"
	case a.IsUnspecified():
		return "unspecified"
	case a.IsLoopback():
		return "loopback"
	case a.IsLinkLocalUnicast(), a.IsLinkLocalMulticast():
		return "link-local"
	case a.IsMulticast(), a.IsInterfaceLocalMulticast():
		return "multicast"
	case a.Is6() && a.IsPrivate():
		return "unique-local"
	case a.IsPrivate():
		return "private"
	case thisNetwork.Contains(a), shared.Contains(a), ietf.Contains(a), benchmark.Contains(a),
		reserved.Contains(a), siteLocal.Contains(a), nat64Local.Contains(a):
		return "reserved"
	}
	return ""
}
