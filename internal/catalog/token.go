package catalog

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"time"
)

// API token scopes (contract 8): what a script holding the token may
// change.
const (
	ScopeClipsWrite  = "clips:write"
	ScopeMoviesWrite = "movies:write"
)

// Scopes lists every scope, in the order they are shown.
func Scopes() []string { return []string{ScopeClipsWrite, ScopeMoviesWrite} }

// MaxTokenNameRunes bounds a token's name, a label for people.
const MaxTokenNameRunes = 100

// APIToken is a credential for scripts. Stores keep only a hash of the
// secret, never the secret itself.
type APIToken struct {
	ID        int64
	Name      string
	Scopes    []string // a subset of Scopes(), in that order
	TokenHash string   // hex SHA-256 of the secret
	CreatedAt time.Time
	LastUsed  time.Time // zero: never used
	RevokedAt time.Time // zero: live; a revoked token stays listed
	// AdminID is the administrator who made the token in the console,
	// whose deletion revokes it; 0 for a token made by the operator
	// (catalog token create).
	AdminID int64
}

// Allows reports whether the token carries scope.
func (t APIToken) Allows(scope string) bool { return slices.Contains(t.Scopes, scope) }

// NewAPIToken validates a name and a comma-separated scope list and
// returns the token to store (without its hash). Every problem is a
// field error.
func NewAPIToken(name, scopes string) (APIToken, error) {
	fe := FieldErrors{}
	name = CleanText(name)
	if name == "" {
		fe.Add("name", "is required")
	} else if msg := checkText(name, MaxTokenNameRunes, false); msg != "" {
		fe.Add("name", msg)
	}
	var want []string
	for _, s := range strings.Split(scopes, ",") {
		if s = strings.TrimSpace(s); s == "" {
			continue
		}
		if !slices.Contains(Scopes(), s) {
			fe.Add("scope", "unknown scope "+strconv.Quote(s)+": use "+strings.Join(Scopes(), ", "))
			continue
		}
		want = append(want, s)
	}
	if len(want) == 0 && fe["scope"] == "" {
		fe.Add("scope", "give at least one of "+strings.Join(Scopes(), ", "))
	}
	if err := fe.Err(); err != nil {
		return APIToken{}, err
	}
	var ordered []string
	for _, s := range Scopes() {
		if slices.Contains(want, s) {
			ordered = append(ordered, s)
		}
	}
	return APIToken{Name: name, Scopes: ordered}, nil
}

// TokenStore keeps API tokens. Every instance reads them from the
// database on each request, so a revocation takes effect at once
// everywhere.
type TokenStore interface {
	// CreateToken assigns t.ID and t.CreatedAt (UTC, whole seconds).
	CreateToken(ctx context.Context, t *APIToken) error
	// ListTokens returns every token, revoked ones included (with
	// RevokedAt), oldest first.
	ListTokens(ctx context.Context) ([]APIToken, error)
	// TokenByHash returns ENOTFOUND for unknown or revoked tokens.
	TokenByHash(ctx context.Context, tokenHash string) (APIToken, error)
	// TouchToken records a use of the token.
	TouchToken(ctx context.Context, id int64, at time.Time) error
	// RevokeToken records the token's revocation, after which
	// TokenByHash no longer finds it; ENOTFOUND when there is no live
	// token with that id. Ids are never reused, so a stale id can only
	// miss, never revoke a newer token.
	RevokeToken(ctx context.Context, id int64) error
}
