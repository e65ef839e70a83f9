package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"catalog/internal/auth"
	"catalog/internal/catalog"
)

const tokenUsage = `Usage:
  catalog token create --name NAME --scope clips:write,movies:write
  catalog token list
  catalog token revoke ID`

// token runs `catalog token create|list|revoke` (contract 1 and 8).
func (p *Program) token(ctx context.Context, args []string) error {
	if len(args) == 0 {
		return usagef("token: say what to do: create, list or revoke")
	}
	sub := args[0]
	name := "token " + sub
	var db dbConfig
	var tokenName, scopes string
	var f *flags
	switch sub {
	case "-h", "--help", "help":
		fmt.Fprintln(p.Stdout, tokenUsage)
		return errHelp
	case "create":
		f = newFlags(name, "", "Creates an API token for scripts and prints it once; only its hash is stored.")
		f.stringVar(&tokenName, "name", "", "", "a label for people: what the token is for (required)")
		f.stringVar(&scopes, "scope", "", "", "comma-separated scopes: "+strings.Join(catalog.Scopes(), ", ")+" (required)")
	case "list":
		f = newFlags(name, "", "Lists the API tokens with their scopes, creation, last use and, for revoked\n"+
			"ones, the time of revocation. Ids are never reused.")
	case "revoke":
		f = newFlags(name, "ID", "Revokes an API token at once, on every instance sharing the database.")
	default:
		return usagef("token: unknown subcommand %q; use create, list or revoke", sub)
	}
	f.dbFlags(&db)
	positional, err := f.parse(args[1:], p)
	if err != nil {
		return err
	}
	var tok catalog.APIToken
	var id int64
	switch sub {
	case "create":
		if tok, err = catalog.NewAPIToken(tokenName, scopes); err != nil {
			var e *catalog.Error
			errors.As(err, &e)
			flagged := catalog.FieldErrors{}
			for field, msg := range e.Fields {
				flagged.Add("--"+field, msg)
			}
			return usagef("token create: %s", flagged.Describe(" "))
		}
	case "revoke":
		if len(positional) != 1 {
			return usagef("token revoke: give the ID of one token (catalog token list shows them)")
		}
		if id, err = catalog.ParseID(positional[0]); err != nil {
			return usagef("token revoke: %q is not a token ID", positional[0])
		}
	}
	st, err := openStore(ctx, db)
	if err != nil {
		return err
	}
	defer st.Close()
	switch sub {
	case "create":
		secret, hash := auth.NewSecret()
		tok.TokenHash = hash
		if err := st.CreateToken(ctx, &tok); err != nil {
			return fmt.Errorf("token create: %w", err)
		}
		fmt.Fprintf(p.Stderr, "token %d %q created with scopes %s; it is shown only this once:\n", tok.ID, tok.Name, strings.Join(tok.Scopes, ","))
		_, err = fmt.Fprintln(p.Stdout, secret)
		return err
	case "revoke":
		err = st.RevokeToken(ctx, id)
		if catalog.ErrorCode(err) == catalog.ENOTFOUND {
			return fmt.Errorf("token revoke: no live token has ID %d (catalog token list shows them)", id)
		}
		if err != nil {
			return fmt.Errorf("token revoke: %w", err)
		}
		_, err = fmt.Fprintf(p.Stdout, "token %d revoked\n", id)
		return err
	}
	list, err := st.ListTokens(ctx)
	if err != nil {
		return fmt.Errorf("token list: %w", err)
	}
	tw := tabwriter.NewWriter(p.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNAME\tSCOPES\tCREATED\tLAST USED\tREVOKED")
	for _, t := range list {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\n", t.ID, t.Name, strings.Join(t.Scopes, ","), t.CreatedAt.Format(time.RFC3339),
			timeOr(t.LastUsed, "never"), timeOr(t.RevokedAt, "-"))
	}
	return tw.Flush()
}

// timeOr is t in RFC 3339, or zero when t is the zero time.
func timeOr(t time.Time, zero string) string {
	if t.IsZero() {
		return zero
	}
	return t.Format(time.RFC3339)
}
