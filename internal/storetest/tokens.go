package storetest

import (
	"context"
	"slices"
	"testing"
	"time"

	"catalog/internal/catalog"
)

// runTokens checks the API token store (contract 8): only hashes kept,
// scopes round-trip, a revoked token is gone at once.
func runTokens(t *testing.T, open func(t *testing.T) catalog.Store) {
	ctx := context.Background()
	s := open(t)

	list, err := s.ListTokens(ctx)
	noErr(t, err, "ListTokens on an empty store")
	if len(list) != 0 {
		t.Fatalf("ListTokens: got %d tokens, want 0", len(list))
	}
	_, err = s.TokenByHash(ctx, "0000")
	wantCode(t, err, catalog.ENOTFOUND)

	before := nowSecond()
	a := catalog.APIToken{Name: "deploy ทดสอบ", Scopes: []string{catalog.ScopeClipsWrite, catalog.ScopeMoviesWrite}, TokenHash: "aaaa"}
	noErr(t, s.CreateToken(ctx, &a), "CreateToken a")
	b := catalog.APIToken{Name: "nightly", Scopes: []string{catalog.ScopeMoviesWrite}, TokenHash: "bbbb"}
	noErr(t, s.CreateToken(ctx, &b), "CreateToken b")
	if a.ID <= 0 || b.ID <= a.ID {
		t.Fatalf("ids: got %d then %d, want positive and increasing", a.ID, b.ID)
	}
	wantTimeBetween(t, "CreatedAt", a.CreatedAt, before, nowSecond())

	got, err := s.TokenByHash(ctx, "aaaa")
	noErr(t, err, "TokenByHash")
	if got.ID != a.ID || got.Name != a.Name || !slices.Equal(got.Scopes, a.Scopes) || !got.CreatedAt.Equal(a.CreatedAt) || !got.LastUsed.IsZero() {
		t.Errorf("TokenByHash: got %+v, want %+v with no last use", got, a)
	}

	used := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	noErr(t, s.TouchToken(ctx, b.ID, used), "TouchToken")
	list, err = s.ListTokens(ctx)
	noErr(t, err, "ListTokens")
	if len(list) != 2 || list[0].ID != a.ID || list[1].ID != b.ID {
		t.Fatalf("ListTokens: got %+v, want a then b", list)
	}
	if !list[1].LastUsed.Equal(used) || !slices.Equal(list[1].Scopes, []string{catalog.ScopeMoviesWrite}) {
		t.Errorf("ListTokens[1]: got %+v, want last use %s and scope movies:write", list[1], used)
	}

	revokedFrom := nowSecond()
	noErr(t, s.RevokeToken(ctx, a.ID), "RevokeToken")
	_, err = s.TokenByHash(ctx, "aaaa")
	wantCode(t, err, catalog.ENOTFOUND)
	wantCode(t, s.RevokeToken(ctx, a.ID), catalog.ENOTFOUND)
	wantCode(t, s.RevokeToken(ctx, b.ID+1000), catalog.ENOTFOUND)
	list, err = s.ListTokens(ctx)
	noErr(t, err, "ListTokens after revoke")
	if len(list) != 2 || list[0].ID != a.ID || list[1].ID != b.ID {
		t.Fatalf("ListTokens after revoke: got %+v, want a (revoked) then b", list)
	}
	wantTimeBetween(t, "RevokedAt", list[0].RevokedAt, revokedFrom, nowSecond())
	if !list[1].RevokedAt.IsZero() {
		t.Errorf("ListTokens after revoke: b has RevokedAt %s, want zero (live)", list[1].RevokedAt)
	}

	// Ids are never reused: after the newest token is revoked, a new
	// one gets a higher id, so a stale "token revoke N" cannot reach it.
	noErr(t, s.RevokeToken(ctx, b.ID), "RevokeToken b")
	c := catalog.APIToken{Name: "after", Scopes: []string{catalog.ScopeClipsWrite}, TokenHash: "cccc"}
	noErr(t, s.CreateToken(ctx, &c), "CreateToken c")
	if c.ID <= b.ID {
		t.Errorf("CreateToken after revoking token %d: got id %d, want above %d (ids are never reused)", b.ID, c.ID, b.ID)
	}
	got, err = s.TokenByHash(ctx, "cccc")
	noErr(t, err, "TokenByHash c")
	if got.ID != c.ID || !got.RevokedAt.IsZero() {
		t.Errorf("TokenByHash c: got %+v, want id %d, live", got, c.ID)
	}
}
