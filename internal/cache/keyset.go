package cache

import (
	"context"
	"strconv"
	"strings"

	"catalog/internal/catalog"
)

// SeekPage serves the page at offset from o when o is built at version
// (the data version read for this request): seek is called with the
// page's first id and the rows to skip from it. ok is false when the
// caller must fall back to its plain OFFSET query (a shallow page, or an
// order still being built). A page at WaitMinOffset or deeper waits for
// the first build of o (see Order.WaitFirst) rather than fall back.
func SeekPage[T any](ctx context.Context, o *Order, version, offset int64, seek func(from, skip int64) ([]T, error)) (page []T, total int64, ok bool, err error) {
	if offset < catalog.DeepOffset {
		return nil, 0, false, nil
	}
	from, skip, total, ok := o.Locate(version, offset)
	if !ok && offset >= WaitMinOffset && o.WaitFirst(ctx) {
		from, skip, total, ok = o.Locate(version, offset)
	}
	if !ok {
		return nil, 0, false, nil
	}
	if from == 0 { // past the end
		return []T{}, total, true, nil
	}
	page, err = seek(from, skip)
	return page, total, true, err
}

// AppendTerms writes search terms into a cache key, length-prefixed: a
// term may contain any byte, and ["a b"] must not meet ["a", "b"].
func AppendTerms(b *strings.Builder, terms []string) {
	for _, t := range terms {
		b.WriteString("\x00t")
		b.WriteString(strconv.Itoa(len(t)))
		b.WriteByte(':')
		b.WriteString(t)
	}
}
