package catalog

import (
	"strconv"
	"strings"
	"unicode"
)

// MaxID is the largest record id: 2^32-1. The search index, the read
// model of every list, holds ids as 32-bit integers, so a larger id could
// not be listed; it is also well below 2^53-1, the largest integer a
// JavaScript client (a JSON number is a float64 there) reads exactly, and
// far from the int64 limit that would exhaust SQLite's AUTOINCREMENT.
const MaxID = 1<<32 - 1

// idRange is the message for an id out of range.
var idRange = "must be at most " + strconv.FormatInt(MaxID, 10) +
	" (2^32-1, the largest id the search index holds)"

// CheckAssignedID is the store's check of an id it assigned itself: past
// MaxID (possible only after a record was imported at the very top of
// the range) the write fails as a whole, with a reason the operator can
// act on, instead of storing a record no list could show.
func CheckAssignedID(kind string, id int64) error {
	if id > MaxID {
		return &Error{Code: EUNAVAILABLE, Message: "no " + kind + " ids left: the next would be " +
			strconv.FormatInt(id, 10) + ", above " + strconv.FormatInt(MaxID, 10)}
	}
	return nil
}

// CheckID returns "" when id (from a client, an import or a form) may be
// stored, else the problem.
func CheckID(id int64) string {
	switch {
	case id < 0:
		return "must be a positive integer"
	case id > MaxID:
		return idRange
	}
	return ""
}

// CheckRecordID is CheckID for a store about to write a record of kind
// ("clip", "movie") under id: EINVALID naming the record, so that an
// import reports it on its own line and writes the others.
func CheckRecordID(kind string, id int64) error {
	if msg := CheckID(id); msg != "" {
		return &Error{Code: EINVALID, Message: kind + " " + strconv.FormatInt(id, 10) + ": id " + msg,
			Fields: map[string]string{"id": msg}}
	}
	return nil
}

// CheckSlug returns "" when slug is empty or uses only the alphabet
// Slugify produces (lower-case ASCII letters and digits, letters, digits
// and marks of scripts other than Latin, dashes), else the problem. A
// slug is served as vod_en and put into other sites' URLs and paths:
// "../../etc/passwd" must not get through.
func CheckSlug(slug string) string {
	for _, r := range slug {
		if !slugRune(r) {
			return "must use only lower-case letters, digits and dashes, as derived from the name"
		}
	}
	return ""
}

func slugRune(r rune) bool {
	switch {
	case r == '-', r >= 'a' && r <= 'z', r >= '0' && r <= '9':
		return true
	case r < 0x80, unicode.Is(unicode.Latin, r), unicode.IsUpper(r):
		return false // Slugify spells Latin letters out in ASCII
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r)
}

// CheckYear returns "" when year is empty or four ASCII digits, else the
// problem.
func CheckYear(year string) string {
	if year == "" {
		return ""
	}
	if len(year) != 4 || strings.Trim(year, "0123456789") != "" {
		return "must be a year as YYYY, or empty"
	}
	return ""
}

// urlUnsafe are the characters a stored URL may not hold besides white
// space: they would close the attribute or the element that other sites
// put it into (vod_pic in an <img src="...">).
const urlUnsafe = "\"'<>`\\"

// checkFormats adds the problems of the fields whose form is fixed
// beyond their text: the slug's alphabet and the year's digits.
func (m *Movie) checkFormats(fe FieldErrors) {
	if msg := CheckSlug(m.Slug); msg != "" {
		fe.Add("slug", msg)
	}
	if msg := CheckYear(m.Year); msg != "" {
		fe.Add("year", msg)
	}
}

// MovieProblems lists what breaks the rules of Normalize in a stored
// movie, without changing it: rows written before a rule existed.
func MovieProblems(m *Movie) FieldErrors {
	fe := FieldErrors{}
	if msg := CheckID(m.ID); msg != "" {
		fe.Add("id", msg)
	}
	m.checkFormats(fe)
	links := map[string]string{}
	for _, spec := range movieSpecs {
		if spec.kind == kindURL {
			links[spec.member] = *spec.text(m)
		}
	}
	for i, srv := range m.Episodes {
		for j, e := range srv.Episodes {
			at := "episodes[" + strconv.Itoa(i) + "].server_data[" + strconv.Itoa(j) + "]."
			links[at+"link_embed"], links[at+"link_m3u8"] = e.LinkEmbed, e.LinkM3U8
		}
	}
	for name, v := range links {
		if v != "" {
			if msg := CheckURL(v); msg != "" {
				fe.Add(name, msg)
			}
		}
	}
	return fe
}

// ClipProblems is MovieProblems for a stored clip.
func ClipProblems(c *Clip) FieldErrors {
	fe := FieldErrors{}
	if msg := CheckID(c.ID); msg != "" {
		fe.Add("id", msg)
	}
	for _, spec := range clipSpecs {
		if v := *spec.text(c); spec.kind == kindURL && v != "" {
			if msg := CheckURL(v); msg != "" {
				fe.Add(spec.json, msg)
			}
		}
	}
	return fe
}
