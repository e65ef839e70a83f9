package clipapi

import (
	"errors"
	"net/http"
	"sort"
	"strconv"

	"catalog/internal/catalog"
	"catalog/internal/httpx"
	"catalog/internal/importer"
)

// WriteError is the one place a clip-service error becomes a response
// (contract 3.7): {"error":{"status":N,"message":"...","fields":{...}}}.
// Internal errors are logged and answered with a message that reveals
// nothing of them.
func (s *API) WriteError(w http.ResponseWriter, r *http.Request, err error) {
	httpx.LogError(s.log, r, err)
	status := httpx.ErrorStatus(err)
	message := catalog.ErrorMessage(err)
	if catalog.ErrorCode(err) == catalog.EINTERNAL {
		message = "internal error"
	}
	b := make([]byte, 0, 128)
	b = append(b, `{"error":{"status":`...)
	b = strconv.AppendInt(b, int64(status), 10)
	b = append(b, `,"message":`...)
	b = catalog.AppendJSONString(b, message)
	if fields := fieldErrors(err); len(fields) > 0 {
		names := make([]string, 0, len(fields))
		for name := range fields {
			names = append(names, name)
		}
		sort.Strings(names)
		b = append(b, `,"fields":{`...)
		for i, name := range names {
			if i > 0 {
				b = append(b, ',')
			}
			b = catalog.AppendJSONString(b, name)
			b = append(b, ':')
			b = catalog.AppendJSONString(b, fields[name])
		}
		b = append(b, '}')
	}
	var failed *importer.Failed
	if errors.As(err, &failed) {
		b = append(b, `,"report":`...)
		b = failed.Report.AppendJSON(b)
	}
	b = append(b, "}}"...)

	httpx.ClearForError(w.Header()) // a handler may have prepared success headers before failing
	httpx.WriteJSON(w, r, status, b)
}

func fieldErrors(err error) map[string]string {
	var e *catalog.Error
	if errors.As(err, &e) && e.Code == catalog.EINVALID {
		return e.Fields
	}
	return nil
}
