package durable_test

import (
	"path/filepath"
	"testing"

	"catalog/internal/durable"
)

func TestSyncDir(t *testing.T) {
	for _, tc := range []struct {
		name    string
		dir     string
		wantErr bool
	}{
		{"a folder", t.TempDir(), false},
		{"a missing folder", filepath.Join(t.TempDir(), "missing"), true},
	} {
		if err := durable.SyncDir(tc.dir); (err != nil) != tc.wantErr {
			t.Errorf("%s: got %v, want an error: %v", tc.name, err, tc.wantErr)
		}
	}
}
