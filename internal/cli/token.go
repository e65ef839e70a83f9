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
	switch args[0] {
	case "-h", "--help", "help":
		fmt.Fprintln(p.Stdout, tokenUsage)
		return errHelp
	case "create":
		return p.tokenCreate(ctx, args[1:])
	case "list":
		return p.tokenList(ctx, args[1:])
	case "revoke":
		return p.tokenRevoke(ctx, args[1:])
	}
	return usagef("token: unknown subcommand %q; use create, list or revoke", args[0])
}

// parseTokenFlags parses a token subcommand's flags, the database's
// among them, and returns its positional arguments.
func (p *Program) parseTokenFlags(f *flags, db *dbConfig, args []string) ([]string, error) {
	f.dbFlags(db)
	positional, err := f.parse(args, p)
	if err != nil {
		return nil, err
	}
	return positional, db.check(f.name)
}

func (p *Program) tokenCreate(ctx context.Context, args []string) error {
	var db dbConfig
	var tokenName, scopes string
	f := newFlags("token create", "", "Creates an API token for scripts and prints it once; only its hash is stored.")
	f.stringVar(&tokenName, "name", "", "", "a label for people: what the token is for (required)")
	f.stringVar(&scopes, "scope", "", "", "comma-separated scopes: "+strings.Join(catalog.Scopes(), ", ")+" (required)")
	positional, err := p.parseTokenFlags(f, &db, args)
	if err != nil {
		return err
	}
	if len(positional) != 0 {
		return usagef("token create: unexpected argument %q", positional[0])
	}
	tok, err := catalog.NewAPIToken(tokenName, scopes)
	if err != nil {
		var e *catalog.Error
		errors.As(err, &e)
		flagged := catalog.FieldErrors{}
		for field, msg := range e.Fields {
			flagged.Add("--"+field, msg)
		}
		return usagef("token create: %s", flagged.Describe(" "))
	}
	st, err := openStore(ctx, db)
	if err != nil {
		return err
	}
	defer st.Close()
	secret, hash := auth.NewSecret()
	tok.TokenHash = hash
	if err := st.CreateToken(ctx, &tok); err != nil {
		return fmt.Errorf("token create: %w", err)
	}
	fmt.Fprintf(p.Stderr, "token %d %q created with scopes %s; it is shown only this once:\n", tok.ID, tok.Name, strings.Join(tok.Scopes, ","))
	_, err = fmt.Fprintln(p.Stdout, secret)
	return err
}

func (p *Program) tokenList(ctx context.Context, args []string) error {
	var db dbConfig
	f := newFlags("token list", "", "Lists the API tokens with their scopes, creation, last use and, for revoked\n"+
		"ones, the time of revocation. Ids are never reused.")
	positional, err := p.parseTokenFlags(f, &db, args)
	if err != nil {
		return err
	}
	if len(positional) != 0 {
		return usagef("token list: unexpected argument %q", positional[0])
	}
	st, err := openStore(ctx, db)
	if err != nil {
		return err
	}
	defer st.Close()
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

func (p *Program) tokenRevoke(ctx context.Context, args []string) error {
	var db dbConfig
	f := newFlags("token revoke", "ID", "Revokes an API token at once, on every instance sharing the database.")
	positional, err := p.parseTokenFlags(f, &db, args)
	if err != nil {
		return err
	}
	if len(positional) != 1 {
		return usagef("token revoke: give the ID of one token (catalog token list shows them)")
	}
	id, err := catalog.ParseID(positional[0])
	if err != nil {
		return usagef("token revoke: %q is not a token ID", positional[0])
	}
	st, err := openStore(ctx, db)
	if err != nil {
		return err
	}
	defer st.Close()
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

// timeOr is t in RFC 3339, or zero when t is the zero time.
func timeOr(t time.Time, zero string) string {
	if t.IsZero() {
		return zero
	}
	return t.Format(time.RFC3339)
}
