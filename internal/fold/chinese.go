package fold

import (
	"fmt"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/longbridgeapp/opencc"
	"github.com/mozillazg/go-pinyin"
	"golang.org/x/text/unicode/norm"
)

// The tables below come from the ecosystem's data, read once on first
// use: OpenCC's character table (TSCharacters, through
// github.com/longbridgeapp/opencc, which embeds it) and the pinyin of
// github.com/mozillazg/go-pinyin. Most Chinese characters in use lie in
// the block [firstHan, lastDense]; a slice indexed by rune serves it,
// a map the rest.
const (
	firstHan  = 0x3400 // CJK Unified Ideographs Extension A
	lastDense = 0x9FFF // end of CJK Unified Ideographs
)

type t2sTable struct {
	dense []rune // rune - firstHan -> simplified, 0 when the same
	other map[rune]rune
}

var t2s = sync.OnceValue(func() *t2sTable {
	m, err := openCCCharacters()
	if err != nil {
		panic(err) // the data is embedded in the binary: a broken build
	}
	t := &t2sTable{dense: make([]rune, lastDense-firstHan+1), other: map[rune]rune{}}
	for k, v := range m {
		// OpenCC's table has chains (薴 -> 苧 -> 苎): follow them, so that
		// folding twice gives what folding once gave.
		for i := 0; i < 8; i++ {
			w, ok := m[v]
			if !ok || w == v {
				break
			}
			v = w
		}
		if k == v {
			continue
		}
		if k <= lastDense && k >= firstHan {
			t.dense[k-firstHan] = v
		} else {
			t.other[k] = v
		}
	}
	return t
})

// openCCCharacters reads OpenCC's table of traditional characters with
// one simplified form each (the first, where it lists several).
func openCCCharacters() (map[rune]rune, error) {
	cc, err := opencc.New("t2s")
	if err != nil {
		return nil, fmt.Errorf("fold: opencc: %w", err)
	}
	for _, g := range cc.DictChains {
		for i, d := range g.Dicts {
			if g.Files[i] != "TSCharacters.ocd2" {
				continue
			}
			m := make(map[rune]rune, len(d.Values))
			for _, id := range d.Trie.PrefixPredict(nil, 0) {
				key, err := d.Trie.Key(id)
				if err != nil {
					return nil, fmt.Errorf("fold: opencc key: %w", err)
				}
				v, err := d.Trie.Value(id)
				if err != nil {
					return nil, fmt.Errorf("fold: opencc value: %w", err)
				}
				k, n := utf8.DecodeRune(key)
				if n != len(key) || len(d.Values[v]) == 0 {
					continue // not one character
				}
				s, n := utf8.DecodeRuneInString(d.Values[v][0])
				if n != len(d.Values[v][0]) {
					continue
				}
				m[k] = s
			}
			if len(m) == 0 {
				return nil, fmt.Errorf("fold: opencc's TSCharacters is empty")
			}
			return m, nil
		}
	}
	return nil, fmt.Errorf("fold: opencc's t2s has no TSCharacters")
}

// simplified is the simplified form of the Chinese character r, or r.
func simplified(r rune) rune {
	t := t2s()
	if r <= lastDense {
		if s := t.dense[r-firstHan]; s != 0 {
			return s
		}
		return r
	}
	if s, ok := t.other[r]; ok {
		return s
	}
	return r
}

// reading is the toneless pinyin of one character: an offset and a
// length into pinyinTable.text (lengths are at most 6 bytes).
type reading struct {
	off uint32
	n   uint8
}

type pinyinTable struct {
	text  string
	dense []reading // rune - firstHan
	other map[rune]reading
}

var pinyins = sync.OnceValue(func() *pinyinTable {
	t := &pinyinTable{dense: make([]reading, lastDense-firstHan+1), other: map[rune]reading{}}
	var text strings.Builder
	seen := map[string]reading{}
	for k, all := range pinyin.PinyinDict {
		r := rune(k)
		first, _, _ := strings.Cut(all, ",")
		p := toneless(first)
		if p == "" {
			continue
		}
		rd, ok := seen[p]
		if !ok {
			rd = reading{off: uint32(text.Len()), n: uint8(len(p))}
			text.WriteString(p)
			seen[p] = rd
		}
		if r >= firstHan && r <= lastDense {
			t.dense[r-firstHan] = rd
		} else {
			t.other[r] = rd
		}
	}
	t.text = text.String()
	return t
})

// toneless spells a pinyin reading with tone marks (lǜ) the way it is
// typed: without tones, ü as v (lv), as go-pinyin's Normal style does.
func toneless(p string) string {
	var b []byte
	for _, r := range norm.NFD.String(p) {
		switch {
		case r == '\u0308' && len(b) > 0 && b[len(b)-1] == 'u': // ü
			b[len(b)-1] = 'v'
		case unicode.Is(unicode.Mn, r):
		case 'a' <= r && r <= 'z':
			b = append(b, byte(r))
		default:
			return "" // not a plain reading
		}
	}
	return string(b)
}

// lookup returns the toneless pinyin of r, "" when r has none.
func (t *pinyinTable) lookup(r rune) string {
	var rd reading
	if r >= firstHan && r <= lastDense {
		rd = t.dense[r-firstHan]
	} else if r >= 0x3000 {
		rd = t.other[r]
	}
	return t.text[rd.off : rd.off+uint32(rd.n)]
}

// Pinyin returns the toneless pinyin of the Chinese characters of a
// folded title (the common reading of each) as one string without
// spaces, and their initials: "xingqisan" and "xqs" for 星期三. The rest
// of the title is left out. Both are "" when the title has no Chinese
// character, and when it has kana: a Japanese title's kanji are not
// read in pinyin (東京 is Tōkyō, not dongjing), so its pinyin would
// only make false matches.
func Pinyin(folded string) (full, initials string) {
	var t *pinyinTable
	var f, in []byte
	for _, r := range folded {
		if r < 0x3000 {
			continue
		}
		if 0x3041 <= r && r <= 0x30FF && r != 0x30FB { // kana, but for the middle dot
			return "", ""
		}
		if t == nil {
			t = pinyins()
		}
		p := t.lookup(r)
		if p == "" {
			continue
		}
		f = append(f, p...)
		in = append(in, p[0])
	}
	return string(f), string(in)
}

// LatinWord reports whether a folded term is Latin letters only (a-z),
// the kind of query the pinyin fallback serves.
func LatinWord(term string) bool {
	if term == "" {
		return false
	}
	for i := 0; i < len(term); i++ {
		if c := term[i]; c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

// A search text keeps a title's pinyin beside its folded form (section
// 11, step 6). So that a plain search never matches the pinyin, and a
// search of the full pinyin never matches the initials, each is spelled
// in an alphabet that String never outputs: the full pinyin in capital
// Latin letters (A for a), the initials in capital Cyrillic letters
// (U+0410 for a). A Latin query is spelled the same way for the
// fallback's two steps.

// FullKey spells the lower-case Latin letters of s as capitals.
func FullKey(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'a' <= c && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}

// InitialsKey spells the lower-case Latin letters of s as capital
// Cyrillic letters, U+0410 for a to U+0429 for z.
func InitialsKey(s string) string {
	b := make([]byte, 0, 2*len(s))
	for i := 0; i < len(s); i++ {
		if c := s[i]; 'a' <= c && c <= 'z' {
			b = utf8.AppendRune(b, rune(0x410+int(c-'a')))
		} else {
			b = append(b, c)
		}
	}
	return string(b)
}
