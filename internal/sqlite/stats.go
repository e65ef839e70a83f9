package sqlite

import "database/sql"

// PoolStats reports the connection pools (for metrics): readers, the
// keyed reads' connections (which share the readers' slots), the one
// writer, the connections that read the data version, and the
// connections of whole-table streams.
func (s *Store) PoolStats() map[string]sql.DBStats {
	return map[string]sql.DBStats{
		"reader":  s.reader.Stats(),
		"keyed":   s.keyed.stats(s.readConns),
		"writer":  s.writer.Stats(),
		"version": s.versions.stats(0),
		"stream":  s.streams.Stats(),
	}
}
