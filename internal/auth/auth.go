// Package auth is who may change the catalog: the administrators'
// browser sessions (contract 5, Sessions) and the API tokens (contract
// 8, Tokens), the secrets that scripts send as "Authorization: Bearer
// TOKEN" to change clips and import records without a browser session.
// The clip service's JSON API and its admin console both authenticate
// through this package. Only a SHA-256 hash of a session token or an API
// secret is stored, and every request looks its hash up in the
// database, so a logout or a revoked token holds at once on every
// instance sharing that database.
package auth

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"catalog/internal/catalog"
)

// Prefix starts every secret, so that one pasted in the wrong place (a
// log, a repository) is recognisable.
const Prefix = "catalog_"

// secretBytes is the randomness of a secret: 256 bits.
const secretBytes = 32

// touchEvery bounds how often a token's or a session's last use is
// written, so that a busy script or administrator does not cost one
// write per request.
const touchEvery = time.Minute

// NewSecret returns a fresh secret and the hash to store for it.
func NewSecret() (secret, hash string) {
	secret = Prefix + hex.EncodeToString(randomBytes(secretBytes))
	return secret, Hash(secret)
}

func randomBytes(n int) []byte {
	raw := make([]byte, n)
	rand.Read(raw) // never fails (crypto/rand documents it)
	return raw
}

// Hash is the only form of a secret or a session token the database
// sees, so a leaked database hands out no live sessions or tokens.
func Hash(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}

// TokenOnly reports whether the request carries a well-formed API
// token ("Bearer catalog_" and 64 hex digits) and no cookie. A browser
// never attaches such a header by itself, so the request cannot be a
// cross-site forgery and may skip the cross-origin check (contract 8).
// Any other Authorization header does not count: browsers attach Basic
// and Negotiate credentials to cross-site form posts on their own. With
// a cookie present the check still applies.
func TokenOnly(r *http.Request) bool {
	_, ok := bearer(r.Header.Get("Authorization"))
	return ok && r.Header.Get("Cookie") == ""
}

// Tokens checks bearer tokens against a store.
type Tokens struct {
	store catalog.TokenStore
	log   *slog.Logger
	now   func() time.Time
}

// New returns a token checker; log may be nil.
func New(store catalog.TokenStore, log *slog.Logger) *Tokens {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Tokens{store: store, log: log, now: time.Now}
}

// Authenticate returns the token that the Authorization header value
// authorization names when it is valid and carries scope: EUNAUTHORIZED
// for a missing, malformed, unknown or revoked token, EFORBIDDEN for
// one without the scope. A request that carries an Authorization
// header at all is judged by it alone, never by a session cookie it
// may also carry.
func (t *Tokens) Authenticate(ctx context.Context, authorization, scope string) (catalog.APIToken, error) {
	secret, ok := bearer(authorization)
	if !ok {
		return catalog.APIToken{}, catalog.Errorf(catalog.EUNAUTHORIZED, "send Authorization: Bearer TOKEN with a valid API token")
	}
	tok, err := t.store.TokenByHash(ctx, Hash(secret))
	if catalog.ErrorCode(err) == catalog.ENOTFOUND {
		return tok, catalog.Errorf(catalog.EUNAUTHORIZED, "the API token is unknown or revoked")
	}
	if err != nil {
		return tok, fmt.Errorf("load token: %w", err)
	}
	if !tok.Allows(scope) {
		return tok, catalog.Errorf(catalog.EFORBIDDEN, "the API token lacks the scope %s", scope)
	}
	if now := t.now(); now.Sub(tok.LastUsed) >= touchEvery {
		// A failed touch only leaves "last used" older; the request
		// itself is authenticated.
		if err := t.store.TouchToken(context.WithoutCancel(ctx), tok.ID, now); err != nil {
			t.log.Warn("touch token", "err", err)
		}
	}
	return tok, nil
}

// bearer extracts the secret of "Bearer SECRET" (the scheme is
// case-insensitive, RFC 9110 11.1).
func bearer(header string) (string, bool) {
	scheme, secret, ok := strings.Cut(header, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	secret = strings.TrimSpace(secret)
	if !strings.HasPrefix(secret, Prefix) || len(secret) != len(Prefix)+2*secretBytes {
		return "", false
	}
	if _, err := hex.DecodeString(secret[len(Prefix):]); err != nil {
		return "", false
	}
	return secret, true
}
