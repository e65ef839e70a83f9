package sqlite

import "database/sql"

// PoolStats reports the four connection pools (for metrics): readers,
// the one writer, the connection that reads the data version, and the
// connections of whole-table streams.
func (s *Store) PoolStats() map[string]sql.DBStats {
	return map[string]sql.DBStats{
		"reader":  s.reader.Stats(),
		"writer":  s.writer.Stats(),
		"version": s.versionDB.Stats(),
		"stream":  s.streams.Stats(),
	}
}
