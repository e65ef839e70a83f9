package catalog

import (
	"net/url"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// MaxURLBytes bounds every stored URL.
const MaxURLBytes = 2048

// CleanText trims s and normalises it to NFC.
func CleanText(s string) string {
	return norm.NFC.String(strings.TrimSpace(s))
}

// checkText validates a cleaned single-line or multi-line text value.
// It returns "" when v is acceptable, else the problem. A single-line
// value (a name) may not hold the bidirectional overrides and isolates
// either (U+202A-U+202E, U+2066-U+2069): they reorder what follows them
// wherever the name is shown, so "abc\u202egnp.exe" reads "abcexe.png".
func checkText(v string, maxRunes int, multiline bool) string {
	if !utf8.ValidString(v) {
		return "must be valid UTF-8"
	}
	if n := utf8.RuneCountInString(v); n > maxRunes {
		return "must be at most " + strconv.Itoa(maxRunes) + " characters"
	}
	for _, r := range v {
		if r == '\t' || (multiline && r == '\n') {
			continue
		}
		if unicode.IsControl(r) {
			return "must not contain control characters"
		}
		if !multiline && IsBidiControl(r) {
			return "must not contain bidirectional override characters"
		}
	}
	return ""
}

// IsBidiControl reports whether r is a bidirectional embedding,
// override or isolate (U+202A-U+202E, U+2066-U+2069).
func IsBidiControl(r rune) bool {
	return (0x202a <= r && r <= 0x202e) || (0x2066 <= r && r <= 0x2069)
}

// CheckURL validates an absolute http(s) URL with a host. It returns ""
// when u is acceptable, else the problem.
func CheckURL(v string) string {
	if len(v) > MaxURLBytes {
		return "must be at most " + strconv.Itoa(MaxURLBytes) + " bytes"
	}
	for _, r := range v {
		if unicode.IsControl(r) || unicode.IsSpace(r) || strings.ContainsRune(urlUnsafe, r) {
			return "must be an absolute http or https URL without spaces, quotes or angle brackets"
		}
	}
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Hostname() == "" {
		return "must be an absolute http or https URL"
	}
	if u.User != nil {
		return credentialsProblem
	}
	return ""
}

// credentialsProblem refuses a URL with a user part (user:password@):
// stored links are shown to every visitor, and a link that looks like
// one host while naming another (https://trusted.example@evil.example/)
// misleads them.
const credentialsProblem = "must not carry credentials (user:password@)"

// redacted stands for a secret in a shown URL, as url.URL.Redacted
// writes it.
const redacted = "xxxxx"

// RedactURL is raw as logs, messages and pages may show it: the user
// part hidden (url.URL.Redacted hides a password; a user name alone may
// be a key too), every query value hidden with the names kept, and no
// fragment. A URL that does not parse shows nothing of itself.
func RedactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(an unparsable URL)"
	}
	if u.User != nil {
		if _, ok := u.User.Password(); !ok {
			u.User = url.User(redacted)
		}
	}
	if u.RawQuery != "" {
		q, _ := url.ParseQuery(u.RawQuery) // what does not parse is dropped, not shown
		for k := range q {
			q[k] = []string{redacted}
		}
		u.RawQuery = q.Encode()
	}
	u.Fragment, u.RawFragment = "", ""
	return u.Redacted()
}
