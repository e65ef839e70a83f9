//go:build !unix

package search

import (
	"io"
	"os"
)

// mapFile reads f into the heap where the system has no mmap.
func mapFile(f *os.File) (data []byte, unmap func(), err error) {
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, nil, err
	}
	data, err = io.ReadAll(f)
	return data, func() {}, err
}
