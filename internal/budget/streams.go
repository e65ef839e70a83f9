package budget

// Whole-table streams (the search index builds, the snapshot, exports,
// and the id walks behind the id orders of deep pages) hold a connection
// for as long as they read: seconds at a million rows, minutes at ten
// million. On the request pool a few of them would take every
// connection at start-up and leave requests waiting. So each engine
// gives them their own connections, RowStreams + IDWalks (+ 1 on
// PostgreSQL for the snapshot lock), and bounds each kind with its own
// budget.
const (
	// RowStreams bounds the streams of whole rows running at once: one
	// search index build (they take turns) and the snapshot; a third
	// (an export, a second build) waits for one of them. On two cores
	// more would only share the same CPU.
	RowStreams = 2
	// IDWalks bounds the id walks running at once. They get budget of
	// their own so that a deep page's id order, a few seconds of walking
	// a narrow index, never waits behind a minutes-long row stream.
	IDWalks = 2
)

// Streams are the two budgets of one engine's stream connections.
type Streams struct {
	Rows *Budget // row streams (RowStreams slots)
	IDs  *Budget // id walks (IDWalks slots)
}

// NewStreams returns fresh stream budgets.
func NewStreams() Streams { return Streams{Rows: New(RowStreams), IDs: New(IDWalks)} }

// Conns is the number of connections the streams can hold at once.
func (s Streams) Conns() int { return s.Rows.Cap() + s.IDs.Cap() }
