package sqlite

import "database/sql"

// PoolStats reports the three connection pools (for metrics): readers,
// the one writer, and the connection that reads the data version.
func (s *Store) PoolStats() map[string]sql.DBStats {
	return map[string]sql.DBStats{
		"reader":  s.reader.Stats(),
		"writer":  s.writer.Stats(),
		"version": s.versionDB.Stats(),
	}
}
