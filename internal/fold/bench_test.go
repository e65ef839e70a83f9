package fold_test

import (
	"runtime"
	"syscall"
	"testing"
	"time"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"

	"catalog/internal/fold"
)

// benchTitles are titles of the kinds a catalog holds.
var benchTitles = []struct{ name, title string }{
	{"ascii_lower", "sunset over the bay at the old harbour 2024"},
	{"ascii_mixed", "Sunset Over The Bay At The Old Harbour 2024"},
	{"code", "ABC-123 Sunset Over The Bay"},
	{"french", "Le Fabuleux Destin d'Amélie Poulain"},
	{"vietnamese", "Người Phán Xử Tiếng Việt Phần 2"},
	{"chinese", "後宮甄嬛傳 第1集"},
	{"japanese", "カワイイ東京の夜 ＡＢＣ－１２３"},
	{"japanese_plain", "夕暮れの海 その12"},
	{"thai", "คลิปหลุด ข้าวผัด น้ำตก"},
}

func BenchmarkString(b *testing.B) {
	for _, bt := range benchTitles {
		b.Run(bt.name, func(b *testing.B) {
			b.SetBytes(int64(len(bt.title)))
			defer cpuPerOp(b)()
			for b.Loop() {
				_ = fold.String(bt.title)
			}
		})
	}
}

// BenchmarkNFCFold is the fold of version 1 (NFC and case folding), the
// baseline String is measured against.
func BenchmarkNFCFold(b *testing.B) {
	for _, bt := range benchTitles {
		b.Run(bt.name, func(b *testing.B) {
			b.SetBytes(int64(len(bt.title)))
			defer cpuPerOp(b)()
			for b.Loop() {
				_ = cases.Fold().String(norm.NFC.String(bt.title))
			}
		})
	}
}

func BenchmarkPinyin(b *testing.B) {
	title := fold.String("後宮甄嬛傳 第1集")
	defer cpuPerOp(b)()
	for b.Loop() {
		_, _ = fold.Pinyin(title)
	}
}

// cpuPerOp reports the CPU time of the benchmark's thread per operation
// (cpu-ns/op), which a machine shared with other work does not inflate
// the way it inflates ns/op. Call it before the loop and defer what it
// returns.
func cpuPerOp(b *testing.B) func() {
	runtime.LockOSThread()
	start := threadCPU(b)
	return func() {
		b.ReportMetric(float64(threadCPU(b)-start)/float64(b.N), "cpu-ns/op")
		runtime.UnlockOSThread()
	}
}

func threadCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(1 /* RUSAGE_THREAD */, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
