package search

import (
	"hash/fnv"
	"maps"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"
)

// FuzzIndexModel is the model-based test of the index: a fuzzed
// sequence of operations runs against the index and against a plain
// model (a map of the records; refFind is the model's answer by brute
// force), and after every step every list order, total, facet filter
// and search term must answer as the model does.
//
// The operations are those the service performs: changes (add, change,
// delete, re-add), hit batches (counts alone, ApplyHits, added as the
// store adds them, on days whose periods roll over), a save (freeze, write the frozen view to a file
// while changes go on, then either thaw or adopt the mapped file with
// the changes replayed), and a restart from the file. The index starts
// empty or built, with a change-order block size drawn from the input
// (the copy-on-write parts split and merge at every size).
//
// Byte 0 chooses the start and the block size; every later byte is one
// operation. The records themselves come from a generator seeded by the
// whole input, so the fuzzer's mutations change both.
func FuzzIndexModel(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0, 0})
	f.Add([]byte{1, 2, 0, 3, 0, 4})
	f.Add([]byte{0x80, 0x22, 0x10, 0x31, 0x05, 0x44, 0x13})
	f.Add([]byte{0x81, 0x3a, 0x7a, 0x05, 0x7a, 0x06, 0x7a, 0x0a, 0x7a})
	f.Fuzz(func(t *testing.T, ops []byte) {
		if len(ops) == 0 || len(ops) > 64 {
			return
		}
		old := blockMax
		defer func() { blockMax = old }()
		blockMax = 2 + int(ops[0]&0x3f) // 2..65 keys a block

		h := fnv.New64a()
		h.Write(ops)
		r := rand.New(rand.NewPCG(h.Sum64(), 1))
		groups := []string{"", "x", "ทวิต"}
		dir := t.TempDir()

		docs := map[int64]Doc{}
		ix := New()
		if ops[0]&0x80 != 0 { // start from a built index
			frozenChanges(r, docs, groups, 1+r.IntN(200))
			ix = build(slices.Collect(maps.Values(docs)))
		}
		check := func(what string) {
			t.Helper()
			if ix.Len() != len(docs) {
				t.Fatalf("%s: %d records in the index, %d in the model", what, ix.Len(), len(docs))
			}
			checkFind(t, what, r, ix, docs, groups, 8)
			checkHitOrders(t, what, r, ix, docs, groups)
		}
		check("start")
		for step, op := range ops[1:] {
			n := 1 + int(op>>3) // up to 32 changes a batch
			switch op & 7 {
			case 0, 1: // changes: adds, edits, deletes and re-adds
				ix.Apply(frozenChanges(r, docs, groups, n*(1+int(op&1)*8)))
			case 2: // hit batches between changes
				ix.ApplyHits(modelHits(r, docs, n*4))
				ix.Apply(frozenChanges(r, docs, groups, n))
				ix.ApplyHits(modelHits(r, docs, n))
			case 3: // many adds at once: several blocks and pages fill
				var changed []Doc
				for range n * 16 {
					id := frozenID(r)
					d := frozenDoc(r, id, groups)
					d.Changed += int64(100 + step)
					docs[id] = d
					changed = slices.DeleteFunc(changed, func(c Doc) bool { return c.ID == id })
					changed = append(changed, d)
				}
				ix.Apply(changed, nil)
			case 4, 5: // a save: freeze, write the view while changes go on
				view := ix.freeze()
				var journal []change
				for range 1 + int(op>>4) {
					changed, gone := frozenChanges(r, docs, groups, n)
					c := change{docs: changed, gone: gone, hits: modelHits(r, docs, n)}
					c.apply(ix)
					journal = append(journal, c)
				}
				path := filepath.Join(dir, "saved.idx")
				if err := view.WriteFile(path, FileHeader{Kind: 1, Version: int64(step)}); err != nil {
					t.Fatal(err)
				}
				if op&7 == 4 { // the save fails or the index moved on: thaw
					ix.thaw()
					break
				}
				mapped, _, err := OpenFile(path) // adopt: the file's index with the journal replayed
				if err != nil {
					t.Fatal(err)
				}
				for _, c := range journal {
					c.apply(mapped)
				}
				ix = mapped
			case 6: // a restart from the file written at the stop
				path := filepath.Join(dir, "stopped.idx")
				if err := ix.WriteFile(path, FileHeader{Kind: 1, Version: int64(step)}); err != nil {
					t.Fatal(err)
				}
				var err error
				if ix, _, err = OpenFile(path); err != nil {
					t.Fatal(err)
				}
			case 7: // everything deleted, then some of it back
				gone := slices.Collect(maps.Keys(docs))
				clear(docs)
				ix.Apply(nil, gone)
				check("emptied")
				ix.Apply(frozenChanges(r, docs, groups, n))
			}
			check("after operation " + string(rune('0'+op&7)))
		}
	})
}
