// Package httpx holds the HTTP rules both services share: the one map
// from domain error codes to statuses, JSON payloads with strong ETags,
// conditional requests and gzip, method-aware routing, security headers,
// request logging and panic recovery.
package httpx

import (
	"net/http"

	"catalog/internal/catalog"
)

// codeStatus is the one map from error codes to statuses, written once:
// the domain's codes, and the two that only HTTP produces.
var codeStatus = map[string]int{
	catalog.EINVALID:      http.StatusBadRequest,
	catalog.EUNAUTHORIZED: http.StatusUnauthorized,
	catalog.EFORBIDDEN:    http.StatusForbidden,
	catalog.ENOTFOUND:     http.StatusNotFound,
	catalog.ECONFLICT:     http.StatusConflict,
	catalog.ETOOLARGE:     http.StatusRequestEntityTooLarge,
	catalog.EUNSUPPORTED:  http.StatusUnsupportedMediaType,
	catalog.ETOOMANY:      http.StatusTooManyRequests,
	catalog.EUNAVAILABLE:  http.StatusServiceUnavailable,
	catalog.EINTERNAL:     http.StatusInternalServerError,
	EMETHOD:               http.StatusMethodNotAllowed,
	ERANGE:                http.StatusRequestedRangeNotSatisfiable,
	ESLOW:                 http.StatusRequestTimeout,
}

// ErrorStatus is the HTTP status for err. Unknown errors are 500.
func ErrorStatus(err error) int {
	if s, ok := codeStatus[catalog.ErrorCode(err)]; ok {
		return s
	}
	return http.StatusInternalServerError
}

// ErrorWriter writes err in a service's error shape. Each service has
// exactly one.
type ErrorWriter func(w http.ResponseWriter, r *http.Request, err error)
