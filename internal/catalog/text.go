package catalog

import (
	"net/url"
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
// It returns "" when v is acceptable, else the problem.
func checkText(v string, maxRunes int, multiline bool) string {
	if !utf8.ValidString(v) {
		return "must be valid UTF-8"
	}
	if n := utf8.RuneCountInString(v); n > maxRunes {
		return "must be at most " + itoa(maxRunes) + " characters"
	}
	for _, r := range v {
		if r == '\t' || (multiline && r == '\n') {
			continue
		}
		if unicode.IsControl(r) {
			return "must not contain control characters"
		}
	}
	return ""
}

// CheckURL validates an absolute http(s) URL with a host. It returns ""
// when u is acceptable, else the problem.
func CheckURL(v string) string {
	if len(v) > MaxURLBytes {
		return "must be at most " + itoa(MaxURLBytes) + " bytes"
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
	return ""
}

func itoa(n int) string {
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			return string(b[i:])
		}
	}
}
