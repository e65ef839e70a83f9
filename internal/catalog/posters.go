package catalog

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
	"time"
)

// Mirrored posters (contract 13): serve --mirror-posters fetches each
// poster URL once, keeps a resized JPEG copy in the database (so that
// every instance serves it) and serves the movie's poster1_url and
// poster2_url (and MacCMS vod_pic, vod_pic_slide) as the copy's address
// once it exists.

// PosterKey names the copy of the poster at url: the first 16 hex digits
// of the SHA-256 of the URL, so that a changed poster gets a new address.
func PosterKey(url string) string {
	sum := sha256.Sum256([]byte(url))
	return hex.EncodeToString(sum[:8])
}

// PosterPath is the path of the copy of a movie's poster (slot 1 or 2)
// at url: /posters/{id}/{slot}/{KEY}.jpg.
func PosterPath(movieID int64, slot int, url string) string {
	return "/posters/" + strconv.FormatInt(movieID, 10) + "/" + strconv.Itoa(slot) + "/" + PosterKey(url) + ".jpg"
}

// ServedPoster is poster slot (1 or 2) as served: the mirror's address
// when a copy of the current URL exists, else the original URL.
func (m *Movie) ServedPoster(slot int) string {
	orig, mirror := m.Poster1URL, m.PosterMirror[0]
	if slot == 2 {
		orig, mirror = m.Poster2URL, m.PosterMirror[1]
	}
	if orig == "" || mirror == "" || !strings.HasSuffix(mirror, "/"+PosterKey(orig)+".jpg") {
		return orig
	}
	return mirror
}

// posterMirrorColumns are the movies' poster1_mirror and poster2_mirror:
// the served address of each poster's copy ("" when there is none), read
// with the posters and written only by the mirror.
var posterMirrorColumns = [2]MovieColumn{
	{Name: "poster1_mirror", Dest: func(m *Movie) any { return &m.PosterMirror[0] }},
	{Name: "poster2_mirror", Dest: func(m *Movie) any { return &m.PosterMirror[1] }},
}

// PosterJob is a poster to mirror: the movie, which poster, its URL and
// how many fetches of it failed.
type PosterJob struct {
	MovieID int64
	Slot    int
	URL     string
	Tries   int
}

// PosterImage is a stored copy.
type PosterImage struct {
	Key  string // PosterKey of URL
	URL  string
	JPEG []byte
}

// PosterDone is a finished job: the copy's served address.
type PosterDone struct {
	Job    PosterJob
	Mirror string // PUBLIC_URL + PosterPath
}

// PosterStore keeps the mirror's queue and copies. The queue holds a job
// for every poster URL without a copy: a new movie's, a changed one's.
type PosterStore interface {
	// ClaimPosterJobs returns up to limit jobs due at now and moves them
	// to now+lease, as ClaimLinkChecks does.
	ClaimPosterJobs(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]PosterJob, error)
	// HasPosterImage reports whether a copy of key is stored.
	HasPosterImage(ctx context.Context, key string) (bool, error)
	// SavePosterImage stores a copy; a copy of the same key stays.
	SavePosterImage(ctx context.Context, img PosterImage) error
	// FinishPosterJobs sets each movie's mirror address (when its poster
	// is still the job's URL) and removes the jobs, in one transaction.
	FinishPosterJobs(ctx context.Context, done []PosterDone) error
	// RetryPosterJob counts a failed fetch: the job is due again at due
	// with tries, or removed when due is zero (given up; the original
	// URL stays served).
	RetryPosterJob(ctx context.Context, job PosterJob, tries int, due time.Time) error
	// PosterImage returns the copy of key; ENOTFOUND when there is none.
	PosterImage(ctx context.Context, key string) ([]byte, error)
	// ResetPosterMirrors forgets the mirror addresses that do not start
	// with base ("" forgets every one) and, when base is not "", queues
	// their posters again (their copies are stored: no fetch).
	ResetPosterMirrors(ctx context.Context, base string) error
}
