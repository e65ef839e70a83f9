package storetest

import (
	"context"
	"testing"
	"time"

	"catalog/internal/catalog"
)

func createAdmin(tb testing.TB, s catalog.Store, username string) catalog.Admin {
	tb.Helper()
	a := catalog.Admin{Username: username, PasswordHash: "$2a$10$abcdefghijklmnopqrstuv" + username}
	noErr(tb, s.CreateAdmin(context.Background(), &a), "CreateAdmin")
	return a
}

func runAdmins(t *testing.T, open func(t *testing.T) catalog.Store) {
	ctx := context.Background()

	t.Run("Admins", func(t *testing.T) {
		s := open(t)
		before := nowSecond()
		a := createAdmin(t, s, "alice")
		if a.ID <= 0 {
			t.Fatalf("CreateAdmin: got id %d, want positive", a.ID)
		}
		wantTimeBetween(t, "CreatedAt", a.CreatedAt, before, nowSecond())
		got, err := s.AdminByUsername(ctx, "alice")
		noErr(t, err, "AdminByUsername")
		if got != a {
			t.Fatalf("AdminByUsername: got %+v, want %+v", got, a)
		}

		dup := catalog.Admin{Username: "alice", PasswordHash: "other"}
		wantCode(t, s.CreateAdmin(ctx, &dup), catalog.ECONFLICT)
		if got, _ := s.AdminByUsername(ctx, "alice"); got.PasswordHash != a.PasswordHash {
			t.Fatalf("duplicate CreateAdmin changed the hash to %q", got.PasswordHash)
		}

		_, err = s.AdminByUsername(ctx, "bob")
		wantCode(t, err, catalog.ENOTFOUND)
		_, err = s.AdminByUsername(ctx, "Alice") // usernames are exact
		wantCode(t, err, catalog.ENOTFOUND)
		b := createAdmin(t, s, "bob")
		if b.ID == a.ID {
			t.Fatalf("second admin: got id %d, same as the first", b.ID)
		}
	})

	// Operators manage administrators: list, delete and reset the
	// password, the last two ending the administrator's sessions at once.
	t.Run("Manage", func(t *testing.T) {
		s := open(t)
		a := createAdmin(t, s, "alice")
		b := createAdmin(t, s, "bob")
		list, err := s.ListAdmins(ctx)
		noErr(t, err, "ListAdmins")
		if len(list) != 2 || list[0].Username != "alice" || list[1].Username != "bob" || list[0].PasswordHash != "" || !list[1].CreatedAt.Equal(b.CreatedAt) {
			t.Fatalf("ListAdmins: got %+v, want alice then bob without hashes", list)
		}
		now := nowSecond()
		for _, h := range []string{"a1", "a2"} {
			noErr(t, s.CreateSession(ctx, catalog.Session{TokenHash: h, AdminID: a.ID, CreatedAt: now, LastSeen: now}), "CreateSession")
		}
		noErr(t, s.CreateSession(ctx, catalog.Session{TokenHash: "b1", AdminID: b.ID, CreatedAt: now, LastSeen: now}), "CreateSession")

		ended, err := s.SetAdminPassword(ctx, "alice", "$2a$10$new")
		noErr(t, err, "SetAdminPassword")
		if ended != 2 {
			t.Errorf("SetAdminPassword: ended %d sessions, want 2", ended)
		}
		if got, _ := s.AdminByUsername(ctx, "alice"); got.PasswordHash != "$2a$10$new" {
			t.Errorf("after SetAdminPassword: hash %q", got.PasswordHash)
		}
		_, err = s.SessionByTokenHash(ctx, "a1")
		wantCode(t, err, catalog.ENOTFOUND)
		_, err = s.SessionByTokenHash(ctx, "b1")
		noErr(t, err, "bob's session after alice's reset")
		_, err = s.SetAdminPassword(ctx, "carol", "x")
		wantCode(t, err, catalog.ENOTFOUND)

		// Tokens belong to the administrator who made them: deleting
		// bob revokes bob's live ones, and only those.
		tokens := map[string]*catalog.APIToken{}
		for _, tok := range []struct {
			hash  string
			admin int64
		}{{"tb1", b.ID}, {"tb2", b.ID}, {"tb3", b.ID}, {"ta1", a.ID}, {"cli", 0}} {
			tokens[tok.hash] = &catalog.APIToken{Name: tok.hash, Scopes: []string{catalog.ScopeMoviesWrite}, TokenHash: tok.hash, AdminID: tok.admin}
			noErr(t, s.CreateToken(ctx, tokens[tok.hash]), "CreateToken")
		}
		if got, _ := s.TokenByHash(ctx, "tb1"); got.AdminID != b.ID {
			t.Errorf("token's admin: got %d, want %d", got.AdminID, b.ID)
		}
		noErr(t, s.RevokeToken(ctx, tokens["tb3"].ID), "RevokeToken")
		byHash := func() map[string]catalog.APIToken {
			list, err := s.ListTokens(ctx)
			noErr(t, err, "ListTokens")
			m := map[string]catalog.APIToken{}
			for _, tok := range list {
				m[tok.Name] = tok
			}
			return m
		}
		revokedBefore := byHash()["tb3"]

		before := nowSecond()
		revoked, err := s.DeleteAdmin(ctx, "bob")
		noErr(t, err, "DeleteAdmin")
		if revoked != 2 {
			t.Errorf("DeleteAdmin: revoked %d tokens, want bob's 2 live ones", revoked)
		}
		after := byHash()
		for hash, wantRevoked := range map[string]bool{"tb1": true, "tb2": true, "ta1": false, "cli": false} {
			got := after[hash]
			if _, err := s.TokenByHash(ctx, hash); (err == nil) == wantRevoked {
				t.Errorf("token %s after bob's deletion: TokenByHash gave %v, want it usable %v", hash, err, !wantRevoked)
			}
			if got.RevokedAt.IsZero() == wantRevoked {
				t.Errorf("token %s after bob's deletion: revoked at %v, want revoked %v", hash, got.RevokedAt, wantRevoked)
			}
			if wantRevoked {
				wantTimeBetween(t, "RevokedAt", got.RevokedAt, before, nowSecond())
			}
		}
		if got := after["tb3"]; !got.RevokedAt.Equal(revokedBefore.RevokedAt) {
			t.Errorf("a token revoked before: RevokedAt got %v, want %v kept", got.RevokedAt, revokedBefore.RevokedAt)
		}
		_, err = s.SessionByTokenHash(ctx, "b1")
		wantCode(t, err, catalog.ENOTFOUND)
		_, err = s.AdminByUsername(ctx, "bob")
		wantCode(t, err, catalog.ENOTFOUND)
		_, err = s.DeleteAdmin(ctx, "bob")
		wantCode(t, err, catalog.ENOTFOUND)
		// A new administrator of the same name owns none of them.
		bob2 := createAdmin(t, s, "bob")
		if bob2.ID == b.ID {
			t.Errorf("a new bob got the deleted one's id %d", b.ID)
		}
		if revoked, err := s.DeleteAdmin(ctx, "bob"); err != nil || revoked != 0 {
			t.Errorf("DeleteAdmin of the new bob: got %d, %v; want 0 tokens", revoked, err)
		}
		if list, _ := s.ListAdmins(ctx); len(list) != 1 || list[0].Username != "alice" {
			t.Errorf("ListAdmins after delete: got %+v, want only alice", list)
		}
	})

	t.Run("Sessions", func(t *testing.T) {
		s := open(t)
		a := createAdmin(t, s, "alice")
		start := nowSecond()
		sess := catalog.Session{TokenHash: "aa11", AdminID: a.ID, CreatedAt: start, LastSeen: start}
		noErr(t, s.CreateSession(ctx, sess), "CreateSession")
		got, err := s.SessionByTokenHash(ctx, "aa11")
		noErr(t, err, "SessionByTokenHash")
		want := sess
		want.Username = "alice"
		if !sameSession(got, want) {
			t.Fatalf("SessionByTokenHash: got %+v, want %+v", got, want)
		}
		_, err = s.SessionByTokenHash(ctx, "bb22")
		wantCode(t, err, catalog.ENOTFOUND)

		// The console language an administrator saves comes back with
		// every session of theirs.
		noErr(t, s.SetAdminLanguage(ctx, a.ID, "th"), "SetAdminLanguage")
		got, err = s.SessionByTokenHash(ctx, "aa11")
		noErr(t, err, "SessionByTokenHash")
		if got.Language != "th" {
			t.Fatalf("after SetAdminLanguage: session language %q, want th", got.Language)
		}
		wantCode(t, s.SetAdminLanguage(ctx, a.ID+1000, "th"), catalog.ENOTFOUND)

		later := start.Add(90 * time.Second)
		noErr(t, s.TouchSession(ctx, "aa11", later), "TouchSession")
		got, err = s.SessionByTokenHash(ctx, "aa11")
		noErr(t, err, "SessionByTokenHash")
		if !got.LastSeen.Equal(later) || !got.CreatedAt.Equal(start) {
			t.Fatalf("after touch: got last seen %v created %v, want %v and %v", got.LastSeen, got.CreatedAt, later, start)
		}
		wantCode(t, s.TouchSession(ctx, "bb22", later), catalog.ENOTFOUND)

		noErr(t, s.DeleteSession(ctx, "aa11"), "DeleteSession")
		_, err = s.SessionByTokenHash(ctx, "aa11")
		wantCode(t, err, catalog.ENOTFOUND)
		noErr(t, s.DeleteSession(ctx, "aa11"), "DeleteSession of a gone session (logout twice)")
	})

	t.Run("DeleteExpiredSessions", func(t *testing.T) {
		s := open(t)
		a := createAdmin(t, s, "alice")
		now := nowSecond()
		sessions := []struct {
			hash          string
			created, seen time.Time
			expired       bool
		}{
			{"fresh", now.Add(-time.Hour), now.Add(-time.Minute), false},
			{"idle at the limit", now.Add(-24 * time.Hour), now.Add(-catalog.SessionIdle), false},
			{"idle too long", now.Add(-24 * time.Hour), now.Add(-catalog.SessionIdle - time.Second), true},
			{"old but active", now.Add(-catalog.SessionAbsolute - time.Second), now.Add(-time.Minute), true},
			{"absolute at the limit", now.Add(-catalog.SessionAbsolute), now.Add(-time.Minute), false},
		}
		for _, ss := range sessions {
			sess := catalog.Session{TokenHash: ss.hash, AdminID: a.ID, CreatedAt: ss.created, LastSeen: ss.seen}
			if sess.Expired(now) != ss.expired {
				t.Fatalf("test table disagrees with Session.Expired for %q", ss.hash)
			}
			noErr(t, s.CreateSession(ctx, sess), "CreateSession")
		}
		noErr(t, s.DeleteExpiredSessions(ctx, now), "DeleteExpiredSessions")
		for _, ss := range sessions {
			_, err := s.SessionByTokenHash(ctx, ss.hash)
			if ss.expired {
				wantCode(t, err, catalog.ENOTFOUND)
			} else {
				noErr(t, err, "session "+ss.hash+" should survive")
			}
		}
	})

	t.Run("LoginThrottle", func(t *testing.T) { runLoginThrottle(t, open) })
}

func sameSession(a, b catalog.Session) bool {
	return a.TokenHash == b.TokenHash && a.AdminID == b.AdminID && a.Username == b.Username && a.Language == b.Language &&
		a.CreatedAt.Equal(b.CreatedAt) && a.LastSeen.Equal(b.LastSeen)
}
