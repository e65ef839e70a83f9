package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/crypto/bcrypt"
	"golang.org/x/term"

	"catalog/internal/catalog"
)

// bcryptMaxBytes is the longest password bcrypt accepts.
const bcryptMaxBytes = 72

const adminUsage = `Usage: catalog admin create --username NAME     (password on standard input)
       catalog admin password --username NAME   (new password on standard input; ends their sessions)
       catalog admin list
       catalog admin delete --username NAME     (ends their sessions, revokes their tokens)
       catalog admin unlock --username NAME     (clear failed-login counts)`

func (p *Program) admin(ctx context.Context, args []string) error {
	if len(args) == 0 {
		return usagef("admin: say what to do: create, password, list, delete or unlock")
	}
	switch args[0] {
	case "create", "password":
		return p.adminPassword(ctx, args[0], args[1:])
	case "list":
		return p.adminList(ctx, args[1:])
	case "delete":
		return p.adminDelete(ctx, args[1:])
	case "unlock":
		return p.adminUnlock(ctx, args[1:])
	case "-h", "--help", "help":
		fmt.Fprintln(p.Stdout, adminUsage)
		return errHelp
	}
	return usagef("admin: unknown subcommand %q; use create, password, list, delete or unlock", args[0])
}

// adminPassword is "admin create" (a new administrator) and "admin
// password" (a new password for one, which ends every session of
// theirs, so that whoever held the old password is logged out).
func (p *Program) adminPassword(ctx context.Context, sub string, args []string) error {
	name := "admin " + sub
	var db dbConfig
	var username string
	about := "Creates an administrator. The password is the first line of standard input,\n" +
		"or is asked for when standard input is a terminal; at least 12 characters."
	if sub == "password" {
		about = "Sets a new password for an administrator and ends every session of theirs.\n" +
			"The password is read as for admin create; at least 12 characters."
	}
	f := newFlags(name, "", about)
	f.dbFlags(&db)
	f.stringVar(&username, "username", "CATALOG_ADMIN_USERNAME", "", "the administrator's login name (required)")
	if _, err := f.parse(args, p); err != nil {
		return err
	}
	if err := db.check(name); err != nil {
		return err
	}
	username = strings.TrimSpace(username)
	if err := checkUsername(name, username); err != nil {
		return err
	}
	password, err := p.readPassword(name)
	if err != nil {
		return err
	}
	if n := utf8.RuneCountInString(password); n < catalog.MinPasswordRunes {
		return fmt.Errorf("%s: the password must have at least %d characters, got %d", name, catalog.MinPasswordRunes, n)
	}
	if len(password) > bcryptMaxBytes {
		return fmt.Errorf("%s: the password must be at most %d bytes", name, bcryptMaxBytes)
	}
	st, err := openStore(ctx, db)
	if err != nil {
		return err
	}
	defer st.Close()
	if sub == "create" {
		if err := createAdmin(ctx, st, username, password); err != nil {
			return fmt.Errorf("admin create: %w", err)
		}
		_, err = fmt.Fprintf(p.Stdout, "administrator %q created\n", username)
		return err
	}
	hash, err := bcrypt.GenerateFromPassword([]byte(password), bcrypt.DefaultCost)
	if err != nil {
		return fmt.Errorf("admin password: hash password: %w", err)
	}
	ended, err := st.SetAdminPassword(ctx, username, string(hash))
	if catalog.ErrorCode(err) == catalog.ENOTFOUND {
		return fmt.Errorf("admin password: there is no administrator %q (catalog admin list shows them)", username)
	}
	if err != nil {
		return fmt.Errorf("admin password: %s", message(err))
	}
	_, err = fmt.Fprintf(p.Stdout, "password of administrator %q changed; %d sessions ended\n", username, ended)
	return err
}

func checkUsername(cmd, name string) error {
	switch {
	case name == "":
		return usagef("%s: --username is required", cmd)
	case len(name) > catalog.MaxUsernameBytes: // a longer name could never log in
		return usagef("%s: --username must be at most %d bytes", cmd, catalog.MaxUsernameBytes)
	case strings.IndexFunc(name, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) >= 0:
		return usagef("%s: --username must not contain spaces or control characters", cmd)
	case !utf8.ValidString(name):
		return usagef("%s: --username must be valid UTF-8", cmd)
	}
	return nil
}

// readPassword prompts twice without echo on a terminal; otherwise it
// reads the first line of standard input.
func (p *Program) readPassword(cmd string) (string, error) {
	if f, ok := p.Stdin.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		read := func(prompt string) (string, error) {
			fmt.Fprint(p.Stderr, prompt)
			b, err := term.ReadPassword(int(f.Fd()))
			fmt.Fprintln(p.Stderr)
			return string(b), err
		}
		pw, err := read("Password: ")
		if err != nil {
			return "", fmt.Errorf("%s: read password: %w", cmd, err)
		}
		again, err := read("Repeat password: ")
		if err != nil {
			return "", fmt.Errorf("%s: read password: %w", cmd, err)
		}
		if pw != again {
			return "", fmt.Errorf("%s: the passwords do not match", cmd)
		}
		return pw, nil
	}
	if p.Stdin == nil {
		return "", fmt.Errorf("%s: give the password on standard input", cmd)
	}
	line, err := bufio.NewReader(p.Stdin).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return "", fmt.Errorf("%s: read password: %w", cmd, err)
	}
	line = strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
	if line == "" {
		return "", fmt.Errorf("%s: no password on standard input (give it as the first line)", cmd)
	}
	return line, nil
}

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
	f := newFlags("admin delete", "", "Deletes an administrator, ends every session of theirs and revokes the API tokens they made.")
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
	revoked, err := st.DeleteAdmin(ctx, username)
	if catalog.ErrorCode(err) == catalog.ENOTFOUND {
		return fmt.Errorf("admin delete: there is no administrator %q (catalog admin list shows them)", username)
	}
	if err != nil {
		return fmt.Errorf("admin delete: %s", message(err))
	}
	_, err = fmt.Fprintf(p.Stdout, "administrator %q deleted; their sessions ended and %d API token(s) they made revoked\n", username, revoked)
	return err
}
