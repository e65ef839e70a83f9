package maccms

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"catalog/internal/catalog"
)

// vodMembers are the fields a full MacCMS record carries as they are
// (catalog.FieldSpec.Vod), in the field table's order.
var vodMembers = func() []catalog.FieldSpec {
	var out []catalog.FieldSpec
	for _, spec := range catalog.MovieFieldSpecs() {
		if spec.Vod != "" {
			out = append(out, spec)
		}
	}
	return out
}()

// vodIsEnd is a fixed value of a MacCMS record: every title is
// finished (vod_isend 1).
const vodIsEnd = 1

// vodFields are a record's values in MacCMS terms, computed once for
// both encodings.
type vodFields struct {
	time, remarks, serial string
	groups                []catalog.PlayGroup // of vodQuery.from only, when given
	play                  catalog.VodPlay
	pic                   string
}

func fieldsOf(v *catalog.Vod, full bool, from string) vodFields {
	f := vodFields{time: v.UpdatedAt.UTC().Format(catalog.VodTimeLayout), remarks: catalog.VodRemarks(v.Episodes)}
	// Servers dead for longer than --dead-after come last (contract 13),
	// so that the apps that play the first group play a live one.
	f.groups = catalog.PlayGroups(catalog.ServedServers(v.Episodes, v.Health), from)
	if !full {
		f.play.From = catalog.ListPlayFrom(f.groups)
		return f
	}
	f.play = catalog.JoinPlayGroups(f.groups)
	f.serial = strconv.Itoa(catalog.VodSerial(v.Episodes))
	f.pic = v.ServedPoster(2)
	if f.pic == "" {
		f.pic = v.ServedPoster(1)
	}
	return f
}

// appendVodsJSON encodes the list envelope of contract 4.2 with MacCMS
// records, and the types and their filters for ac=list; a page past catalog.MaxPageBytes
// is refused.
func appendVodsJSON(b []byte, vq vodQuery, vods []catalog.Vod, total int64, types []catalog.VodType, filters []typeFilters) ([]byte, error) {
	b = vq.filter.Paging.AppendListHead(b, total, false)
	for i := range vods {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendVodJSON(b, &vods[i], vq.full, vq.from)
		if len(b) > catalog.MaxPageBytes {
			return nil, catalog.PageTooLarge("pagesize")
		}
	}
	b = append(b, ']')
	if !vq.full {
		b = append(b, `,"class":[`...)
		for i, t := range types {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"type_id":`...)
			b = strconv.AppendInt(b, t.ID, 10)
			b = append(b, `,"type_pid":0,"type_name":`...)
			b = catalog.AppendJSONString(b, t.Name)
			b = append(b, '}')
		}
		b = append(b, ']')
		b = appendFilters(b, filters)
	}
	return append(b, '}'), nil
}

// appendVodJSON encodes one record: every value a string except the
// ids and vod_isend (contract 6).
func appendVodJSON(b []byte, v *catalog.Vod, full bool, from string) []byte {
	f := fieldsOf(v, full, from)
	str := func(key, val string) {
		b = append(b, ',', '"')
		b = append(b, key...)
		b = append(b, '"', ':')
		b = catalog.AppendJSONString(b, val)
	}
	b = append(b, `{"vod_id":`...)
	b = strconv.AppendInt(b, v.ID, 10)
	str("vod_name", v.Name)
	b = append(b, `,"type_id":`...)
	b = strconv.AppendInt(b, v.TypeID, 10)
	str("type_name", v.TypeName)
	str("vod_en", v.Slug)
	str("vod_time", f.time)
	str("vod_remarks", f.remarks)
	str("vod_play_from", f.play.From)
	if full {
		for _, spec := range vodMembers {
			str(spec.Vod, v.VodText(spec.Field))
		}
		str("vod_pic", f.pic)
		str("vod_writer", "")
		str("vod_lang", "")
		str("vod_tag", "")
		str("vod_blurb", catalog.Blurb(v.Synopsis))
		str("vod_serial", f.serial)
		b = append(b, `,"vod_isend":`...)
		b = strconv.AppendInt(b, vodIsEnd, 10)
		// The hits as numbers, the score twice and the Douban id as a
		// number, 0 for none (contract 12), in MacCMS's order.
		hits := v.ServedHits()
		for _, h := range [...]struct {
			key string
			n   int64
		}{{"vod_hits", hits.Total}, {"vod_hits_day", hits.Day}, {"vod_hits_week", hits.Week}, {"vod_hits_month", hits.Month}} {
			b = append(b, ',', '"')
			b = append(b, h.key...)
			b = append(b, '"', ':')
			b = strconv.AppendInt(b, h.n, 10)
		}
		str("vod_score", v.Score)
		b = append(b, `,"vod_douban_id":`...)
		b = strconv.AppendInt(b, catalog.DoubanNumber(v.DoubanID), 10)
		str("vod_douban_score", v.Score)
		str("vod_play_server", f.play.Server)
		str("vod_play_note", f.play.Note)
		str("vod_play_url", f.play.URL)
	}
	return append(b, '}')
}

// appendVodsXML encodes MacCMS's XML form: <rss version="5.1"> with a
// <list> of <video> records and, for ac=list, the <class> of types.
// Free text goes in CDATA where MacCMS puts it, everything else is
// escaped, so any value parses. A page past catalog.MaxPageBytes is
// refused.
func appendVodsXML(b []byte, vq vodQuery, vods []catalog.Vod, total int64, types []catalog.VodType) ([]byte, error) {
	p := vq.filter.Paging
	b = append(b, `<?xml version="1.0" encoding="utf-8"?><rss version="5.1"><list page="`...)
	b = strconv.AppendInt(b, p.Page, 10)
	b = append(b, `" pagecount="`...)
	b = strconv.AppendInt(b, p.PageCount(total), 10)
	b = append(b, `" pagesize="`...)
	b = strconv.AppendInt(b, p.Limit, 10)
	b = append(b, `" recordcount="`...)
	b = strconv.AppendInt(b, total, 10)
	b = append(b, `">`...)
	for i := range vods {
		b = appendVodXML(b, &vods[i], vq.full, vq.from)
		if len(b) > catalog.MaxPageBytes {
			return nil, catalog.PageTooLarge("pagesize")
		}
	}
	b = append(b, `</list>`...)
	if !vq.full {
		b = append(b, `<class>`...)
		for _, t := range types {
			b = append(b, `<ty id="`...)
			b = strconv.AppendInt(b, t.ID, 10)
			b = append(b, `">`...)
			b = appendXMLText(b, t.Name)
			b = append(b, `</ty>`...)
		}
		b = append(b, `</class>`...)
	}
	return append(b, `</rss>`...), nil
}

func appendVodXML(b []byte, v *catalog.Vod, full bool, from string) []byte {
	f := fieldsOf(v, full, from)
	elem := func(name, val string, cdata bool) {
		b = append(b, '<')
		b = append(b, name...)
		b = append(b, '>')
		if cdata {
			b = appendCDATA(b, val)
		} else {
			b = appendXMLText(b, val)
		}
		b = append(b, '<', '/')
		b = append(b, name...)
		b = append(b, '>')
	}
	b = append(b, `<video>`...)
	elem("last", f.time, false)
	elem("id", strconv.FormatInt(v.ID, 10), false)
	elem("tid", strconv.FormatInt(v.TypeID, 10), false)
	elem("name", v.Name, true)
	elem("type", v.TypeName, false)
	elem("dt", f.play.From, false)
	elem("note", f.remarks, true)
	if full {
		elem("pic", f.pic, false)
		elem("lang", "", false)
		elem("state", f.serial, false)
		for _, spec := range vodMembers {
			if spec.VodXML != "" {
				elem(spec.VodXML, v.VodText(spec.Field), spec.VodCDATA)
			}
		}
		b = append(b, `<dl>`...)
		for _, g := range f.groups {
			b = append(b, `<dd flag="`...)
			b = appendXMLText(b, g.From)
			b = append(b, `" note="`...)
			b = appendXMLText(b, g.Note)
			b = append(b, `">`...)
			b = appendCDATA(b, g.URL)
			b = append(b, `</dd>`...)
		}
		b = append(b, `</dl>`...)
	}
	return append(b, `</video>`...)
}

// appendXMLText appends s escaped as XML character data (also safe in
// a double-quoted attribute).
func appendXMLText(b []byte, s string) []byte {
	return appendXMLChars(b, s, func(r rune) string {
		switch r {
		case '&':
			return "&amp;"
		case '<':
			return "&lt;"
		case '>':
			return "&gt;"
		case '"':
			return "&#34;"
		case '\r':
			return "&#xD;" // kept: a parser turns a raw CR into LF
		}
		return ""
	})
}

// appendCDATA appends s as a CDATA section. A "]]>" inside would end
// the section, so the section is closed after "]]" and a new one starts
// with ">".
func appendCDATA(b []byte, s string) []byte {
	b = append(b, "<![CDATA["...)
	for {
		i := strings.Index(s, "]]>")
		if i < 0 {
			break
		}
		b = appendXMLChars(b, s[:i+2], nil)
		b = append(b, "]]><![CDATA["...)
		s = s[i+2:]
	}
	b = appendXMLChars(b, s, nil)
	return append(b, "]]>"...)
}

// appendXMLChars appends s, replacing what XML 1.0 cannot hold at all
// (invalid UTF-8, control characters other than tab, newline and
// return, U+FFFE and U+FFFF) with U+FFFD; escape, when given, returns
// the replacement of a rune that needs one ("" for none).
func appendXMLChars(b []byte, s string, escape func(rune) string) []byte {
	start := 0
	for i := 0; i < len(s); {
		r, size := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(s[i:])
		}
		var repl string
		switch {
		case r < 0x20 && r != '\t' && r != '\n' && r != '\r',
			r == utf8.RuneError && size == 1, r == 0xFFFE, r == 0xFFFF:
			repl = "\uFFFD"
		case escape != nil:
			repl = escape(r)
		}
		if repl != "" {
			b = append(b, s[start:i]...)
			b = append(b, repl...)
			start = i + size
		}
		i += size
	}
	return append(b, s[start:]...)
}
