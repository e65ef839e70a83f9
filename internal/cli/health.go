package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// healthTimeout bounds one health command: the probe of each service
// together with its answer. The service gives its database
// httpx.HealthTimeout, so this leaves room for a busy machine.
const healthTimeout = 5 * time.Second

// addrFlags registers the listen addresses of the two services; serve
// binds them and health probes them, from the same flags and variables.
func (f *flags) addrFlags(clips, movies *string) {
	f.stringVar(clips, "clips-addr", "CATALOG_CLIPS_ADDR", "127.0.0.1:8080", "listen address of the clip service")
	f.stringVar(movies, "movies-addr", "CATALOG_MOVIES_ADDR", "127.0.0.1:8081", "listen address of the movie service")
}

// health asks both services of a running serve for /api/health (with
// --ready, /api/health?ready) and succeeds only when both answer 200. It
// needs no shell or curl, so a container built from the bare binary can
// run it as its health check.
func (p *Program) health(ctx context.Context, args []string) error {
	var clipsAddr, moviesAddr string
	var ready bool
	f := newFlags("health", "",
		"Checks that a running serve answers: GET /api/health on both services' addresses\n"+
			"(an unspecified host such as 0.0.0.0 means this machine). Exit status 0 when both\n"+
			"answer 200, 1 otherwise.")
	f.addrFlags(&clipsAddr, &moviesAddr)
	f.boolVar(&ready, "ready", "", false, "ask /api/health?ready: 503 until the service's search index is ready")
	if _, err := f.parse(args, p); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, healthTimeout)
	defer cancel()
	client := &http.Client{Transport: &http.Transport{}} // no proxy from the environment
	defer client.CloseIdleConnections()
	var failed []string
	for _, svc := range []struct{ name, addr string }{{"clips", clipsAddr}, {"movies", moviesAddr}} {
		u, err := healthURL(svc.addr, ready)
		if err != nil {
			return usagef("health: --%s-addr: %s", svc.name, err)
		}
		answer := "200 OK"
		if status, err := probe(ctx, client, u); err != nil {
			answer = err.Error()
		} else if status != http.StatusOK {
			answer = fmt.Sprintf("%d %s", status, http.StatusText(status))
		}
		fmt.Fprintf(p.Stdout, "%s %s: %s\n", svc.name, u, answer)
		if answer != "200 OK" {
			failed = append(failed, svc.name)
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("health: not healthy: %s", strings.Join(failed, ", "))
	}
	return nil
}

// healthURL is the health address of a service listening on addr. A
// listener on every interface (no host, 0.0.0.0, ::) is reached through
// the loopback address of its family.
func healthURL(addr string, ready bool) (string, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("want HOST:PORT, got %q", addr)
	}
	if port == "0" || port == "" {
		return "", fmt.Errorf("port %q is picked at random by serve; give the bound port", port)
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "127.0.0.1"
		if ip != nil && ip.To4() == nil {
			host = "::1"
		}
	}
	u := url.URL{Scheme: "http", Host: net.JoinHostPort(host, port), Path: "/api/health"}
	if ready {
		u.RawQuery = "ready"
	}
	return u.String(), nil
}

// probe GETs u and returns the answer's status.
func probe(ctx context.Context, client *http.Client, u string) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return 0, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, fmt.Errorf("no answer: %w", errors.Unwrap(err)) // the url.Error repeats the URL
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
	return resp.StatusCode, nil
}
