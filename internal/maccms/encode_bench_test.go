package maccms

import (
	"testing"
	"time"

	"catalog/internal/catalog"
	"catalog/internal/demo"
	"catalog/internal/testenv"
)

// BenchmarkEncodeVods encodes one default page of demo movies in each
// form, the encoders alone (BenchmarkVodXML is the whole request),
// with cpu-ns/op, the process's CPU time per page.
func BenchmarkEncodeVods(b *testing.B) {
	platforms, err := catalog.NewPlatforms(catalog.DefaultPlatforms())
	if err != nil {
		b.Fatal(err)
	}
	g := demo.NewGenerator(1, platforms, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), time.Second, 0)
	vods := make([]catalog.Vod, catalog.DefaultLimit)
	for i := range vods {
		m := g.Movie()
		if err := m.Normalize(); err != nil {
			b.Fatal(err)
		}
		vods[i] = catalog.Vod{Movie: m, TypeID: int64(1 + i%8), TypeName: "Drama"}
	}
	types := []catalog.VodType{{ID: 1, Name: "Drama"}, {ID: 2, Name: "Thai & <Lao>"}}
	for _, bm := range []struct {
		name   string
		full   bool
		encode func([]byte, vodQuery, []catalog.Vod, int64, []catalog.VodType) ([]byte, error)
	}{
		{"detail-xml", true, appendVodsXML},
		{"list-xml", false, appendVodsXML},
		{"detail-json", true, func(b []byte, vq vodQuery, vods []catalog.Vod, total int64, types []catalog.VodType) ([]byte, error) {
			return appendVodsJSON(b, vq, vods, total, types, nil)
		}},
	} {
		b.Run(bm.name, func(b *testing.B) {
			vq := vodQuery{full: bm.full, filter: catalog.VodFilter{Paging: catalog.Paging{Page: 1, Limit: catalog.DefaultLimit}}}
			b.ReportAllocs()
			cpu := testenv.CPUTime()
			for b.Loop() {
				if _, err := bm.encode(make([]byte, 0, 256+len(vods)*vodSizeHint(bm.full)), vq, vods, 1000, types); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(testenv.CPUTime()-cpu)/float64(b.N), "cpu-ns/op")
		})
	}
}
