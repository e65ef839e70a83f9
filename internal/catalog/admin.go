package catalog

import "time"

// Admin is an administrator of the clip service.
type Admin struct {
	ID           int64
	Username     string
	PasswordHash string // bcrypt
	CreatedAt    time.Time
}

// MinPasswordRunes is the shortest accepted administrator password.
const MinPasswordRunes = 12

// Session lifetimes (contract 5).
const (
	SessionIdle     = 12 * time.Hour
	SessionAbsolute = 7 * 24 * time.Hour
)

// Session is a logged-in administrator. Stores keep only a hash of the
// token, never the token itself.
type Session struct {
	TokenHash string // hex SHA-256 of the cookie token
	AdminID   int64
	Username  string // filled on read
	CreatedAt time.Time
	LastSeen  time.Time
}

// Expired reports whether s is past its idle or absolute lifetime at now.
func (s Session) Expired(now time.Time) bool {
	return now.Sub(s.LastSeen) > SessionIdle || now.Sub(s.CreatedAt) > SessionAbsolute
}
