package edge_test

import (
	"bytes"
	"context"
	"log/slog"
	"net"
	"strings"
	"testing"
	"time"

	"catalog/internal/edge"
)

// A failed purge is logged with the URL's user part and query values
// hidden: the key a --purge-url carries never reaches the log.
func TestPurgeFailureLogRedacted(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens: every purge fails with the URL in its error
	var logs bytes.Buffer
	p := edge.NewPurger(edge.PurgerConfig{URL: "http://admin:pa55word@" + addr + "/purge?key=s3cretkey",
		Logger: slog.New(slog.NewTextHandler(&logs, nil)), RetryWait: time.Millisecond})
	p.Announce("movies")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	p.Close(ctx)
	out := logs.String()
	if !strings.Contains(out, "edge purge given up") {
		t.Fatalf("no failure logged:\n%s", out)
	}
	for _, secret := range []string{"s3cretkey", "pa55word"} {
		if strings.Contains(out, secret) {
			t.Errorf("the log shows %q:\n%s", secret, out)
		}
	}
	if !strings.Contains(out, "key=xxxxx") {
		t.Errorf("the log does not name the redacted URL:\n%s", out)
	}
}
