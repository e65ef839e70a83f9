//go:build unix

package search

import (
	"os"
	"syscall"
)

// mapFile maps f read-only; unmap releases it. A write through the
// mapping would fault, which is what the index's copy-before-change
// rules rely on never happening.
func mapFile(f *os.File) (data []byte, unmap func(), err error) {
	st, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	data, err = syscall.Mmap(int(f.Fd()), 0, int(st.Size()), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil, err
	}
	return data, func() { syscall.Munmap(data) }, nil
}
