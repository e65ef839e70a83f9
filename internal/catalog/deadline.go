package catalog

import (
	"context"
	"errors"
	"fmt"
)

// ContextError is the one domain form of work stopped by its context:
// a request past its deadline (--read-timeout) or one whose client went
// away. Both engines and the response cache give it, so the services
// answer 503 alike on either engine. op and cause stay reachable for
// the logs; clients see only the message.
func ContextError(op string, cause error) error {
	msg := "request timed out"
	if errors.Is(cause, context.Canceled) {
		msg = "request cancelled"
	}
	return fmt.Errorf("%w (%s: %w)", &Error{Code: EUNAVAILABLE, Message: msg}, op, cause)
}

// IsContextDone reports whether err is a context's deadline or
// cancellation.
func IsContextDone(err error) bool {
	return errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled)
}
