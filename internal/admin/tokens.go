package admin

import (
	"net/http"
	"slices"
	"strconv"

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
func (s *Service) Tokens(w http.ResponseWriter, r *http.Request) {
	sess, ok := s.pageSession(w, r)
	if !ok {
		return
	}
	notice := ""
	c := s.chrome(r, sess, "tokens")
	if id, err := catalog.ParseID(r.URL.Query().Get("revoked")); err == nil {
		notice = c.l.T("notice.token_revoked", "ID", strconv.FormatInt(id, 10))
	}
	s.tokensPage(w, r, sess, http.StatusOK, tokensPage{chrome: c, Notice: notice})
}

func (s *Service) tokensPage(w http.ResponseWriter, r *http.Request, sess catalog.Session, status int, p tokensPage) {
	list, err := s.store.ListTokens(r.Context())
	if err != nil {
		s.fail(w, r, sess, err)
		return
	}
	p.Tokens = list
	if p.Scopes == nil {
		for _, sc := range catalog.Scopes() {
			p.Scopes = append(p.Scopes, scopeChoice{Value: sc})
		}
	}
	s.render(w, r, status, "tokens", p)
}

// CreateToken answers POST /admin/tokens. The secret is shown in this
// answer only, never in a URL or a log; the database keeps its hash.
func (s *Service) CreateToken(w http.ResponseWriter, r *http.Request) {
	sess, ok := s.postedForm(w, r)
	if !ok {
		return
	}
	name := r.PostFormValue("name")
	var scopes []scopeChoice
	var joined string
	for _, sc := range catalog.Scopes() {
		checked := slices.Contains(r.PostForm["scope"], sc)
		scopes = append(scopes, scopeChoice{Value: sc, Checked: checked})
		if checked {
			joined += sc + ","
		}
	}
	for _, v := range r.PostForm["scope"] {
		if !slices.Contains(catalog.Scopes(), v) {
			joined += v + "," // reported as unknown by NewAPIToken
		}
	}
	tok, err := catalog.NewAPIToken(name, joined)
	if err == nil {
		secret, hash := auth.NewSecret()
		tok.TokenHash, tok.AdminID = hash, sess.AdminID
		if err = s.store.CreateToken(r.Context(), &tok); err == nil {
			s.log.Info("api token created", "id", tok.ID, "name", tok.Name, "admin", sess.Username)
			s.tokensPage(w, r, sess, http.StatusCreated, tokensPage{chrome: s.chrome(r, sess, "tokens"), Created: &createdToken{Token: tok, Secret: secret}})
			return
		}
	}
	c := s.chrome(r, sess, "tokens")
	fields, message, status, ok := formProblem(c.l, err, "token.not_created")
	if !ok {
		s.fail(w, r, sess, err)
		return
	}
	for k, v := range fields {
		fields[k] = c.l.Problem(v)
	}
	s.tokensPage(w, r, sess, status, tokensPage{chrome: c, Message: message, Errors: fields, Name: name, Scopes: scopes})
}

// RevokeToken answers POST /admin/tokens/{id}/revoke.
func (s *Service) RevokeToken(w http.ResponseWriter, r *http.Request) {
	sess, ok := s.pageSession(w, r)
	if !ok {
		return
	}
	id, err := catalog.ParseID(r.PathValue("id"))
	if err == nil {
		err = s.store.RevokeToken(r.Context(), id)
	}
	if catalog.ErrorCode(err) == catalog.ENOTFOUND {
		err = catalog.Errorf(catalog.ENOTFOUND, "There is no token #%d. It may have been revoked already.", id) // problem.no_token
	}
	if err != nil {
		s.fail(w, r, sess, err)
		return
	}
	s.log.Info("api token revoked", "id", id, "admin", sess.Username)
	redirect(w, r, "/admin/tokens?revoked="+strconv.FormatInt(id, 10))
}
