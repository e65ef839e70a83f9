package sqlite

import (
	"database/sql"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"
	"unsafe"

	"modernc.org/libc"
	sqlite3 "modernc.org/sqlite/lib"
)

// keyedConns are the connections of the keyed reads (byID), the read
// every page and every detail ends in. They call SQLite's C API (the
// driver's transpiled modernc.org/sqlite/lib) directly instead of going
// through database/sql and the driver, which for each row box every
// column into a driver.Value, take the connection's mutex for each of
// SQLite's column calls (the driver opens every connection
// SQLITE_OPEN_FULLMUTEX) and copy each string once more.
//
// What must stay true:
//   - a connection is used by one goroutine at a time: it is taken from
//     idle and given back by the caller that took it, and its libc.TLS
//     and statements go with it (they are not safe for concurrent use,
//     which is also why it can be opened SQLITE_OPEN_NOMUTEX);
//   - a keyed read takes a reader slot first (takeReader), so at most as
//     many connections are open as there are slots;
//   - the strings handed to Scan are Go copies: SQLite's buffers change
//     at the next step.
type keyedConns struct {
	path  string
	limit int // statements kept prepared on one connection

	mu     sync.Mutex
	idle   []*keyedConn // last in, first out: the warmest page cache first
	open   int          // connections open, idle or in use
	closed bool
}

type keyedConn struct {
	tls   *libc.TLS
	db    uintptr
	stmts map[string]uintptr // kept prepared, up to limit
}

// maxStatements bounds the statements kept prepared on one keyed
// connection. A keyed read has one text per column set and id-list size
// (inIDs), and the column sets are as many as the clients' fields
// lists: past the bound, a new text is prepared on every call instead.
const maxStatements = 256

// errStoreClosed answers a keyed read after Close.
var errStoreClosed = errors.New("sqlite: the store is closed")

// keyedPragmas are pragmas' settings that matter to a reader.
//
// mmap_size maps the database file (up to SQLite's compile-time
// maximum, 2 GiB less 64 KiB, which this value is), so that a page not
// in the connection's page cache is read from the mapping instead of a
// pread into a fresh buffer. In WAL mode every commit by any connection
// empties every reader's page cache, so under a write stream nearly
// every page of a keyed read is such a page. Pages in the WAL are still
// read by pread. A fault in the mapping (an I/O error, the file cut
// short by another program) is a signal, not an error code: read turns
// it into an error.
const keyedPragmas = `PRAGMA busy_timeout = 10000; PRAGMA query_only = 1; PRAGMA temp_store = MEMORY; PRAGMA mmap_size = 2147418112`

func newKeyedConns(path string) *keyedConns {
	return &keyedConns{path: path, limit: maxStatements}
}

// read runs query with args and calls row for each row, on an idle
// connection or a new one.
func (k *keyedConns) read(query string, args []int64, row func(*keyedRows) error) error {
	c, err := k.faultless(func() (*keyedConn, error) {
		c, err := k.take()
		if err != nil {
			return nil, err
		}
		return c, c.read(query, args, k.limit, row)
	})
	if c != nil {
		k.give(c)
	}
	return err
}

// faultless runs f, which opens or takes a connection and reads with
// it, turning a memory fault in the mapped file into an
// SQLITE_IOERR_READ error, answered as the unreadable file it is,
// instead of a crash of the whole service. The connection f was opening
// or reading is then given up without being closed, because SQLite
// stopped half-way through it and nothing it holds can be trusted, its
// mutexes included.
func (k *keyedConns) faultless(f func() (*keyedConn, error)) (c *keyedConn, err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if fault := readFault(recover()); fault != nil {
			k.lose()
			c, err = nil, fault
		}
	}()
	return f()
}

// readFault is the error of a recovered memory fault, nil when v is
// nil; any other panic goes on.
func readFault(v any) error {
	if v == nil {
		return nil
	}
	if e, ok := v.(interface{ Addr() uintptr }); ok {
		return &keyedError{code: sqlite3.SQLITE_IOERR_READ, msg: fmt.Sprintf("memory-mapped read of the database file faulted at %#x", e.Addr())}
	}
	panic(v)
}

func (k *keyedConns) take() (*keyedConn, error) {
	k.mu.Lock()
	if k.closed {
		k.mu.Unlock()
		return nil, errStoreClosed
	}
	if n := len(k.idle); n > 0 {
		c := k.idle[n-1]
		k.idle = k.idle[:n-1]
		k.mu.Unlock()
		return c, nil
	}
	k.open++
	k.mu.Unlock()
	c, err := openKeyedConn(k.path)
	if err != nil {
		k.mu.Lock()
		k.open--
		k.mu.Unlock()
	}
	return c, err
}

// give returns c to the idle connections, or closes it after Close.
func (k *keyedConns) give(c *keyedConn) {
	k.mu.Lock()
	if k.closed {
		k.open--
		k.mu.Unlock()
		c.close()
		return
	}
	k.idle = append(k.idle, c)
	k.mu.Unlock()
}

// lose forgets a connection taken and never given back.
func (k *keyedConns) lose() {
	k.mu.Lock()
	k.open--
	k.mu.Unlock()
}

// stats reports the connections for metrics, bounded by max (0: no
// bound).
func (k *keyedConns) stats(max int) sql.DBStats {
	k.mu.Lock()
	defer k.mu.Unlock()
	return sql.DBStats{MaxOpenConnections: max, OpenConnections: k.open, InUse: k.open - len(k.idle), Idle: len(k.idle)}
}

// close closes the idle connections; one in use closes when given back.
func (k *keyedConns) close() {
	k.mu.Lock()
	idle := k.idle
	k.idle, k.closed = nil, true
	k.open -= len(idle)
	k.mu.Unlock()
	for _, c := range idle {
		c.close()
	}
}

func openKeyedConn(path string) (*keyedConn, error) {
	c := &keyedConn{tls: libc.NewTLS(), stmts: map[string]uintptr{}}
	name, err := libc.CString(path)
	if err != nil {
		c.tls.Close()
		return nil, err
	}
	defer libc.Xfree(c.tls, name)
	pdb := c.tls.Alloc(int(unsafe.Sizeof(uintptr(0))))
	defer c.tls.Free(int(unsafe.Sizeof(uintptr(0))))
	rc := sqlite3.Xsqlite3_open_v2(c.tls, name, pdb, sqlite3.SQLITE_OPEN_READWRITE|sqlite3.SQLITE_OPEN_NOMUTEX, 0)
	c.db = cPointer(pdb)
	if rc != sqlite3.SQLITE_OK {
		err := c.error(rc)
		c.close()
		return nil, err
	}
	sqlite3.Xsqlite3_extended_result_codes(c.tls, c.db, 1)
	if err := c.exec(keyedPragmas); err != nil {
		c.close()
		return nil, err
	}
	return c, nil
}

// cPointer reads the pointer SQLite wrote at p (memory of the TLS).
func cPointer(p uintptr) uintptr {
	return *(*uintptr)(unsafe.Pointer(&libc.GoBytes(p, int(unsafe.Sizeof(uintptr(0))))[0]))
}

func (c *keyedConn) exec(query string) error {
	q, err := libc.CString(query)
	if err != nil {
		return err
	}
	defer libc.Xfree(c.tls, q)
	if rc := sqlite3.Xsqlite3_exec(c.tls, c.db, q, 0, 0, 0); rc != sqlite3.SQLITE_OK {
		return c.error(rc)
	}
	return nil
}

// statement returns the prepared statement of query and whether it is
// kept; one not kept must be finalized after use.
func (c *keyedConn) statement(query string, limit int) (st uintptr, kept bool, err error) {
	if st, ok := c.stmts[query]; ok {
		return st, true, nil
	}
	q, err := libc.CString(query)
	if err != nil {
		return 0, false, err
	}
	defer libc.Xfree(c.tls, q)
	pst := c.tls.Alloc(int(unsafe.Sizeof(uintptr(0))))
	defer c.tls.Free(int(unsafe.Sizeof(uintptr(0))))
	keep := len(c.stmts) < limit
	var flags uint32
	if keep {
		flags = sqlite3.SQLITE_PREPARE_PERSISTENT
	}
	if rc := sqlite3.Xsqlite3_prepare_v3(c.tls, c.db, q, -1, flags, pst, 0); rc != sqlite3.SQLITE_OK {
		return 0, false, c.error(rc)
	}
	st = cPointer(pst)
	if keep {
		c.stmts[query] = st
	}
	return st, keep, nil
}

func (c *keyedConn) read(query string, args []int64, limit int, row func(*keyedRows) error) error {
	st, kept, err := c.statement(query, limit)
	if err != nil {
		return err
	}
	if n := int(sqlite3.Xsqlite3_bind_parameter_count(c.tls, st)); n != len(args) {
		err = fmt.Errorf("sqlite: %d arguments for %d parameters", len(args), n)
	}
	for i := 0; err == nil && i < len(args); i++ {
		if rc := sqlite3.Xsqlite3_bind_int64(c.tls, st, int32(i+1), args[i]); rc != sqlite3.SQLITE_OK {
			err = c.error(rc)
		}
	}
	r := keyedRows{c: c, st: st, n: int(sqlite3.Xsqlite3_column_count(c.tls, st))}
	for err == nil && r.next() {
		err = row(&r)
	}
	if err == nil {
		err = r.err
	}
	// reset ends the statement's read transaction, whatever its result.
	sqlite3.Xsqlite3_reset(c.tls, st)
	if !kept {
		sqlite3.Xsqlite3_finalize(c.tls, st)
	}
	return err
}

func (c *keyedConn) close() {
	for _, st := range c.stmts {
		sqlite3.Xsqlite3_finalize(c.tls, st)
	}
	c.stmts = nil
	if c.db != 0 {
		sqlite3.Xsqlite3_close_v2(c.tls, c.db)
	}
	c.tls.Close()
}

// error is the connection's last error, whose result code rc was.
func (c *keyedConn) error(rc int32) error {
	e := &keyedError{code: int(rc)}
	if c.db != 0 {
		e.code = int(sqlite3.Xsqlite3_extended_errcode(c.tls, c.db))
		e.msg = libc.GoString(sqlite3.Xsqlite3_errmsg(c.tls, c.db))
	} else {
		e.msg = libc.GoString(sqlite3.Xsqlite3_errstr(c.tls, rc))
	}
	return e
}

// keyedError is a result code of SQLite and its message; translate
// reads its Code as it reads the driver's errors'.
type keyedError struct {
	code int
	msg  string
}

func (e *keyedError) Error() string { return fmt.Sprintf("%s (%d)", e.msg, e.code) }

// Code is SQLite's extended result code.
func (e *keyedError) Code() int { return e.code }

// keyedRows is the row a keyed read's row function scans (a scanner).
type keyedRows struct {
	c   *keyedConn
	st  uintptr
	n   int // columns
	err error
}

func (r *keyedRows) next() bool {
	switch rc := sqlite3.Xsqlite3_step(r.c.tls, r.st); rc {
	case sqlite3.SQLITE_ROW:
		return true
	case sqlite3.SQLITE_DONE:
		return false
	default:
		r.err = r.c.error(rc)
		return false
	}
}

// Scan copies the row's columns into dest, as database/sql's Scan does
// for the kinds of destination the stores' field tables use: *string,
// *int64, *int and sql.Scanner. A NULL fits only a sql.Scanner. The
// strings of one row share one copy, one allocation.
func (r *keyedRows) Scan(dest ...any) error {
	if len(dest) != r.n {
		return fmt.Errorf("sqlite: %d destinations for %d columns", len(dest), r.n)
	}
	tls, st := r.c.tls, r.st
	size := 0
	for i, d := range dest {
		if _, ok := d.(*string); ok {
			// column_text first: column_bytes then counts the text's bytes.
			sqlite3.Xsqlite3_column_text(tls, st, int32(i))
			size += int(sqlite3.Xsqlite3_column_bytes(tls, st, int32(i)))
		}
	}
	buf := make([]byte, 0, size)
	for i, d := range dest {
		col := int32(i)
		typ := sqlite3.Xsqlite3_column_type(tls, st, col)
		if typ == sqlite3.SQLITE_NULL {
			if s, ok := d.(sql.Scanner); ok {
				if err := s.Scan(nil); err != nil {
					return fmt.Errorf("sqlite: column %d: %w", i, err)
				}
				continue
			}
			return fmt.Errorf("sqlite: column %d is NULL, scanned into %T", i, d)
		}
		switch d := d.(type) {
		case *string:
			start := len(buf)
			buf = append(buf, r.bytes(col)...)
			*d = unsafe.String(unsafe.SliceData(buf[start:]), len(buf)-start)
		case *int64:
			if typ != sqlite3.SQLITE_INTEGER {
				return fmt.Errorf("sqlite: column %d is not an integer, scanned into %T", i, d)
			}
			*d = sqlite3.Xsqlite3_column_int64(tls, st, col)
		case *int:
			if typ != sqlite3.SQLITE_INTEGER {
				return fmt.Errorf("sqlite: column %d is not an integer, scanned into %T", i, d)
			}
			*d = int(sqlite3.Xsqlite3_column_int64(tls, st, col))
		case sql.Scanner:
			var v any
			switch typ {
			case sqlite3.SQLITE_INTEGER:
				v = sqlite3.Xsqlite3_column_int64(tls, st, col)
			case sqlite3.SQLITE_FLOAT:
				v = sqlite3.Xsqlite3_column_double(tls, st, col)
			default:
				v = string(r.bytes(col))
			}
			if err := d.Scan(v); err != nil {
				return fmt.Errorf("sqlite: column %d: %w", i, err)
			}
		default:
			return fmt.Errorf("sqlite: cannot scan column %d into %T", i, d)
		}
	}
	return nil
}

// bytes is column col's text, SQLite's own bytes: valid until the next
// step, so never kept.
func (r *keyedRows) bytes(col int32) []byte {
	p := sqlite3.Xsqlite3_column_text(r.c.tls, r.st, col)
	n := sqlite3.Xsqlite3_column_bytes(r.c.tls, r.st, col)
	if p == 0 || n <= 0 {
		return nil
	}
	return libc.GoBytes(p, int(n))
}
