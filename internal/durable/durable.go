// Package durable makes a file replaced by a rename survive a power cut:
// the one directory sync that the snapshot, the search index files and
// export share.
package durable

import (
	"errors"
	"os"
)

// SyncDir makes the renames and links done in dir durable. A file
// system that cannot sync a directory is not an error: the rename
// itself is still atomic there.
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) {
		return err
	}
	return nil
}
