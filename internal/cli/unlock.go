package cli

import (
	"context"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

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

// adminList is "catalog admin list": every administrator with the
// time they were created.
func (p *Program) adminList(ctx context.Context, args []string) error {
	var db dbConfig
	f := newFlags("admin list", "", "Lists the administrators.")
	f.dbFlags(&db)
	if _, err := f.parse(args, p); err != nil {
		return err
	}
	if err := db.check("admin list"); err != nil {
		return err
	}
	st, err := openStore(ctx, db)
	if err != nil {
		return err
	}
	defer st.Close()
	list, err := st.ListAdmins(ctx)
	if err != nil {
		return fmt.Errorf("admin list: %s", message(err))
	}
	tw := tabwriter.NewWriter(p.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "USERNAME\tCREATED")
	for _, a := range list {
		fmt.Fprintf(tw, "%s\t%s\n", a.Username, a.CreatedAt.Format(time.RFC3339))
	}
	return tw.Flush()
}

// adminDelete is "catalog admin delete --username NAME": the
// administrator and every session of theirs go at once, on every
// instance sharing the database.
func (p *Program) adminDelete(ctx context.Context, args []string) error {
	var db dbConfig
	var username string
	f := newFlags("admin delete", "", "Deletes an administrator and ends every session of theirs.")
	f.dbFlags(&db)
	f.stringVar(&username, "username", "CATALOG_ADMIN_USERNAME", "", "the administrator's login name (required)")
	if _, err := f.parse(args, p); err != nil {
		return err
	}
	if err := db.check("admin delete"); err != nil {
		return err
	}
	if username = strings.TrimSpace(username); username == "" {
		return usagef("admin delete: --username is required")
	}
	st, err := openStore(ctx, db)
	if err != nil {
		return err
	}
	defer st.Close()
	err = st.DeleteAdmin(ctx, username)
	if catalog.ErrorCode(err) == catalog.ENOTFOUND {
		return fmt.Errorf("admin delete: there is no administrator %q (catalog admin list shows them)", username)
	}
	if err != nil {
		return fmt.Errorf("admin delete: %s", message(err))
	}
	_, err = fmt.Fprintf(p.Stdout, "administrator %q deleted; their sessions ended\n", username)
	return err
}
