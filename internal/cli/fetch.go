package cli

import (
	"errors"
	"fmt"

	"catalog/internal/fetchguard"
)

// fetchFlag is --fetch-allow-private (contract 13): the commands that
// fetch strangers' URLs refuse private addresses unless it is set.
func (f *flags) fetchFlag(p *bool) {
	f.boolVar(p, "fetch-allow-private", "CATALOG_FETCH_ALLOW_PRIVATE", false,
		"let collection reach loopback, private and link-local addresses (a source on your own network)")
}

// fetchHint adds to a refused fetch the flag that allows it.
func fetchHint(err error) error {
	var refused *fetchguard.RefusedError
	if errors.As(err, &refused) {
		return fmt.Errorf("%w; --fetch-allow-private allows it", err)
	}
	return err
}
