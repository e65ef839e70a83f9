package importer

// Observer hears of every import a server runs (the import API and the
// console's upload), for metrics: kind is "movies" or "clips". A nil
// Observer hears nothing.
type Observer func(kind string, read, written, rejected int)

// Observe reports one import's summary, a partial one included (an
// import cut off by an error or the size limit still wrote what it
// counted).
func (o Observer) Observe(kind string, s Summary) {
	if o != nil {
		o(kind, s.Read, s.Imported, s.Rejected)
	}
}
