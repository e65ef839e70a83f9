package catalog

import "strconv"

// MaxID is the largest record id: 2^53-1, the largest integer that a
// JavaScript client (a JSON number is a float64 there) reads exactly. An
// id above it would be served as a different number, and one near the
// int64 limit would exhaust SQLite's AUTOINCREMENT for good.
const MaxID = 1<<53 - 1

// idRange is the message for an id out of range.
var idRange = "must be at most " + strconv.FormatInt(MaxID, 10) +
	" (2^53-1, the largest integer a JavaScript client reads exactly)"

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
