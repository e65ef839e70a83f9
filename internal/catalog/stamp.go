package catalog

import "time"

// Stored times (created_at, updated_at, a session's expiry) are UTC in
// whole seconds: SQLite keeps unix seconds, PostgreSQL's timestamptz is
// given the same precision so that both engines answer alike, and every
// API answer writes RFC 3339 without fractions.

// StoredTime is t as it is stored: UTC, whole seconds.
func StoredTime(t time.Time) time.Time { return t.UTC().Truncate(time.Second) }

// StoredNow is the current time as it is stored.
func StoredNow() time.Time { return StoredTime(time.Now()) }

// UnixTime is the stored time of sec unix seconds.
func UnixTime(sec int64) time.Time { return time.Unix(sec, 0).UTC() }

// StoredTimeOr is StoredTime(t), or fallback when t is zero (a record
// whose caller gave no time gets the write's own).
func StoredTimeOr(t, fallback time.Time) time.Time {
	if t.IsZero() {
		return fallback
	}
	return StoredTime(t)
}
