package postgres

import "github.com/jackc/pgx/v5/pgxpool"

// PoolStat reports the connection pool's state (for metrics).
func (s *Store) PoolStat() *pgxpool.Stat { return s.pool.Stat() }
