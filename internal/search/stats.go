package search

import "github.com/RoaringBitmap/roaring/v2"

// Stats is what an operator watches of one index (contract 7): its size
// and how far it trails the database.
type Stats struct {
	Ready     bool
	Documents int   // titles indexed
	Bytes     int64 // posting lists and stored titles, roughly what the index holds in memory
	Version   int64 // every change up to it is in the index
	// Behind counts the changes the database had, when the index last
	// looked, that the index had not applied yet.
	Behind int64
	// Builds counts the builds from the whole database since the start;
	// FromFile is set when the index started from its file instead.
	Builds   int64
	FromFile bool
	// Failures counts the panics recovered in the index's upkeep (a
	// build, a catch-up, a search, a save, loading its file), each of
	// which discarded the index and rebuilt it from the database.
	Failures int64
	// LeftOut counts the records in no list or search because their id
	// is above 2^32-1 (rows stored before catalog.MaxID was enforced).
	LeftOut int
}

// Stats reports the index's size and lag; it takes the index's read
// lock for the walk over the posting lists, so call it at a scrape's
// pace, not per request.
func (l *Live) Stats() Stats {
	l.file.mu.Lock()
	fromFile := l.file.loaded
	l.file.mu.Unlock()
	st := l.st.Load()
	if st == nil {
		return Stats{Builds: l.builds.Load(), FromFile: fromFile, Failures: l.failures.Load()}
	}
	out := Stats{Ready: true, Version: st.version.Load(), Builds: l.builds.Load(), FromFile: fromFile, Failures: l.failures.Load()}
	out.Documents, out.Bytes = st.ix.size()
	out.LeftOut, _ = st.ix.LeftOut()
	out.Behind = max(0, l.seen.Load()-out.Version)
	return out
}

// size counts the documents and the bytes held.
func (ix *Index) size() (docs int, bytes int64) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	bytes = int64(ix.arena.len()) + int64(ix.all.GetSizeInBytes()) + ix.vocab.bytes() + ix.grams.bytes() + ix.facets.bytes() + ix.values.bytes()
	ix.groups.each(func(_ string, b *roaring.Bitmap) { bytes += int64(b.GetSizeInBytes()) })
	return int(ix.all.GetCardinality()), bytes
}
