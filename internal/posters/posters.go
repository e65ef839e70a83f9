// Package posters is the poster mirror of serve --mirror-posters
// (contract 13): it fetches each poster URL once through the fetch
// guard (a "//host/..." URL as https:), at most 10 MiB, decodes it to
// prove it is an image (JPEG, PNG, GIF or WebP), resizes it to a fixed
// width (300 px for a portrait image, 800 px for a landscape one, never
// larger than it is) and stores it as JPEG in the database, so that every
// instance sharing the database serves it. A fetch that fails is retried
// with backoff, at most MaxTries times; until a copy exists, the movie
// serves its original URL.
//
// Resizing uses golang.org/x/image/draw (CatmullRom): maintained by the
// Go team beside the standard library, pure Go (no cgo, nothing to
// install), BSD licensed, and its Catmull-Rom kernel gives sharp
// downscaled posters; golang.org/x/image/webp decodes WebP.
package posters

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	_ "image/gif" // decoders image.Decode knows
	"image/jpeg"
	_ "image/png"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"golang.org/x/image/draw"
	_ "golang.org/x/image/webp"

	"catalog/internal/catalog"
	"catalog/internal/fetchguard"
)

// Limits of a poster (contract 13).
const (
	MaxBytes = 10 << 20
	// MaxDecoded bounds a decoded image in memory (4096 x 4096 pixels
	// at 4 bytes, fewer at 8): a small file that announces a huge
	// picture is refused from its header, before its pixels are
	// decoded.
	MaxDecoded = 64 << 20
	// MaxAspect bounds how many times longer one side may be than the
	// other: the scaler's buffer grows with the source's height times
	// the stored width, which a 300 x 50,000 strip would blow up.
	MaxAspect = 4
	// PortraitWidth and LandscapeWidth are the stored widths.
	PortraitWidth  = 300
	LandscapeWidth = 800
	// MaxTries is how many fetches of one URL fail before the mirror
	// gives up on it (the original URL stays served).
	MaxTries = 5
	// Quality is the stored JPEG's quality.
	Quality = 82
	// fetchTimeout bounds one fetch, body included.
	fetchTimeout = 30 * time.Second
	lease        = 10 * time.Minute
	batch        = 16
	workers      = 2
	pollEvery    = time.Minute
)

// Options configure a Mirror.
type Options struct {
	// PublicURL is the movie service's public base URL (--public-url),
	// without a trailing slash.
	PublicURL string
	Guard     fetchguard.Options
	Logger    *slog.Logger
	// Changed hears of the movies whose served posters changed.
	Changed func(ids []int64)
}

// Mirror copies posters until its Run returns.
type Mirror struct {
	st     catalog.PosterStore
	opts   Options
	client *http.Client
	log    *slog.Logger
	now    func() time.Time
}

// New returns a mirror over st.
func New(st catalog.PosterStore, opts Options) *Mirror {
	opts.PublicURL = strings.TrimRight(opts.PublicURL, "/")
	g := opts.Guard
	g.MaxBody = MaxBytes
	if g.Timeout == 0 {
		g.Timeout = fetchTimeout
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	return &Mirror{st: st, opts: opts, client: fetchguard.NewClient(g), log: opts.Logger, now: time.Now}
}

// Run mirrors posters until ctx is done: first it points the mirror
// addresses at PublicURL (an address of an older --public-url is
// forgotten and its poster queued again), then it works through the
// queue, oldest first; a restart resumes where it stopped, since the
// queue is in the database.
func (m *Mirror) Run(ctx context.Context) {
	if err := m.st.ResetPosterMirrors(ctx, m.opts.PublicURL); err != nil && ctx.Err() == nil {
		m.log.Warn("poster mirror: reset failed", "err", err)
	}
	for ctx.Err() == nil {
		n, err := m.Round(ctx)
		if err != nil && ctx.Err() == nil {
			m.log.Warn("poster mirror: "+err.Error(), "err", err)
		}
		if n == 0 || err != nil {
			t := time.NewTimer(pollEvery)
			select {
			case <-ctx.Done():
			case <-t.C:
			}
			t.Stop()
		}
	}
}

// Round claims up to a batch of due posters, copies them and stores
// what it found; it returns how many it claimed.
func (m *Mirror) Round(ctx context.Context) (int, error) {
	jobs, err := m.st.ClaimPosterJobs(ctx, m.now(), lease, batch)
	if err != nil || len(jobs) == 0 {
		return 0, err
	}
	// The jobs of one URL (movies sharing a poster) fetch it once.
	byKey := map[string][]catalog.PosterJob{}
	var keys []string
	for _, j := range jobs {
		key := catalog.PosterKey(j.URL)
		if byKey[key] == nil {
			keys = append(keys, key)
		}
		byKey[key] = append(byKey[key], j)
	}
	var (
		mu   sync.Mutex
		done []catalog.PosterDone
		wg   sync.WaitGroup
		sem  = make(chan struct{}, workers)
	)
	for _, key := range keys {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			same := byKey[key]
			err := m.copyOnce(ctx, key, same[0].URL)
			if ctx.Err() != nil {
				return
			}
			for _, j := range same {
				if err != nil {
					m.retry(ctx, j, err)
					continue
				}
				mu.Lock()
				done = append(done, catalog.PosterDone{Job: j, Mirror: m.opts.PublicURL + catalog.PosterPath(j.MovieID, j.Slot, j.URL)})
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if ctx.Err() != nil {
		return len(jobs), ctx.Err()
	}
	if err := m.st.FinishPosterJobs(ctx, done); err != nil {
		return len(jobs), err
	}
	if len(done) > 0 && m.opts.Changed != nil {
		ids := make([]int64, len(done))
		for i, d := range done {
			ids[i] = d.Job.MovieID
		}
		m.opts.Changed(ids)
	}
	return len(jobs), nil
}

// copyOnce stores the copy of url under key unless it is stored already.
func (m *Mirror) copyOnce(ctx context.Context, key, url string) error {
	if ok, err := m.st.HasPosterImage(ctx, key); err != nil || ok {
		return err
	}
	img, err := m.Fetch(ctx, url)
	if err != nil {
		return err
	}
	return m.st.SavePosterImage(ctx, catalog.PosterImage{Key: key, URL: url, JPEG: img})
}

// retry counts a failed fetch: due again after 1, 4, 16 and 64 minutes,
// given up after MaxTries.
func (m *Mirror) retry(ctx context.Context, j catalog.PosterJob, cause error) {
	tries := j.Tries + 1
	var due time.Time
	if tries < MaxTries {
		due = m.now().Add(time.Minute << (2 * (tries - 1)))
	}
	m.log.Info("poster mirror: fetch failed", "movie", j.MovieID, "poster", j.Slot, "tries", tries, "err", fetchguard.Describe(cause))
	if err := m.st.RetryPosterJob(ctx, j, tries, due); err != nil && ctx.Err() == nil {
		m.log.Warn("poster mirror: "+err.Error(), "err", err)
	}
}

// Fetch downloads the poster at raw and returns its stored form.
func (m *Mirror) Fetch(ctx context.Context, raw string) ([]byte, error) {
	if strings.HasPrefix(raw, "//") {
		raw = "https:" + raw
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, raw, nil)
	if err != nil {
		return nil, errors.New("not an http(s) address")
	}
	req.Header.Set("Accept", "image/jpeg, image/png, image/gif, image/webp")
	res, err := m.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return nil, &fetchguard.StatusError{Code: res.StatusCode}
	}
	if ct := strings.ToLower(res.Header.Get("Content-Type")); ct != "" && !strings.HasPrefix(ct, "image/") &&
		!strings.HasPrefix(ct, "application/octet-stream") && !strings.HasPrefix(ct, "binary/octet-stream") {
		return nil, fmt.Errorf("not an image (%s)", strings.TrimSpace(strings.SplitN(ct, ";", 2)[0]))
	}
	body, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, err
	}
	return Resize(body)
}

// Resize decodes an image (JPEG, PNG, GIF or WebP, at most MaxDecoded
// in memory and MaxAspect times as long as wide or the other way) and
// returns it as JPEG, PortraitWidth wide when it is taller than wide,
// else LandscapeWidth, never wider than it was.
//
// What one call holds at most, beside data: the decoded image
// (MaxDecoded), an RGBA copy at twice the stored size when the source
// is larger than that (at most 1600 x 1600 x 4 bytes = 10 MiB), the
// Catmull-Rom scaler's buffer of 32 bytes per stored column per source
// row (at most 800 x 1600 x 32 = 40 MiB, 300 x 2400 x 32 = 23 MiB) and
// the stored image (at most 800 x 800 x 4 = 2.5 MiB): about 117 MiB.
func Resize(data []byte) ([]byte, error) {
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, errors.New("not an image this mirror reads (JPEG, PNG, GIF or WebP)")
	}
	sw, sh := cfg.Width, cfg.Height
	perPixel := bytesPerPixel(cfg.ColorModel)
	if format == "jpeg" && progressive(data) {
		perPixel = 16 // the decoder also keeps 4 bytes a pixel of coefficients per component
	}
	if sw <= 0 || sh <= 0 || sw > MaxDecoded || sh > MaxDecoded || sw*sh > MaxDecoded/perPixel {
		return nil, fmt.Errorf("image of %dx%d pixels is over the limit", sw, sh)
	}
	if max(sw, sh) > MaxAspect*min(sw, sh) {
		return nil, fmt.Errorf("image of %dx%d pixels is not poster-shaped (one side over %d times the other)", sw, sh, MaxAspect)
	}
	src, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, errors.New("the image is damaged")
	}
	b := src.Bounds()
	w := LandscapeWidth
	if b.Dy() > b.Dx() {
		w = PortraitWidth
	}
	w = min(w, b.Dx())
	h := max(1, b.Dy()*w/b.Dx())
	// A source over twice the stored size is first brought to twice
	// that size by the cheap bilinear scaler, which needs no buffer, so
	// that Catmull-Rom's buffer (32 bytes per stored column per source
	// row) stays small whatever the source's size.
	if b.Dx() > 2*w {
		mid := image.NewRGBA(image.Rect(0, 0, 2*w, max(1, 2*h)))
		draw.ApproxBiLinear.Scale(mid, mid.Bounds(), src, b, draw.Src, nil)
		src, b = mid, mid.Bounds()
	}
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(dst, dst.Bounds(), image.NewUniform(color.White), image.Point{}, draw.Src) // transparency on white
	draw.CatmullRom.Scale(dst, dst.Bounds(), src, b, draw.Over, nil)
	var out bytes.Buffer
	if err := jpeg.Encode(&out, dst, &jpeg.Options{Quality: Quality}); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// progressive reports whether a JPEG's first frame header is a
// progressive one (SOF2), whose decoding holds every coefficient.
func progressive(data []byte) bool {
	for i := 2; i+4 <= len(data); {
		if data[i] != 0xff {
			return false
		}
		marker := data[i+1]
		switch {
		case marker == 0xff: // fill byte
			i++
			continue
		case marker == 0xc2 || marker == 0xc6 || marker == 0xca || marker == 0xce:
			return true
		case marker >= 0xc0 && marker <= 0xcf && marker != 0xc4 && marker != 0xc8 && marker != 0xcc, marker == 0xda:
			return false
		}
		i += 2 + (int(data[i+2])<<8 | int(data[i+3]))
	}
	return false
}

// bytesPerPixel is how much memory the decoder of an image of model m
// takes a pixel, at most (a model we do not know: the most, 8).
func bytesPerPixel(m color.Model) int {
	switch m {
	case color.GrayModel, color.AlphaModel:
		return 1
	case color.Gray16Model, color.Alpha16Model:
		return 2
	case color.YCbCrModel, color.NYCbCrAModel, color.RGBAModel, color.NRGBAModel, color.CMYKModel:
		return 4
	}
	if _, ok := m.(color.Palette); ok {
		return 1
	}
	return 8
}
