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

// adminAbout says what each admin subcommand does, for its -h.
var adminAbout = map[string]string{
	"create": "Creates an administrator. The password is the first line of standard input,\n" +
		"or is asked for when standard input is a terminal; at least 12 characters.",
	"password": "Sets a new password for an administrator and ends every session of theirs.\n" +
		"The password is read as for admin create; at least 12 characters.",
	"list":   "Lists the administrators.",
	"delete": "Deletes an administrator, ends every session of theirs and revokes the API tokens they made.",
	"unlock": "Clears the failed-login counts of an administrator, so that login\n" +
		"throttling no longer holds their logins from any address.",
}

// admin runs `catalog admin create|password|list|delete|unlock`
// (contract 1 and 5). Everything but list names one administrator with
// --username; create and password read a password first.
func (p *Program) admin(ctx context.Context, args []string) error {
	if len(args) == 0 {
		return usagef("admin: say what to do: create, password, list, delete or unlock")
	}
	sub := args[0]
	if sub == "-h" || sub == "--help" || sub == "help" {
		fmt.Fprintln(p.Stdout, adminUsage)
		return errHelp
	}
	about, ok := adminAbout[sub]
	if !ok {
		return usagef("admin: unknown subcommand %q; use create, password, list, delete or unlock", sub)
	}
	name := "admin " + sub
	var db dbConfig
	var username, password string
	f := newFlags(name, "", about)
	f.dbFlags(&db)
	if sub != "list" {
		f.stringVar(&username, "username", "CATALOG_ADMIN_USERNAME", "", "the administrator's login name (required)")
	}
	if _, err := f.parse(args[1:], p); err != nil {
		return err
	}
	username = strings.TrimSpace(username)
	switch sub {
	case "create", "password":
		var err error
		if err = checkUsername(name, username); err == nil {
			password, err = p.readPassword(name)
		}
		if err != nil {
			return err
		}
		if n := utf8.RuneCountInString(password); n < catalog.MinPasswordRunes {
			return fmt.Errorf("%s: the password must have at least %d characters, got %d", name, catalog.MinPasswordRunes, n)
		}
		if len(password) > bcryptMaxBytes {
			return fmt.Errorf("%s: the password must be at most %d bytes", name, bcryptMaxBytes)
		}
	case "delete", "unlock":
		if username == "" {
			return usagef("%s: --username is required", name)
		}
	}
	st, err := openStore(ctx, db)
	if err != nil {
		return err
	}
	defer st.Close()
	return p.adminRun(ctx, st, sub, username, password)
}

// adminRun runs a checked admin subcommand on the open store. "admin
// password" ends every session of the administrator, so that whoever
// held the old password is logged out; "admin unlock" deletes their
// failed logins from every address, so that the throttle no longer
// holds their logins (failures of other usernames from the same
// addresses stay); "admin delete" ends their sessions at once, on every
// instance sharing the database.
func (p *Program) adminRun(ctx context.Context, st store, sub, username, password string) error {
	switch sub {
	case "create":
		if err := createAdmin(ctx, st, username, password); err != nil {
			return fmt.Errorf("admin create: %w", err)
		}
		_, err := fmt.Fprintf(p.Stdout, "administrator %q created\n", username)
		return err
	case "password":
		hash, herr := bcrypt.GenerateFromPassword([]byte(password), bcrypt.DefaultCost)
		if herr != nil {
			return fmt.Errorf("admin password: hash password: %w", herr)
		}
		ended, err := st.SetAdminPassword(ctx, username, string(hash))
		if err != nil {
			return adminError(sub, username, err)
		}
		_, err = fmt.Fprintf(p.Stdout, "password of administrator %q changed; %d sessions ended\n", username, ended)
		return err
	case "list":
		list, err := st.ListAdmins(ctx)
		if err != nil {
			return adminError(sub, username, err)
		}
		tw := tabwriter.NewWriter(p.Stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "USERNAME\tCREATED")
		for _, a := range list {
			fmt.Fprintf(tw, "%s\t%s\n", a.Username, a.CreatedAt.Format(time.RFC3339))
		}
		return tw.Flush()
	case "delete":
		revoked, err := st.DeleteAdmin(ctx, username)
		if err != nil {
			return adminError(sub, username, err)
		}
		_, err = fmt.Fprintf(p.Stdout, "administrator %q deleted; their sessions ended and %d API token(s) they made revoked\n", username, revoked)
		return err
	case "unlock":
		_, err := st.AdminByUsername(ctx, username)
		var n int64
		if err == nil {
			n, err = st.UnlockLogin(ctx, username)
		}
		if err != nil {
			return adminError(sub, username, err)
		}
		_, err = fmt.Fprintf(p.Stdout, "administrator %q unlocked: %d failed logins cleared\n", username, n)
		return err
	}
	return nil
}

// adminError words the store's err for the admin subcommand sub.
func adminError(sub, username string, err error) error {
	if catalog.ErrorCode(err) == catalog.ENOTFOUND {
		return fmt.Errorf("admin %s: there is no administrator %q (catalog admin list shows them)", sub, username)
	}
	return fmt.Errorf("admin %s: %s", sub, message(err))
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
