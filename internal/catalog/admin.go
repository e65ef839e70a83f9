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
	// Language is the administrator's saved console language, "" for
	// none; filled on read.
	Language  string
	CreatedAt time.Time
	LastSeen  time.Time
}

// Expired reports whether s is past its idle or absolute lifetime at now.
func (s Session) Expired(now time.Time) bool {
	return now.Sub(s.LastSeen) > SessionIdle || now.Sub(s.CreatedAt) > SessionAbsolute
}

// Failed-login throttling (contract 5). The counts live in the database
// so that every instance sharing it enforces the same limits.
const (
	// LoginWindow is how long a failed login counts; older ones are
	// deleted. Refused logins are told to come back after it.
	LoginWindow = 15 * time.Minute
	// LoginPairLimit bounds the failures of one username from one
	// client address.
	LoginPairLimit = 5
	// LoginAddressLimit bounds the failures from one client address over
	// all usernames.
	LoginAddressLimit = 20
	// LoginUsernameLimit bounds the failures of one username over all
	// addresses, except from an address it is known to log in from.
	LoginUsernameLimit = 100
	// LoginKnownAddress is how long a successful login makes its
	// address exempt from LoginUsernameLimit for that username, so that
	// strangers guessing from elsewhere cannot lock the administrator
	// out of an address the administrator uses.
	LoginKnownAddress = 30 * 24 * time.Hour
	// MaxUsernameBytes is the longest administrator name. A login with a
	// longer one fails without being stored, so an attacker cannot make
	// the stores keep (or, on PostgreSQL, fail to index) huge keys.
	MaxUsernameBytes = 64
)

// LoginCounts are the failed logins within LoginWindow that bear on one
// attempt of a username from a client address.
type LoginCounts struct {
	Pair     int // this username from this address
	Address  int // this address, every username
	Username int // this username, every address
	// KnownAddress reports a successful login of this username from
	// this address within LoginKnownAddress.
	KnownAddress bool
}

// Check returns an ETOOMANY error naming the limit that holds the
// attempt, or nil when it may go on to a password check.
func (c LoginCounts) Check() error {
	switch {
	case c.Pair >= LoginPairLimit:
		return Errorf(ETOOMANY, "too many failed logins for this username from this address")
	case c.Address >= LoginAddressLimit:
		return Errorf(ETOOMANY, "too many failed logins from this address")
	case c.Username >= LoginUsernameLimit && !c.KnownAddress:
		return Errorf(ETOOMANY, "too many failed logins for this username")
	}
	return nil
}

// CheckLoginUsername refuses a username no administrator can have
// before anything about it is stored.
func CheckLoginUsername(username string) error {
	if len(username) > MaxUsernameBytes {
		return Errorf(EINVALID, "a username has at most %d bytes", MaxUsernameBytes)
	}
	return nil
}
