package admin

import (
	"net/http"
	"slices"
	"strconv"
	"strings"

	"catalog/internal/auth"
	"catalog/internal/catalog"
)

type tokensPage struct {
	chrome
	Notice  string
	Message string
	Errors  map[string]string
	Name    string
	Scopes  []scopeChoice
	Tokens  []catalog.APIToken
	Created *createdToken // set once, on the answer to a create
}

type scopeChoice struct {
	Value   string
	Checked bool
}

type createdToken struct {
	Token  catalog.APIToken
	Secret string
}

// Tokens answers GET /admin/tokens: every live API token with its
// scopes, creation and last use, a revoke button each, and the form to
// create one (contract 8).
func (s *Service) Tokens(w http.ResponseWriter, r *http.Request, sess catalog.Session) error {
	notice := ""
	c := s.chrome(r, sess, "tokens")
	if id, err := catalog.ParseID(r.URL.Query().Get("revoked")); err == nil {
		notice = c.l.T("notice.token_revoked", "ID", strconv.FormatInt(id, 10))
	}
	return s.tokensPage(w, r, http.StatusOK, tokensPage{chrome: c, Notice: notice})
}

func (s *Service) tokensPage(w http.ResponseWriter, r *http.Request, status int, p tokensPage) error {
	list, err := s.Store.ListTokens(r.Context())
	if err != nil {
		return err
	}
	p.Tokens = list
	if p.Scopes == nil {
		for _, sc := range catalog.Scopes() {
			p.Scopes = append(p.Scopes, scopeChoice{Value: sc})
		}
	}
	s.render(w, r, status, "tokens", p)
	return nil
}

// CreateToken answers POST /admin/tokens. The secret is shown in this
// answer only, never in a URL or a log; the database keeps its hash.
func (s *Service) CreateToken(w http.ResponseWriter, r *http.Request, sess catalog.Session) error {
	name := r.PostFormValue("name")
	var scopes []scopeChoice
	for _, sc := range catalog.Scopes() {
		scopes = append(scopes, scopeChoice{Value: sc, Checked: slices.Contains(r.PostForm["scope"], sc)})
	}
	// NewAPIToken reports unknown scopes and orders the known ones.
	tok, err := catalog.NewAPIToken(name, strings.Join(r.PostForm["scope"], ","))
	if err == nil {
		secret, hash := auth.NewSecret()
		tok.TokenHash, tok.AdminID = hash, sess.AdminID
		if err = s.Store.CreateToken(r.Context(), &tok); err == nil {
			s.Logger.Info("api token created", "id", tok.ID, "name", tok.Name, "admin", sess.Username)
			return s.tokensPage(w, r, http.StatusCreated, tokensPage{chrome: s.chrome(r, sess, "tokens"), Created: &createdToken{Token: tok, Secret: secret}})
		}
	}
	c := s.chrome(r, sess, "tokens")
	fields, message, status, err := formProblem(c.l, err, "token.not_created")
	if err != nil {
		return err
	}
	return s.tokensPage(w, r, status, tokensPage{chrome: c, Message: message, Errors: fields, Name: name, Scopes: scopes})
}

// RevokeToken answers POST /admin/tokens/{id}/revoke.
func (s *Service) RevokeToken(w http.ResponseWriter, r *http.Request, sess catalog.Session) error {
	id, err := catalog.ParseID(r.PathValue("id"))
	if err == nil {
		err = s.Store.RevokeToken(r.Context(), id)
	}
	if err != nil {
		return notFound(err, "There is no token #%d. It may have been revoked already.", id) // problem.no_token
	}
	return s.done(w, r, sess, "/admin/tokens?revoked="+strconv.FormatInt(id, 10), "api token revoked", "id", id)
}
