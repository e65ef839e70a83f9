package locale

import (
	"fmt"
	"html/template"
	"strconv"
	"time"

	"github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
	"golang.org/x/text/number"
)

// Localizer writes messages, numbers and dates in one language.
type Localizer struct {
	cat     *Catalog
	tag     string
	name    string
	lt      language.Tag
	loc     *i18n.Localizer
	printer *message.Printer
}

// Tag is the language's BCP 47 tag, for <html lang>.
func (l *Localizer) Tag() string { return l.tag }

// T returns message id with args, given as name/value pairs
// ("Count", 3, "Name", "x"). A "Count" picks the plural form and, like
// every integer, is written with the language's digit grouping. A
// message the catalog lacks in this language falls back to English; one
// it lacks altogether is its id (a test keeps both from happening).
func (l *Localizer) T(id string, args ...any) string {
	cfg := &i18n.LocalizeConfig{MessageID: id}
	if len(args) > 0 {
		data := make(map[string]any, len(args)/2)
		for i := 0; i+1 < len(args); i += 2 {
			k := fmt.Sprint(args[i])
			v := args[i+1]
			if k == "Count" {
				cfg.PluralCount = v
			}
			switch n := v.(type) {
			case int:
				v = l.N(int64(n))
			case int64:
				v = l.N(n)
			}
			data[k] = v
		}
		cfg.TemplateData = data
	}
	s, err := l.loc.Localize(cfg)
	if s == "" && err != nil {
		return id
	}
	return s
}

// N writes a whole number with the language's grouping: 1,234.
func (l *Localizer) N(n int64) string { return l.printer.Sprint(number.Decimal(n)) }

// Date writes a day: "27 November 2026", "27 พฤศจิกายน 2569",
// "2026年11月27日". Times are shown in UTC, as they are stored.
func (l *Localizer) Date(t time.Time) string {
	t = t.UTC()
	return l.T("format.date", "Day", strconv.Itoa(t.Day()), "Month", l.T("month."+strconv.Itoa(int(t.Month()))),
		"MonthNumber", strconv.Itoa(int(t.Month())), "Year", strconv.Itoa(t.Year()),
		"BuddhistYear", strconv.Itoa(t.Year()+543))
}

// DateTime writes a day and a time of day in UTC.
func (l *Localizer) DateTime(t time.Time) string {
	t = t.UTC()
	return l.T("format.datetime", "Date", l.Date(t), "Time", t.Format("15:04"))
}

// Bytes writes a size for people: 1,536 bytes is "1.5 KiB".
func (l *Localizer) Bytes(n int64) string {
	const unit = 1024
	if n < unit {
		return l.T("format.bytes", "Count", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	v := l.printer.Sprint(number.Decimal(float64(n)/float64(div), number.MaxFractionDigits(1), number.MinFractionDigits(1)))
	return v + " " + string("KMGTPE"[exp]) + "iB"
}

// Duration writes an interval in hours, minutes and seconds: "1 hour
// 30 minutes", "1 ชั่วโมง 30 นาที".
func (l *Localizer) Duration(d time.Duration) string {
	d = d.Round(time.Second)
	h, m, s := int64(d/time.Hour), int64(d%time.Hour/time.Minute), int64(d%time.Minute/time.Second)
	out := ""
	add := func(id string, n int64) {
		if n == 0 {
			return
		}
		part := l.T(id, "Count", n)
		if out == "" {
			out = part
		} else {
			out = l.T("format.duration_join", "A", out, "B", part)
		}
	}
	add("format.hours", h)
	add("format.minutes", m)
	add("format.seconds", s)
	if out == "" {
		return l.T("format.seconds", "Count", 0)
	}
	return out
}

// Funcs are the template functions of a page in this language:
// t (a message), n (a number), date, datetime, bytes, duration, problem
// (a domain message, translated) and lang (the tag).
func (l *Localizer) Funcs() template.FuncMap {
	return template.FuncMap{
		"t":        l.T,
		"n":        l.N,
		"date":     l.Date,
		"datetime": l.DateTime,
		"bytes":    l.Bytes,
		"duration": l.Duration,
		"problem":  l.Problem,
		"lang":     l.Tag,
	}
}
