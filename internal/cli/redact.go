package cli

import (
	"context"
	"log/slog"
	"net/url"
	"regexp"
	"strings"
)

// hidden stands for a password in logs and messages: url.URL.Redacted's
// placeholder, so that a URL's user part and the other places a
// password hides read alike.
const hidden = "xxxxx"

// kvPassword is a password in a key=value connection string
// ("host=db password='s e\'cret' dbname=x") or a URL query
// ("?sslmode=disable&password=secret"): the value runs to white space,
// "&" or ";", or is a single-quoted string with backslash escapes.
var kvPassword = regexp.MustCompile(`(?i)(\bpassword\s*=\s*)('(?:[^'\\]|\\.)*'?|[^\s&;]*)`)

// isURL reports whether dsn has the form scheme://...
func isURL(dsn string) (scheme string, ok bool) {
	i := strings.Index(dsn, "://")
	if i <= 0 || strings.ContainsAny(dsn[:i], " =/") {
		return "", false
	}
	return dsn[:i], true
}

// safeDSN is dsn with every password hidden, for logs and messages: the
// password of a URL's user part, a password query parameter, and a
// password=value pair of a key=value connection string (which --db
// takes as a SQLite file name, so it may still appear in paths).
func safeDSN(dsn string) string {
	scheme, ok := isURL(dsn)
	if !ok {
		return kvPassword.ReplaceAllString(dsn, "${1}"+hidden)
	}
	u, err := url.Parse(dsn)
	if err != nil {
		// Where a password would be cannot be told: show the scheme only.
		return scheme + "://..."
	}
	if q, err := url.ParseQuery(u.RawQuery); err != nil || passwordValues(q) != nil {
		// A bad query or an escaped key is rebuilt from what parsed:
		// nothing of it survives unread.
		for k := range q {
			if strings.EqualFold(k, "password") {
				q[k] = []string{hidden}
			}
		}
		u.RawQuery = q.Encode()
	}
	return u.Redacted()
}

func passwordValues(q url.Values) []string {
	var out []string
	for k, vs := range q {
		if strings.EqualFold(k, "password") {
			out = append(out, vs...)
		}
	}
	return out
}

// redactor hides one DSN's passwords wherever they occur in a text: the
// DSN itself, paths derived from it, or the password alone (decoded, as
// a driver may quote it).
type redactor struct {
	dsn, safe string
	secrets   []string
}

func newRedactor(dsn string) *redactor {
	r := &redactor{dsn: dsn, safe: safeDSN(dsn)}
	add := func(s string) {
		if s != "" && s != hidden {
			r.secrets = append(r.secrets, s)
		}
	}
	if scheme, ok := isURL(dsn); ok {
		// Whatever url.Parse makes of it, the user part runs to the last
		// "@" before the path.
		rest := dsn[len(scheme)+3:]
		if i := strings.IndexAny(rest, "/?#"); i >= 0 {
			rest = rest[:i]
		}
		if at := strings.LastIndex(rest, "@"); at >= 0 {
			if _, p, ok := strings.Cut(rest[:at], ":"); ok {
				add(p)
			}
		}
		if u, err := url.Parse(dsn); err == nil {
			if p, ok := u.User.Password(); ok {
				add(p)
				add(url.PathEscape(p))
				add(url.QueryEscape(p))
			}
			q, _ := url.ParseQuery(u.RawQuery)
			for _, p := range passwordValues(q) {
				add(p)
				add(url.QueryEscape(p))
			}
		}
	}
	for _, m := range kvPassword.FindAllStringSubmatch(dsn, -1) {
		v := m[2]
		add(v)
		if strings.HasPrefix(v, "'") {
			v = strings.TrimSuffix(strings.TrimPrefix(v, "'"), "'")
			add(strings.NewReplacer(`\'`, `'`, `\\`, `\`).Replace(v))
		}
	}
	return r
}

// secret reports whether the DSN carries a password at all.
func (r *redactor) secret() bool { return r.safe != r.dsn || len(r.secrets) > 0 }

// scrub returns s with the DSN and its passwords hidden, and any other
// password=value pair too.
func (r *redactor) scrub(s string) string {
	if r.dsn != "" {
		s = strings.ReplaceAll(s, r.dsn, r.safe)
	}
	for _, p := range r.secrets {
		s = strings.ReplaceAll(s, p, hidden)
	}
	return kvPassword.ReplaceAllString(s, "${1}"+hidden)
}

// hideDSN is msg with dsn's passwords hidden (see redactor).
func hideDSN(msg, dsn string) string { return newRedactor(dsn).scrub(msg) }

// redactHandler hides a DSN's passwords in every log record: its message
// and every string or error attribute (the snapshot folder is named after
// the SQLite file, and its errors quote the path). serve installs it only
// when the DSN carries a password, so the request log pays nothing
// otherwise.
type redactHandler struct {
	next slog.Handler
	r    *redactor
}

func (h redactHandler) Enabled(ctx context.Context, l slog.Level) bool { return h.next.Enabled(ctx, l) }

func (h redactHandler) Handle(ctx context.Context, rec slog.Record) error {
	out := slog.NewRecord(rec.Time, rec.Level, h.r.scrub(rec.Message), rec.PC)
	rec.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(h.attr(a))
		return true
	})
	return h.next.Handle(ctx, out)
}

func (h redactHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	clean := make([]slog.Attr, len(attrs))
	for i, a := range attrs {
		clean[i] = h.attr(a)
	}
	return redactHandler{next: h.next.WithAttrs(clean), r: h.r}
}

func (h redactHandler) WithGroup(name string) slog.Handler {
	return redactHandler{next: h.next.WithGroup(name), r: h.r}
}

func (h redactHandler) attr(a slog.Attr) slog.Attr {
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindString:
		a.Value = slog.StringValue(h.r.scrub(v.String()))
	case slog.KindGroup:
		group := v.Group()
		clean := make([]slog.Attr, len(group))
		for i, g := range group {
			clean[i] = h.attr(g)
		}
		a.Value = slog.GroupValue(clean...)
	case slog.KindAny:
		if err, ok := v.Any().(error); ok {
			a.Value = slog.StringValue(h.r.scrub(err.Error()))
		}
	}
	return a
}
