package importer

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"
	"time"

	"catalog/internal/catalog"
)

// movieColumns are the members a movie record may have (contract 4.6,
// 9): every member of the field table, the alias title of name, and the
// link_embed and link_m3u8 shorthand.
var movieColumns = slices.Concat(catalog.MovieMembers(), []string{"title"}, catalog.ShorthandMembers[:])

// clipColumns are the create fields plus the two an import may set.
var clipColumns = slices.Concat([]string{"id", "created_at"}, catalog.ClipFields)

// movieFromRecord builds and normalises a movie (contract 4.6).
func movieFromRecord(rec record) (catalog.Movie, catalog.FieldErrors) {
	var mv catalog.Movie
	fe := applyMovie(&mv, rec)
	return mv, fe
}

// mergedMovie is movieFromRecord over the stored movie the record names
// (by id, else id_code, else slug), so that only the members the record
// gives change (Options.Merge). The lookup reads the database as it is
// before the batch is written, so two records for one movie in one
// import each merge into the stored version and the later one wins.
func mergedMovie(ctx context.Context, store catalog.MovieStore, rec record) (catalog.Movie, catalog.FieldErrors) {
	fe := catalog.FieldErrors{}
	var id int64
	var idCode, slug string
	for _, m := range rec.members {
		switch m.name {
		case "id":
			id = m.id(fe)
		case "id_code":
			idCode = catalog.CleanText(m.str(fe))
		case "slug":
			slug = catalog.CleanText(m.str(fe))
		}
	}
	if len(fe) > 0 {
		return catalog.Movie{}, fe
	}
	var err error
	if id == 0 && (idCode != "" || slug != "") {
		id, err = store.MovieIDByKey(ctx, idCode, slug)
	}
	var mv catalog.Movie
	if err == nil && id != 0 {
		mv, err = store.GetMovie(ctx, id)
	}
	switch code := catalog.ErrorCode(err); {
	case code == catalog.ENOTFOUND:
		mv = catalog.Movie{}
	case err != nil:
		fe.Add("id", "the stored movie could not be read: "+catalog.ErrorMessage(err))
		return mv, fe
	}
	// The stored time is not the record's: given to UpsertMovies it would
	// be kept, and the change would never reach h= (contract 6).
	mv.UpdatedAt = time.Time{}
	return mv, applyMovie(&mv, rec)
}

// applyMovie sets the members rec gives on mv and normalises it.
func applyMovie(mv *catalog.Movie, rec record) catalog.FieldErrors {
	fe := catalog.FieldErrors{}
	var title string
	gaveName := false
	var links [2]string // the shorthand, by catalog.ShorthandMembers
	episodes := false   // an episodes member was given
	for _, m := range rec.members {
		if m.name == "title" {
			title = m.str(fe)
			continue
		}
		gaveName = gaveName || m.name == "name"
		switch catalog.MovieMemberKind(m.name) {
		case catalog.MemberID:
			mv.ID = m.id(fe)
		case catalog.MemberText:
			*catalog.MovieText(mv, m.name) = m.str(fe)
		case catalog.MemberInt:
			*catalog.MovieInt(mv, m.name) = m.int(fe)
		case catalog.MemberList:
			*catalog.MovieList(mv, m.name) = catalog.NewList(m.items(fe, rec.csv))
		case catalog.MemberEpisodes:
			mv.Episodes, episodes = m.episodes(fe), m.kind != kindNull
		case catalog.MemberShorthand:
			links[slices.Index(catalog.ShorthandMembers[:], m.name)] = strings.TrimSpace(m.str(fe))
		default:
			fe.Add(m.name, "is not a known field")
		}
	}
	switch {
	case strings.TrimSpace(mv.Name) == "", !gaveName && strings.TrimSpace(title) != "":
		mv.Name = title
	case strings.TrimSpace(title) != "" && catalog.CleanText(title) != catalog.CleanText(mv.Name):
		fe.Add("title", "differs from name; give only one of them")
	}
	shorthand := links != [2]string{}
	if shorthand && episodes {
		for i, name := range catalog.ShorthandMembers {
			if links[i] != "" {
				fe.Add(name, "cannot be given with episodes: give either episodes or the link_embed/link_m3u8 shorthand")
			}
		}
		return fe
	}
	if shorthand {
		mv.Episodes = catalog.ShorthandEpisodes(links[0], links[1])
	}
	fe.AddError("record", mv.Normalize())
	if shorthand {
		// A shorthand link's problems are named by the member the record
		// gave (link_embed) rather than by where it went
		// (episodes[0].server_data[0].link_embed).
		for k, v := range fe {
			if name, ok := strings.CutPrefix(k, "episodes[0].server_data[0]."); ok {
				delete(fe, k)
				fe.Add(name, v)
			}
		}
	}
	return fe
}

// clipFromRecord builds a clip with the rules of POST /api/clips.
func clipFromRecord(rec record, platforms *catalog.Platforms) (catalog.Clip, catalog.FieldErrors) {
	var c catalog.Clip
	var in catalog.ClipInput
	fe := catalog.FieldErrors{}
	for _, m := range rec.members {
		switch m.name {
		case "id":
			c.ID = m.id(fe)
		case "created_at":
			if s := m.str(fe); strings.TrimSpace(s) != "" {
				t, err := time.Parse(time.RFC3339, strings.TrimSpace(s))
				// An offset can carry 0000-01-01 or 9999-12-31 out of the
				// four-digit years RFC 3339 can write in UTC.
				if y := t.UTC().Year(); err != nil || y < 0 || y > 9999 {
					fe.Add(m.name, "must be an RFC 3339 timestamp such as 2026-11-21T13:45:07Z")
					continue
				}
				c.CreatedAt = catalog.StoredTime(t)
			}
		default:
			if !slices.Contains(catalog.ClipFields, m.name) {
				fe.Add(m.name, "is not a known field")
				continue
			}
			if m.kind == kindNull {
				continue
			}
			if m.kind != kindString {
				fe.Add(m.name, "must be a string")
				continue
			}
			in.Set(m.name, m.text)
		}
	}
	fe.AddError("record", in.Apply(&c, platforms, true))
	return c, fe
}

// str is a text member; numbers are taken as written ("year": 2019).
func (m member) str(fe catalog.FieldErrors) string {
	switch m.kind {
	case kindString, kindNumber:
		return m.text
	case kindNull:
		return ""
	}
	fe.Add(m.name, "must be a string")
	return ""
}

// episodes is the episodes member: an array of servers, or its JSON
// text in a CSV cell (contract 9).
func (m member) episodes(fe catalog.FieldErrors) []catalog.Server {
	var text []byte
	switch m.kind {
	case kindNull:
		return nil
	case kindRaw:
		text = m.raw
	case kindString:
		text = []byte(m.text)
	case kindList:
		if len(m.list) == 0 {
			return nil
		}
	}
	if text == nil {
		fe.Add(m.name, "must be an array of servers as in contract 9")
		return nil
	}
	servers, err := catalog.ParseEpisodes(text)
	if err != nil {
		fe.Add(m.name, catalog.ErrorMessage(err))
	}
	return servers
}

// int is a whole-number member, a JSON number or a string of digits;
// absent, null or empty is 0 (unknown). Its range is Normalize's to
// check.
func (m member) int(fe catalog.FieldErrors) int64 {
	switch m.kind {
	case kindNull:
		return 0
	case kindNumber, kindString:
		text := strings.TrimSpace(m.text)
		if text == "" {
			return 0
		}
		if n, err := strconv.ParseInt(text, 10, 64); err == nil {
			return n
		}
	}
	fe.Add(m.name, "must be a whole number")
	return 0
}

// id is a positive integer member; absent is 0.
func (m member) id(fe catalog.FieldErrors) int64 {
	if m.kind == kindNull {
		return 0
	}
	if m.kind == kindNumber || m.kind == kindString {
		n, err := strconv.ParseInt(strings.TrimSpace(m.text), 10, 64)
		if err == nil && n > 0 {
			if msg := catalog.CheckID(n); msg != "" {
				fe.Add(m.name, msg)
				return 0
			}
			return n
		}
		if errors.Is(err, strconv.ErrRange) && !strings.HasPrefix(strings.TrimSpace(m.text), "-") {
			fe.Add(m.name, catalog.CheckID(catalog.MaxID+1))
			return 0
		}
	}
	fe.Add(m.name, "must be a positive integer")
	return 0
}

// items is a list member: an array of strings or one string of items
// separated by commas (by "|" in CSV, where commas are common inside
// values; a CSV cell without "|" falls back to commas). A CSV cell that
// is a JSON array of strings is that array: export writes the lists
// that "|" cannot carry (an item holding "|") that way.
func (m member) items(fe catalog.FieldErrors, csv bool) []string {
	switch m.kind {
	case kindNull:
		return nil
	case kindList:
		return m.list
	case kindString:
		if csv && strings.HasPrefix(strings.TrimSpace(m.text), "[") {
			var list []string
			if json.Unmarshal([]byte(m.text), &list) == nil {
				return list
			}
		}
		sep := ","
		if csv && strings.Contains(m.text, "|") {
			sep = "|"
		}
		return strings.Split(m.text, sep)
	}
	fe.Add(m.name, "must be an array of strings or a comma-separated string")
	return nil
}
