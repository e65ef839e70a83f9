// Package demo makes neutral sample clips and movies: varied enough to
// show search (English, Thai, Japanese, and among the movies French,
// Vietnamese, traditional Chinese and a full-width code), cover
// derivation (YouTube, Dailymotion, another host) and every movie
// field, and deterministic
// for a given seed so that demos and benchmarks repeat. A Generator
// makes one record at a time, so a million records never sit in memory.
package demo

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"time"

	"catalog/internal/catalog"
)

// Generator makes sample records. It is not safe for concurrent use.
type Generator struct {
	rng       *rand.Rand
	platforms []string
	from      time.Time // created_at of the first clip
	every     time.Duration
	clips     int // clips made so far
	movies    int // movies made so far
}

// NewGenerator returns a generator seeded with seed. Clips get platforms
// from platforms; clip number i (from 0) is created at from + i*every
// plus less than every of jitter, so n clips end before from + n*every
// and creation order follows id order. Movie numbering starts at
// firstMovie, which keeps id_code and slug unique when seeding a
// catalog that already holds generated movies.
func NewGenerator(seed uint64, platforms *catalog.Platforms, from time.Time, every time.Duration, firstMovie int) *Generator {
	return &Generator{
		rng:       rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)),
		platforms: platforms.List(),
		from:      from.UTC(),
		every:     max(every, time.Second),
		movies:    firstMovie,
	}
}

// Clip scenes: one neutral subject in three languages.
var scenes = [][3]string{
	{"Sunset over the bay", "ทะเลยามเย็น", "夕暮れの海"},
	{"Morning market", "ตลาดเช้า", "朝市の風景"},
	{"Rain on the window", "ฝนตกที่หน้าต่าง", "窓に降る雨"},
	{"Mountain trail", "เส้นทางเดินป่าบนภูเขา", "山道を歩く"},
	{"City lights at night", "แสงไฟในเมืองยามค่ำ", "夜の街の灯り"},
	{"Cooking noodle soup", "ทำก๋วยเตี๋ยวน้ำใส", "ラーメンを作る"},
	{"Street music", "ดนตรีริมถนน", "路上ライブ"},
	{"Temple garden", "สวนในวัด", "お寺の庭"},
	{"Ferry crossing", "เรือข้ามฟาก", "フェリーで渡る"},
	{"Quiet library", "ห้องสมุดเงียบสงบ", "静かな図書館"},
	{"Lantern festival", "เทศกาลโคมไฟ", "提灯祭り"},
	{"Cat on the sofa", "แมวบนโซฟา", "ソファの上の猫"},
	{"Train through the rice fields", "รถไฟผ่านทุ่งนา", "田んぼを走る電車"},
	{"Snow in the park", "หิมะในสวนสาธารณะ", "公園の雪"},
	{"Fishing boats at dawn", "เรือประมงยามรุ่งสาง", "夜明けの漁船"},
	{"Coffee art", "ลาเต้อาร์ต", "ラテアート"},
}

// parts are the numbered-episode suffixes, per language.
var parts = [3]string{"part %d", "ตอนที่ %d", "その%d"}

var (
	adjectives = []string{"", "", "Golden", "Calm", "Slow", "Early", "Windy", "Bright"}
	clipActors = []string{"", "", "Aiko Tanaka", "Somchai Sukjai", "Maria Lopez", "Kenji Sato", "Nok Wongsa", "Emma Clark", "สมหญิง ใจดี", "山田 花子"}
	studios    = []string{"", "Blue Harbor Films", "สตูดิโอฟ้าใส", "みなと映像", "Northwind Media", "Paper Lantern Studio"}
	notes      = []string{"", "", "Filmed on a phone.", "Sample clip for the demo catalog.", "บันทึกระหว่างการเดินทาง", "旅行中に撮影しました。"}
)

const idChars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"

func (g *Generator) pick(list []string) string { return list[g.rng.IntN(len(list))] }

func (g *Generator) chars(n int, alphabet string) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[g.rng.IntN(len(alphabet))]
	}
	return string(b)
}

// iframe returns a player URL: mostly YouTube and Dailymotion in their
// several forms, some on a host without a derived cover.
func (g *Generator) iframe() string {
	switch g.rng.IntN(10) {
	case 0, 1, 2:
		return "https://www.youtube.com/embed/" + g.chars(11, idChars)
	case 3:
		return "https://youtu.be/" + g.chars(11, idChars)
	case 4:
		return "https://www.youtube-nocookie.com/embed/" + g.chars(11, idChars)
	case 5, 6:
		return "https://www.dailymotion.com/embed/video/x" + g.chars(6, idChars[26:62])
	case 7:
		return "https://geo.dailymotion.com/player.html?video=x" + g.chars(6, idChars[26:62])
	case 8:
		return "https://player.vimeo.com/video/" + strconv.Itoa(100000000+g.rng.IntN(900000000))
	}
	return "https://media.example.org/embed/" + g.chars(8, idChars[26:62])
}

// Clip returns the next sample clip, valid for POST /api/clips, with its
// cover derived and CreatedAt set; ID is left for the store.
func (g *Generator) Clip() catalog.Clip {
	created := g.from.Add(time.Duration(g.clips)*g.every + time.Duration(g.rng.Int64N(int64(g.every)))).Truncate(time.Second)
	g.clips++
	lang := g.rng.IntN(3)
	title := scenes[g.rng.IntN(len(scenes))][lang]
	if lang == 0 {
		if adj := g.pick(adjectives); adj != "" {
			title = adj + " " + lowerFirst(title)
		}
	}
	title += " " + fmt.Sprintf(parts[lang], 1+g.rng.IntN(40))
	platform := ""
	if g.rng.IntN(5) > 0 {
		platform = g.pick(g.platforms)
	}
	iframe := g.iframe()
	c := catalog.Clip{
		Title:     title,
		IframeURL: iframe,
		CoverURL:  catalog.DeriveCover(iframe),
		Actor:     g.pick(clipActors),
		Studio:    g.pick(studios),
		Platform:  platform,
		Notes:     g.pick(notes),
		CreatedAt: created,
	}
	return c
}

func lowerFirst(s string) string {
	if s == "" || s[0] < 'A' || s[0] > 'Z' {
		return s
	}
	return string(s[0]+'a'-'A') + s[1:]
}

// Movie titles and list values.
var (
	movieNames = []string{
		"The Quiet Harbor", "Letters from Chiang Mai", "Summer in Kyoto", "The Last Ferry",
		"Paper Boats", "A House by the River", "Night Market", "The Lighthouse Keeper",
		"ฤดูฝนที่บ้านสวน", "แสงสุดท้ายของวัน", "รถไฟสายเก่า", "บ้านริมคลอง",
		"風の通り道", "月曜日の約束", "遠い夏の日", "小さな本屋",
		"Café au lait", "Été à Nice",
		// What search folds (contract 11): Vietnamese marks (hoi an),
		// traditional characters (海边, and the pinyin haibian or hbd),
		// and a code in full width (sample-001).
		"Mùa hè ở Hội An", "海邊的小鎮", "ＳＡＭＰＬＥ－００１ 港の朝",
	}
	categories = []string{"Drama", "Comedy", "Documentary", "Travel", "Romance", "Mystery", "Animation", "Family"}
	genres     = []string{"Slice of life", "Road movie", "Coming of age", "Period piece", "Musical", "Thriller"}
	countries  = []string{"Japan", "Thailand", "France", "United States", "Korea", "Spain"}
	directors  = []string{"Hana Mori", "Prasert Chaiyo", "Claire Martin", "David Young", "Yui Ishikawa", "อรุณ แสงทอง"}
	actors     = []string{"Aiko Tanaka", "Somchai Sukjai", "Maria Lopez", "Kenji Sato", "Nok Wongsa", "Emma Clark", "Lucas Bernard", "Mina Park", "สมหญิง ใจดี", "山田 花子"}
	codePrefix = []string{"ABC", "DEF", "GHI", "JKL", "MNO", "PQR", "STU", "VWX"}
)

// DemoCodePrefix begins every generated id_code: real catalogs' codes
// are studio letters and a number (ABC-123), never this word.
const DemoCodePrefix = "DEMO-"

// pickN returns 1..max distinct values from list.
func (g *Generator) pickN(list []string, maxItems int) []string {
	n := 1 + g.rng.IntN(maxItems)
	out := make([]string, 0, n)
	for _, i := range g.rng.Perm(len(list))[:n] {
		out = append(out, list[i])
	}
	return out
}

// Movie returns the next sample movie, already normalised, with a
// unique id_code and slug; ID is left for the store.
func (g *Generator) Movie() catalog.Movie {
	n := g.movies
	g.movies++
	// id_code "DEMO-ABC-123": the prefix and number run through n, so
	// codes never repeat (8 prefixes x 1000 numbers, then a longer
	// number). DemoCodePrefix keeps them apart from real codes such as
	// DEF-045, which a seed would otherwise overwrite.
	code := DemoCodePrefix + codePrefix[n%len(codePrefix)] + "-" + fmt.Sprintf("%03d", n/len(codePrefix))
	name := movieNames[n%len(movieNames)]
	if n >= len(movieNames) {
		name += " " + strconv.Itoa(n/len(movieNames)+1)
	}
	year := 1995 + g.rng.IntN(32)
	release := time.Date(year, time.Month(1+g.rng.IntN(12)), 1+g.rng.IntN(28), 0, 0, 0, 0, time.UTC)
	slug := catalog.Slugify(name + " " + code)
	m := catalog.Movie{
		Name:       name,
		Slug:       slug,
		Year:       strconv.Itoa(year),
		Poster1URL: "https://example.com/posters/" + code + "-landscape.jpg",
		Poster2URL: "https://example.com/posters/" + code + "-portrait.jpg",
		Synopsis: fmt.Sprintf("A %s story filmed in %s. Sample record %d of the demo catalog.",
			lowerFirst(g.pick(genres)), g.pick(countries), n+1),
		IDCode:   code,
		Release:  release.Format(time.DateOnly),
		Episodes: movieEpisodes(n, code),
	}
	m.Lists = [catalog.NumLists]catalog.List{
		catalog.NewList(g.pickN(categories, 3)),
		catalog.NewList(g.pickN(actors, 3)),
		catalog.NewList(g.pickN(directors, 1)),
		catalog.NewList(g.pickN(studios[1:], 1)),
		catalog.NewList(g.pickN(genres, 2)),
		catalog.NewList(g.pickN(countries, 2)),
	}
	if g.rng.IntN(10) == 0 { // some movies lack optional data
		m.Poster2URL, m.Lists[2], m.Release = "", catalog.NewList(nil), ""
	}
	// A score from 4.0 to 9.9 on six movies in seven, from the number so
	// that the random sequence of the other fields stays as it was; no
	// Douban id, which would name a real film.
	if n%7 != 6 {
		m.Score = strconv.Itoa(4+n*37%6) + "." + strconv.Itoa(n*13%10)
	}
	return m
}

// Shares of the demo's play sources, by movie number: a tenth of the
// titles are series of SeriesEpisodes episodes (a third of those on two
// servers), the others one episode; most carry both link kinds, some
// only an embed page or only an HLS stream.
const (
	SeriesEvery    = 10
	SeriesEpisodes = 24
)

// movieEpisodes are the play sources of movie number n. They depend on
// n alone, not on the random source, so the other fields of a seed's
// movies stay as they were.
func movieEpisodes(n int, code string) []catalog.Server {
	embed := func(ep string) string { return "https://player.example.com/embed/" + code + ep }
	hls := func(ep string) string { return "https://cdn.example.com/hls/" + code + ep + "/index.m3u8" }
	if n%SeriesEvery != 3 {
		e := catalog.Episode{Name: catalog.ShorthandEpisodeName, Slug: "full", LinkEmbed: embed(""), LinkM3U8: hls("")}
		switch n % SeriesEvery {
		case 5:
			e.LinkM3U8 = ""
		case 7:
			e.LinkEmbed = ""
		}
		return []catalog.Server{{Name: catalog.ShorthandServerName, Episodes: []catalog.Episode{e}}}
	}
	word := "Ep "
	if n%(2*SeriesEvery) == 13 {
		word = "ตอนที่ "
	}
	main := catalog.Server{Name: catalog.ShorthandServerName, Episodes: make([]catalog.Episode, SeriesEpisodes)}
	for i := range main.Episodes {
		ep := "/" + strconv.Itoa(i+1)
		name := word + strconv.Itoa(i+1)
		main.Episodes[i] = catalog.Episode{Name: name, Slug: catalog.Slugify(name), LinkEmbed: embed(ep), LinkM3U8: hls(ep)}
	}
	if n%(3*SeriesEvery) != 3 {
		return []catalog.Server{main}
	}
	backup := catalog.Server{Name: "Backup", Episodes: make([]catalog.Episode, SeriesEpisodes)}
	for i, e := range main.Episodes {
		backup.Episodes[i] = catalog.Episode{Name: e.Name, Slug: e.Slug,
			LinkM3U8: "https://backup.example.com/hls/" + code + "/" + strconv.Itoa(i+1) + ".m3u8"}
	}
	return []catalog.Server{main, backup}
}
