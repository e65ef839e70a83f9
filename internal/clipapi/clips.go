package clipapi

import (
	"context"
	"errors"
	"io"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"catalog/internal/catalog"
	"catalog/internal/httpx"
	"catalog/internal/search"
)

// clipValueFields are the value filters of the clip list (contract 12).
var clipValueFields = []catalog.ValueField{catalog.ValueActor, catalog.ValueStudio}

// parseClipFilter reads page, limit, q, platform, actor and studio.
func (s *API) parseClipFilter(q url.Values) (catalog.ClipFilter, error) {
	paging, err := catalog.ParsePaging(q)
	if err != nil {
		return catalog.ClipFilter{}, err
	}
	filter := catalog.ClipFilter{Paging: paging}
	if filter.Terms, err = catalog.ParseSearch("q", q.Get("q")); err != nil {
		return filter, err
	}
	if filter.Match, err = catalog.ParseValueFilters(q, clipValueFields...); err != nil {
		return filter, err
	}
	if v := q.Get("platform"); v != "" {
		p, ok := s.platforms.Normalize(v)
		if !ok {
			return filter, catalog.Errorf(catalog.EINVALID, "platform must be one of: %s", s.platforms.Allowed())
		}
		filter.Platform = p
	}
	return filter, nil
}

// listClips answers GET /api/clips?q=&platform=&actor=&studio=&page=&limit=.
func (s *API) listClips(w http.ResponseWriter, r *http.Request) error {
	filter, err := s.parseClipFilter(r.URL.Query())
	if err != nil {
		return err
	}
	paging := filter.Paging
	return s.reads.Serve(w, r, listKey(filter), "", func(ctx context.Context, version int64) ([]byte, error) {
		clips, total, err := s.search.Clips(ctx, version, filter)
		if err != nil {
			return nil, err
		}
		return appendClipList(nil, paging, total, clips), nil
	})
}

// clipFacetFields are the fields of /api/clips/facets (contract 12).
var clipFacetFields = []string{search.FacetPlatform, catalog.ValueActor.String(), catalog.ValueStudio.String()}

// clipFacets answers GET /api/clips/facets?field=F and the list's
// filters: the values of F with their counts, in the list envelope.
func (s *API) clipFacets(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	field := q.Get("field")
	if !slices.Contains(clipFacetFields, field) {
		return catalog.Errorf(catalog.EINVALID, "field must be one of %s", strings.Join(clipFacetFields, ", "))
	}
	filter, err := s.parseClipFilter(q)
	if err != nil {
		return err
	}
	return s.reads.Serve(w, r, "facets\x00"+field+"\x00"+listKey(filter), "", func(ctx context.Context, version int64) ([]byte, error) {
		p, err := s.search.ClipFacet(ctx, version, field, filter)
		if err != nil {
			return nil, err
		}
		b := appendClipListHead(nil, filter.Paging, p.Total)
		return append(catalog.AppendFacetValues(b, p.Values), "]}"...), nil
	})
}

// appendClipList encodes the list envelope (contract 3.4).
func appendClipList(b []byte, paging catalog.Paging, total int64, clips []catalog.Clip) []byte {
	b = appendClipListHead(slices.Grow(b, 64+len(clips)*512), paging, total)
	for i := range clips {
		if i > 0 {
			b = append(b, ',')
		}
		b = clips[i].AppendJSON(b)
	}
	return append(b, "]}"...)
}

// appendClipListHead appends the list envelope up to the opening of
// its data.
func appendClipListHead(b []byte, paging catalog.Paging, total int64) []byte {
	b = append(b, `{"meta":{"page":`...)
	b = strconv.AppendInt(b, paging.Page, 10)
	b = append(b, `,"limit":`...)
	b = strconv.AppendInt(b, paging.Limit, 10)
	b = append(b, `,"total":`...)
	b = strconv.AppendInt(b, total, 10)
	return append(b, `},"data":[`...)
}

// getClip answers GET /api/clips/{id}.
func (s *API) getClip(w http.ResponseWriter, r *http.Request) error {
	id, err := catalog.ParseID(r.PathValue("id"))
	if err != nil {
		return err
	}
	return s.reads.Serve(w, r, detailKey(id), "", func(ctx context.Context, _ int64) ([]byte, error) {
		clips, err := s.store.ClipsByID(ctx, []int64{id})
		if err != nil {
			return nil, err
		}
		if len(clips) == 0 {
			return nil, catalog.Errorf(catalog.ENOTFOUND, "clip not found")
		}
		return appendClipData(nil, &clips[0]), nil
	})
}

// listPlatforms answers GET /api/platforms in configured order.
func (s *API) listPlatforms(w http.ResponseWriter, r *http.Request) error {
	httpx.WritePayload(w, r, http.StatusOK, s.platformsPayload)
	return nil
}

// createClip answers POST /api/clips: 201 with the clip and its Location.
func (s *API) createClip(w http.ResponseWriter, r *http.Request) error {
	// The session comes first: an anonymous request is a 401 whatever
	// it carries.
	if err := s.authorize(r, catalog.ScopeClipsWrite); err != nil {
		return err
	}
	in, decodeErr, err := s.clipInput(w, r)
	if err != nil {
		return err
	}
	var c catalog.Clip
	if err := joinFieldErrors(decodeErr, in.Apply(&c, s.platforms, true)); err != nil {
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
func (s *API) updateClip(w http.ResponseWriter, r *http.Request) error {
	id, err := s.authorizedID(r)
	if err != nil {
		return err
	}
	in, decodeErr, err := s.clipInput(w, r)
	if err != nil {
		return err
	}
	if decodeErr != nil {
		var scratch catalog.Clip
		return joinFieldErrors(decodeErr, in.Apply(&scratch, s.platforms, false))
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
func (s *API) deleteClip(w http.ResponseWriter, r *http.Request) error {
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
func (s *API) authorize(r *http.Request, scope string) error {
	if authorization := r.Header.Get("Authorization"); authorization != "" {
		tok, err := s.tokens.Authenticate(r.Context(), authorization, scope)
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
func (s *API) authorizedID(r *http.Request) (int64, error) {
	if err := s.authorize(r, catalog.ScopeClipsWrite); err != nil {
		return 0, err
	}
	return catalog.ParseID(r.PathValue("id"))
}

// clipInput reads a create or patch body, checking in the contract's
// order the content type (415), the size (413) and the JSON shape
// (400). Members that are unknown or not strings come back as decodeErr
// beside the members that decoded, so that the caller's one Apply can
// add its own field errors and one answer names every failing field.
func (s *API) clipInput(w http.ResponseWriter, r *http.Request) (in catalog.ClipInput, decodeErr, err error) {
	mediaType, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mediaType != "application/json" {
		return in, nil, catalog.Errorf(catalog.EUNSUPPORTED, "Content-Type must be application/json")
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, catalog.MaxClipBody))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return in, nil, catalog.Errorf(catalog.ETOOLARGE, "body must be at most %d bytes", int64(catalog.MaxClipBody))
		}
		return in, nil, catalog.Errorf(catalog.EINVALID, "the body could not be read")
	}
	in, err = catalog.DecodeClipInput(body)
	if e := (*catalog.Error)(nil); errors.As(err, &e) && len(e.Fields) > 0 {
		return in, err, nil
	}
	return in, nil, err
}

// joinFieldErrors is applyErr with the field errors of decodeErr (from
// clipInput) added; nil when both are nil.
func joinFieldErrors(decodeErr, applyErr error) error {
	if decodeErr == nil {
		return applyErr
	}
	fe := catalog.FieldErrors{}
	for _, err := range []error{decodeErr, applyErr} {
		var e *catalog.Error
		if errors.As(err, &e) {
			for name, msg := range e.Fields {
				fe.Add(name, msg)
			}
		}
	}
	return fe.Err()
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
