package importer

import (
	"encoding/json"
	"mime"
	"sync"

	"catalog/internal/catalog"
)

// MaxUpload bounds one import sent over HTTP (contract 8): 256 MiB,
// streamed through the importer, never held whole in memory.
const MaxUpload = 256 << 20

// NameForContentType maps an upload's media type to a name whose
// extension selects the decoder, as a file name does for the CLI.
func NameForContentType(contentType string) (string, error) {
	mediaType, _, err := mime.ParseMediaType(contentType)
	if err == nil {
		switch mediaType {
		case "application/json":
			return "upload.json", nil
		case "application/x-ndjson", "application/jsonl", "application/x-jsonlines", "application/jsonlines", "text/jsonl":
			return "upload.jsonl", nil
		case "text/csv":
			return "upload.csv", nil
		}
	}
	return "", catalog.Errorf(catalog.EUNSUPPORTED,
		"Content-Type must be application/x-ndjson (JSON Lines), application/json (an array) or text/csv")
}

// Slot lets one upload run at a time in a process: imports are long,
// write in big transactions, and a second one started by a double click
// would only queue behind the first.
type Slot struct{ mu sync.Mutex }

// Acquire takes the slot, or returns ECONFLICT while another import
// holds it. The caller must call Release.
func (s *Slot) Acquire() error {
	if !s.mu.TryLock() {
		return catalog.Errorf(catalog.ECONFLICT, "another import is running: wait for it to finish and try again")
	}
	return nil
}

// Release frees the slot.
func (s *Slot) Release() { s.mu.Unlock() }

// Report is a Summary as JSON: the same facts the CLI prints, with every
// rejected line as LINE: field: problem.
type Report struct {
	Read     int            `json:"read"`
	Imported int            `json:"imported"`
	Rejected int            `json:"rejected"`
	Rejects  []ReportReject `json:"rejects"`
	// Unreported counts rejected records beyond MaxReported.
	Unreported int `json:"unreported"`
	// LastLine is where the last record read starts (0: none read).
	LastLine int `json:"last_line"`
}

// ReportReject is one rejected record.
type ReportReject struct {
	Line    int    `json:"line"`
	Message string `json:"message"`
}

// NewReport turns a summary into its report.
func NewReport(s Summary) Report {
	r := Report{Read: s.Read, Imported: s.Imported, Rejected: s.Rejected, Rejects: []ReportReject{}}
	for _, rej := range s.Rejects {
		r.Rejects = append(r.Rejects, ReportReject(rej))
	}
	r.Unreported = s.Rejected - len(s.Rejects)
	r.LastLine = s.LastLine
	return r
}

// Failed is an upload that stopped on an error (a cut connection, the
// size limit, the database) after it started: the error, and the
// report of what was committed before it, which the answer carries.
type Failed struct {
	Err    error
	Report Report
}

func (f *Failed) Error() string { return f.Err.Error() }
func (f *Failed) Unwrap() error { return f.Err }

// AppendJSON appends the report as a JSON object.
func (r Report) AppendJSON(b []byte) []byte {
	j, _ := json.Marshal(r) // plain structs of strings and ints always encode
	return append(b, j...)
}

// JSON encodes the report as {"data": report}.
func (r Report) JSON() []byte {
	return append(r.AppendJSON([]byte(`{"data":`)), '}')
}
