package cli

import (
	"context"
	"fmt"
	"strings"

	"catalog/internal/catalog"
)

// adminUnlock is "catalog admin unlock --username NAME" (contract 1 and
// 5): it deletes the failed logins of an administrator, from every
// address, so that the throttle no longer holds their logins. Failures
// of other usernames from the same addresses stay.
func (p *Program) adminUnlock(ctx context.Context, args []string) error {
	var db dbConfig
	var username string
	f := newFlags("admin unlock", "",
		"Clears the failed-login counts of an administrator, so that login\n"+
			"throttling no longer holds their logins from any address.")
	f.dbFlags(&db)
	f.stringVar(&username, "username", "CATALOG_ADMIN_USERNAME", "", "the administrator's login name (required)")
	if _, err := f.parse(args, p); err != nil {
		return err
	}
	if err := db.check("admin unlock"); err != nil {
		return err
	}
	username = strings.TrimSpace(username)
	if username == "" {
		return usagef("admin unlock: --username is required")
	}
	st, err := openStore(ctx, db)
	if err != nil {
		return err
	}
	defer st.Close()
	if _, err := st.AdminByUsername(ctx, username); err != nil {
		if catalog.ErrorCode(err) == catalog.ENOTFOUND {
			return fmt.Errorf("admin unlock: there is no administrator %q", username)
		}
		return fmt.Errorf("admin unlock: %w", err)
	}
	n, err := st.UnlockLogin(ctx, username)
	if err != nil {
		return fmt.Errorf("admin unlock: %w", err)
	}
	_, err = fmt.Fprintf(p.Stdout, "administrator %q unlocked: %d failed logins cleared\n", username, n)
	return err
}
