package catalog

import (
	"strconv"
	"strings"
)

// Scores and Douban ids (contract 12): a movie's score is a string from
// "0.0" to "10.0" with one decimal, or "" when it has none; its Douban id
// is the digits of its Douban page (movie.douban.com/subject/N/), or ""
// when it has none.

// MaxDoubanIDDigits bounds a Douban id: MacCMS carries it as a JSON
// number (vod_douban_id), and 15 digits are read exactly by every JSON
// reader, JavaScript's float64 included (2^53 has 16).
const MaxDoubanIDDigits = 15

// The problems of a score and a Douban id, as field errors say them.
const (
	scoreProblem    = "must be a number from 0.0 to 10.0 with one decimal (such as 7.5), or empty"
	doubanIDProblem = "must be the digits of a Douban id (at most 15), or empty"
)

// The forms of both, as patterns (the OpenAPI documents state them).
const (
	ScorePattern    = `^(([0-9]\.[0-9])|10\.0)?$`
	DoubanIDPattern = `^([1-9][0-9]{0,14})?$`
)

// NormalizeScore returns the stored form of a score given as text ("8",
// "8.5", "08.50", " 10 "): one decimal, no leading zero but the one
// before the point. A value that is not a decimal number from 0 to 10
// with at most one significant decimal gives the problem instead.
func NormalizeScore(s string) (string, string) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", ""
	}
	whole, frac, _ := strings.Cut(s, ".")
	frac = strings.TrimRight(frac, "0")
	whole = strings.TrimLeft(whole, "0")
	if !allDigits(whole) || !allDigits(frac) || len(frac) > 1 || (whole == "" && frac == "" && !strings.ContainsRune(s, '0')) {
		return s, scoreProblem
	}
	if frac == "" {
		frac = "0"
	}
	if whole == "" {
		whole = "0"
	}
	if len(whole) > 2 || (len(whole) == 2 && (whole != "10" || frac != "0")) {
		return s, scoreProblem
	}
	return whole + "." + frac, ""
}

// NormalizeDoubanID returns the stored form of a Douban id given as text:
// its digits without leading zeros, "" for none (empty, or 0 as MacCMS
// writes it). What is not digits, or longer than MaxDoubanIDDigits,
// gives the problem instead.
func NormalizeDoubanID(s string) (string, string) {
	s = strings.TrimSpace(s)
	if !allDigits(s) {
		return s, doubanIDProblem
	}
	s = strings.TrimLeft(s, "0")
	if len(s) > MaxDoubanIDDigits {
		return s, doubanIDProblem
	}
	return s, ""
}

// DoubanNumber is a stored Douban id as a number, 0 for none (MacCMS's
// vod_douban_id).
func DoubanNumber(doubanID string) int64 {
	n, _ := strconv.ParseInt(doubanID, 10, 64)
	return n
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
