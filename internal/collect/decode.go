package collect

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"catalog/internal/catalog"
)

// vod is one record as a source sent it, in MacCMS terms (contract 6):
// the fields a collection maps, as text, under their JSON keys and XML
// elements. The XML form has no slug, release date, second poster,
// class, score or Douban id, and its play groups are <dd flag="CODE"
// note="SERVER"> elements (DL), which decodeXML joins into the play
// fields as the JSON form carries them.
type vod struct {
	ID       text `json:"vod_id" xml:"id"`
	Name     text `json:"vod_name" xml:"name"`
	En       text `json:"vod_en" xml:"-"`
	Sub      text `json:"vod_sub" xml:"subname"`
	Year     text `json:"vod_year" xml:"year"`
	Pubdate  text `json:"vod_pubdate" xml:"-"`
	Pic      text `json:"vod_pic" xml:"pic"`
	PicSlide text `json:"vod_pic_slide" xml:"-"`
	Actor    text `json:"vod_actor" xml:"actor"`
	Director text `json:"vod_director" xml:"director"`
	Area     text `json:"vod_area" xml:"area"`
	Class    text `json:"vod_class" xml:"-"`
	TypeID   text `json:"type_id" xml:"tid"`
	TypeName text `json:"type_name" xml:"type"`
	Content  text `json:"vod_content" xml:"des"`
	PlayFrom text `json:"vod_play_from" xml:"-"`
	PlayNote text `json:"vod_play_note" xml:"-"`
	PlayURL  text `json:"vod_play_url" xml:"-"`
	// The score and the Douban id (contract 12).
	Score       text `json:"vod_score" xml:"-"`
	DoubanScore text `json:"vod_douban_score" xml:"-"`
	DoubanID    text `json:"vod_douban_id" xml:"-"`
	DL          []struct {
		Flag string `xml:"flag,attr"`
		Note string `xml:"note,attr"`
		URL  string `xml:",chardata"`
	} `json:"-" xml:"dl>dd"`
}

// sourcePage is one decoded answer.
type sourcePage struct {
	Page, PageCount, Total int
	Records                []vod
}

// text takes any JSON scalar as text: sources send numbers as strings
// and strings as numbers, and null for "".
type text string

func (t *text) UnmarshalJSON(b []byte) error {
	switch {
	case len(b) > 1 && b[0] == '"' && bytes.IndexByte(b, '\\') < 0 && utf8.Valid(b):
		// encoding/json checked the literal: without escapes its text is
		// what lies between the quotes.
		*t = text(b[1 : len(b)-1])
	case len(b) > 0 && b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*t = text(s)
	case string(b) == "null":
		*t = ""
	case len(b) > 0 && (b[0] == '{' || b[0] == '['):
		return fmt.Errorf("got %s where text belongs", map[byte]string{'{': "an object", '[': "an array"}[b[0]])
	default:
		*t = text(b) // a number or true/false, as written
	}
	return nil
}

// decodeJSON reads the list envelope of a JSON answer.
func decodeJSON(body []byte) (sourcePage, error) {
	var env struct {
		Code      *text `json:"code"`
		Page      text  `json:"page"`
		PageCount text  `json:"pagecount"`
		Total     text  `json:"total"`
		List      vods  `json:"list"`
	}
	if err := json.Unmarshal(body, &env); errors.Is(err, errTooManyRecords) {
		return sourcePage{}, err
	} else if err != nil {
		return sourcePage{}, fmt.Errorf("answer is not the JSON of a provide API (%s)%s", jsonProblem(err), looksLike(body))
	}
	if env.Code == nil {
		return sourcePage{}, fmt.Errorf("answer has no code: not the JSON of a provide API%s", looksLike(body))
	}
	if *env.Code != "1" {
		// The code when it is a number; never msg, which is the
		// source's text (contract 13: errors are in our words).
		if n, err := strconv.Atoi(strings.TrimSpace(string(*env.Code))); err == nil {
			return sourcePage{}, fmt.Errorf("answered code %d, not 1", n)
		}
		return sourcePage{}, errors.New("answered a code that is not 1")
	}
	p := sourcePage{Records: env.List}
	var err error
	p.Page, p.PageCount, p.Total, err = pageNumbers(string(env.Page), string(env.PageCount), string(env.Total))
	return p, err
}

func jsonProblem(err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Sprintf("broken JSON at byte %d", se.Offset)
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		return fmt.Sprintf("%s is a JSON %s", te.Field, te.Value)
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}

// decodeXML reads <rss><list page pagecount>...<video>...</list></rss>.
// The XML form has no code; the records carry no slug, release date or
// second poster, and a play group is a <dd flag="CODE" note="SERVER">.
func decodeXML(body []byte) (sourcePage, error) {
	var doc struct {
		XMLName xml.Name
		List    *struct {
			Page      string `xml:"page,attr"`
			PageCount string `xml:"pagecount,attr"`
			Total     string `xml:"recordcount,attr"`
			Videos    vods   `xml:"video"`
		} `xml:"list"`
	}
	dec := xml.NewDecoder(bytes.NewReader(body))
	dec.Strict = true
	if err := dec.Decode(&doc); errors.Is(err, errTooManyRecords) {
		return sourcePage{}, err
	} else if err != nil {
		return sourcePage{}, fmt.Errorf("answer is not the XML of a provide API (%s)%s", xmlProblem(err), looksLike(body))
	}
	if doc.XMLName.Local != "rss" || doc.List == nil {
		return sourcePage{}, fmt.Errorf("answer is not <rss><list> of a provide API%s", looksLike(body))
	}
	p := sourcePage{Records: doc.List.Videos}
	for i := range p.Records {
		r := &p.Records[i]
		var froms, notes, urls []string
		for _, dd := range r.DL {
			froms = append(froms, dd.Flag)
			notes = append(notes, dd.Note)
			urls = append(urls, dd.URL)
		}
		r.PlayFrom = text(strings.Join(froms, catalog.PlaySeparator))
		r.PlayNote = text(strings.Join(notes, catalog.PlaySeparator))
		r.PlayURL = text(strings.Join(urls, catalog.PlaySeparator))
	}
	var err error
	p.Page, p.PageCount, p.Total, err = pageNumbers(doc.List.Page, doc.List.PageCount, doc.List.Total)
	return p, err
}

// MaxPageRecords is the most records a page may hold, whatever its
// bytes: a run asks for PageSize, and a page of more stops the run, so
// that a run's memory is bounded by records as well as by bytes.
const MaxPageRecords = 1000

var errTooManyRecords = fmt.Errorf("page holds more than %d records", MaxPageRecords)

// vods is a page's records, read one by one so that a page of more
// than MaxPageRecords records stops before it takes their memory: the
// JSON list member, or the XML <video> elements of a list.
type vods []vod

func (l *vods) UnmarshalJSON(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok == nil { // null
		*l = nil
		return nil
	}
	if tok != json.Delim('[') {
		return errors.New("list is not an array")
	}
	for dec.More() {
		if len(*l) == MaxPageRecords {
			return errTooManyRecords
		}
		var v vod
		if err := dec.Decode(&v); err != nil {
			return err
		}
		*l = append(*l, v)
	}
	return nil
}

func (l *vods) UnmarshalXML(d *xml.Decoder, start xml.StartElement) error {
	if len(*l) == MaxPageRecords {
		return errTooManyRecords
	}
	var v vod
	if err := d.DecodeElement(&v, &start); err != nil {
		return err
	}
	*l = append(*l, v)
	return nil
}

// xmlProblem words an XML decoding error by where it is: the decoder's
// message can name the source's elements.
func xmlProblem(err error) string {
	var se *xml.SyntaxError
	if errors.As(err, &se) {
		return fmt.Sprintf("broken XML at line %d", se.Line)
	}
	return "unreadable XML"
}

// pageNumbers reads page, pagecount and the total; a missing one is 0
// (without a pagecount the run stops after this page).
func pageNumbers(page, count, total string) (p, c, t int, err error) {
	for _, f := range []struct {
		what string
		s    string
		n    *int
	}{{"page", page, &p}, {"pagecount", count, &c}, {"total", total, &t}} {
		s := strings.TrimSpace(f.s)
		if s == "" {
			continue
		}
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			return 0, 0, 0, fmt.Errorf("%s is not a count", f.what)
		}
		*f.n = n
	}
	return p, c, t, nil
}

// looksLike names what an answer that is not the expected format is,
// when it says: an HTML page, often a proxy's or a PHP error. Only the
// kind is named, never the page's text or title.
func looksLike(body []byte) string {
	head := bytes.TrimSpace(bytes.TrimPrefix(body, []byte("\xef\xbb\xbf")))
	if len(head) > 512 {
		head = head[:512]
	}
	lower := bytes.ToLower(head)
	if bytes.HasPrefix(lower, []byte("<!doctype html")) || bytes.HasPrefix(lower, []byte("<html")) {
		return ": an HTML page"
	}
	return ""
}

// clip shortens a stranger's text for a record's rejection: at most 80
// characters, valid UTF-8, one line. Callers quote it (strconv.Quote),
// which escapes control and format characters.
func clip(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= 80 {
		return s
	}
	r := []rune(s)
	return string(r[:80]) + "…"
}
