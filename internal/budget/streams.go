package budget

// Whole-table streams (the search index builds, the snapshot, exports)
// hold a connection for as long as they read: seconds at a million
// rows, minutes at ten million. On the request pool a few of them would
// take every connection at start-up, and the first requests would wait
// for one. So each engine gives them their own connections, RowStreams
// (+ 1 on PostgreSQL for the snapshot lock), within a budget.
const (
	// RowStreams bounds the streams of whole rows running at once: one
	// search index build (they take turns) and the snapshot; a third
	// (an export, a second build) waits for one of them. On two cores
	// more would only share the same CPU.
	RowStreams = 2
)

// Streams is the budget of one engine's stream connections.
type Streams struct {
	Rows *Budget // row streams (RowStreams slots)
}

// NewStreams returns a fresh stream budget.
func NewStreams() Streams { return Streams{Rows: New(RowStreams)} }

// Conns is the number of connections the streams can hold at once.
func (s Streams) Conns() int { return s.Rows.Cap() }
