package clipapi

import (
	"context"
	"errors"
	"io"
	"mime"
	"net/http"
	"slices"
	"strconv"

	"catalog/internal/auth"
	"catalog/internal/catalog"
	"catalog/internal/httpx"
)

// listClips answers GET /api/clips?q=&platform=&page=&limit=.
func (s *server) listClips(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	paging, err := catalog.ParsePaging(q)
	if err != nil {
		return err
	}
	terms, err := catalog.ParseSearch("q", q.Get("q"))
	if err != nil {
		return err
	}
	filter := catalog.ClipFilter{Terms: terms, Paging: paging}
	if v := q.Get("platform"); v != "" {
		p, ok := s.platforms.Normalize(v)
		if !ok {
			return catalog.Errorf(catalog.EINVALID, "platform must be one of: %s", s.platforms.Allowed())
		}
		filter.Platform = p
	}
	return s.reads.Serve(w, r, listKey(filter), "", func(ctx context.Context, version int64) ([]byte, error) {
		clips, total, err := s.search.Clips(ctx, version, filter)
		if err != nil {
			return nil, err
		}
		return appendClipList(nil, paging, total, clips), nil
	})
}

// appendClipList encodes the list envelope (contract 3.4).
func appendClipList(b []byte, paging catalog.Paging, total int64, clips []catalog.Clip) []byte {
	b = slices.Grow(b, 64+len(clips)*512)
	b = append(b, `{"meta":{"page":`...)
	b = strconv.AppendInt(b, paging.Page, 10)
	b = append(b, `,"limit":`...)
	b = strconv.AppendInt(b, paging.Limit, 10)
	b = append(b, `,"total":`...)
	b = strconv.AppendInt(b, total, 10)
	b = append(b, `},"data":[`...)
	for i := range clips {
		if i > 0 {
			b = append(b, ',')
		}
		b = clips[i].AppendJSON(b)
	}
	return append(b, "]}"...)
}

// getClip answers GET /api/clips/{id}.
func (s *server) getClip(w http.ResponseWriter, r *http.Request) error {
	id, err := catalog.ParseID(r.PathValue("id"))
	if err != nil {
		return err
	}
	return s.reads.Serve(w, r, detailKey(id), "", func(ctx context.Context, _ int64) ([]byte, error) {
		c, err := s.store.GetClip(ctx, id)
		if err != nil {
			return nil, err
		}
		return appendClipData(nil, &c), nil
	})
}

// listPlatforms answers GET /api/platforms in configured order.
func (s *server) listPlatforms(w http.ResponseWriter, r *http.Request) error {
	httpx.WritePayload(w, r, http.StatusOK, s.platformsPayload)
	return nil
}

// createClip answers POST /api/clips: 201 with the clip and its Location.
func (s *server) createClip(w http.ResponseWriter, r *http.Request) error {
	// The session comes first: an anonymous request is a 401 whatever
	// it carries.
	if err := s.authorize(r, catalog.ScopeClipsWrite); err != nil {
		return err
	}
	in, err := s.clipInput(w, r, true)
	if err != nil {
		return err
	}
	var c catalog.Clip
	if err := in.Apply(&c, s.platforms, true); err != nil {
		return err
	}
	if err := s.store.CreateClip(r.Context(), &c); err != nil {
		return err
	}
	w.Header().Set("Location", "/api/clips/"+strconv.FormatInt(c.ID, 10))
	writeClip(w, r, http.StatusCreated, &c)
	return nil
}

// updateClip answers PATCH /api/clips/{id}: any subset of the create
// fields, same rules; validation runs inside the store's transaction so
// nothing is written when it fails.
func (s *server) updateClip(w http.ResponseWriter, r *http.Request) error {
	id, err := s.authorizedID(r)
	if err != nil {
		return err
	}
	in, err := s.clipInput(w, r, false)
	if err != nil {
		return err
	}
	c, err := s.store.UpdateClip(r.Context(), id, func(c *catalog.Clip) error {
		return in.Apply(c, s.platforms, false)
	})
	if err != nil {
		return err
	}
	writeClip(w, r, http.StatusOK, &c)
	return nil
}

// deleteClip answers DELETE /api/clips/{id} with 204.
func (s *server) deleteClip(w http.ResponseWriter, r *http.Request) error {
	id, err := s.authorizedID(r)
	if err != nil {
		return err
	}
	if err := s.store.DeleteClip(r.Context(), id); err != nil {
		return err
	}
	w.Header().Set("Cache-Control", httpx.NoStore)
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// authorize admits a request that changes records: by its API token
// when it sends an Authorization header (the token must carry scope),
// else by its session cookie (contract 5 and 8). A write admitted by a
// token gets an audit line naming the token, as console actions name
// the administrator; its request id joins it to the request line, which
// says how the write ended.
func (s *server) authorize(r *http.Request, scope string) error {
	if auth.HasBearer(r) {
		tok, err := s.tokens.Authenticate(r, scope)
		if err == nil {
			s.log.InfoContext(r.Context(), "api token write", "method", r.Method, "path", r.URL.Path,
				"token_id", tok.ID, "token", tok.Name)
		}
		return err
	}
	_, err := s.sessions.Authenticate(r)
	return err
}

// authorizedID checks the session before the path id, so that an
// anonymous caller learns nothing about ids.
func (s *server) authorizedID(r *http.Request) (int64, error) {
	if err := s.authorize(r, catalog.ScopeClipsWrite); err != nil {
		return 0, err
	}
	return catalog.ParseID(r.PathValue("id"))
}

// clipInput reads a create (or, without create, a patch) body, checking
// in the contract's order the content type (415), the size (413) and the
// JSON shape (400).
func (s *server) clipInput(w http.ResponseWriter, r *http.Request, create bool) (catalog.ClipInput, error) {
	mediaType, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mediaType != "application/json" {
		return catalog.ClipInput{}, catalog.Errorf(catalog.EUNSUPPORTED, "Content-Type must be application/json")
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, catalog.MaxClipBody))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return catalog.ClipInput{}, catalog.Errorf(catalog.ETOOLARGE, "body must be at most %d bytes", int64(catalog.MaxClipBody))
		}
		return catalog.ClipInput{}, catalog.Errorf(catalog.EINVALID, "the body could not be read")
	}
	in, err := catalog.DecodeClipInput(body)
	var e *catalog.Error
	if err != nil && errors.As(err, &e) && len(e.Fields) > 0 {
		// Unknown or non-string members: validate the members that were
		// fine as well, so that one answer names every failing field.
		fe := catalog.FieldErrors{}
		for name, msg := range e.Fields {
			fe.Add(name, msg)
		}
		var scratch catalog.Clip
		var applyErr *catalog.Error
		if errors.As(in.Apply(&scratch, s.platforms, create), &applyErr) {
			for name, msg := range applyErr.Fields {
				fe.Add(name, msg)
			}
		}
		return in, fe.Err()
	}
	return in, err
}

// writeClip answers with {"data": clip}. Responses to changes are never
// cached; reads already carry their cache headers.
func writeClip(w http.ResponseWriter, r *http.Request, status int, c *catalog.Clip) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Cache-Control", httpx.NoStore)
	}
	httpx.WriteJSON(w, r, status, appendClipData(nil, c))
}

// appendClipData encodes {"data": clip}.
func appendClipData(b []byte, c *catalog.Clip) []byte {
	b = slices.Grow(b, 512)
	b = append(b, `{"data":`...)
	b = c.AppendJSON(b)
	return append(b, '}')
}
