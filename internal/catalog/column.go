package catalog

import "strings"

// Column is one stored column of a record of type T besides its id and
// its time (created_at, updated_at), whose SQL types the engines choose.
// The record types' field tables (moviefields.go, clipfields.go) list
// them; the engines build their statements, scans and values from them.
type Column[T any] struct {
	Name string
	Long bool // a long stored value (the synopsis, the lists)
	// Dest is the scan destination of the column in r; nil for a column
	// that is written but never read (a folded search key).
	Dest func(r *T) any
	// Value is the value stored for r.
	Value func(r *T) any
}

// ColumnNames joins the names of cols with ", ", each after prefix (a
// table alias and its dot, or "").
func ColumnNames[T any](cols []Column[T], prefix string) string {
	var b strings.Builder
	for i, c := range cols {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(prefix)
		b.WriteString(c.Name)
	}
	return b.String()
}

// ReadColumns are the columns of cols that a read scans (those with a
// Dest).
func ReadColumns[T any](cols []Column[T]) []Column[T] {
	var read []Column[T]
	for _, c := range cols {
		if c.Dest != nil {
			read = append(read, c)
		}
	}
	return read
}

// AppendDests appends the scan destinations of cols in r to dest.
func AppendDests[T any](dest []any, r *T, cols []Column[T]) []any {
	for _, c := range cols {
		dest = append(dest, c.Dest(r))
	}
	return dest
}

// AppendValues appends the stored values of cols for r to v.
func AppendValues[T any](v []any, r *T, cols []Column[T]) []any {
	for _, c := range cols {
		v = append(v, c.Value(r))
	}
	return v
}
