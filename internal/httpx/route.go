package httpx

import (
	"context"
	"net/http"
)

// routeSlotKey finds the slot that Router fills with the pattern that
// matched, for middleware outside the router (metrics) that must label a
// request by its route, never by its raw path.
type routeSlotKey struct{}

// WithRouteSlot returns r carrying an empty slot; after the request has
// been served the slot holds the ServeMux pattern that handled it ("GET
// /api/clips/{id}"), or "" when no Router ran. The slot travels in the
// context because middleware between here and the router may replace
// the request (WithContext), and with it r.Pattern.
func WithRouteSlot(r *http.Request) (*http.Request, *string) {
	slot := new(string)
	return r.WithContext(context.WithValue(r.Context(), routeSlotKey{}, slot)), slot
}

// recordRoute copies the pattern the mux chose into r's slot, if any.
func recordRoute(r *http.Request) {
	if slot, ok := r.Context().Value(routeSlotKey{}).(*string); ok {
		*slot = r.Pattern
	}
}
