package cli

import (
	"runtime/debug"
	"testing"
)

func TestVersionOf(t *testing.T) {
	t.Parallel()
	vcs := func(version string, settings ...string) *debug.BuildInfo {
		info := &debug.BuildInfo{Main: debug.Module{Path: "catalog", Version: version}}
		for i := 0; i+1 < len(settings); i += 2 {
			info.Settings = append(info.Settings, debug.BuildSetting{Key: settings[i], Value: settings[i+1]})
		}
		return info
	}
	const rev = "a8ac89b5e1f04c3d2b1a09f8e7d6c5b4a3f2e1d0"
	tests := []struct {
		name string
		info *debug.BuildInfo
		ok   bool
		want string
	}{
		{"no build information", nil, false, "dev"},
		{"a tagged module version", vcs("v1.4.0", "vcs.revision", rev), true, "v1.4.0"},
		{"a pseudo-version of a dirty tree", vcs("v0.0.0-20261126034000-a8ac89b5e1f0+dirty", "vcs.revision", rev, "vcs.modified", "true"),
			true, "v0.0.0-20261126034000-a8ac89b5e1f0+dirty"},
		{"a revision, clean", vcs("(devel)", "vcs.revision", rev, "vcs.modified", "false"), true, "a8ac89b5e1f0"},
		{"a revision, dirty", vcs("(devel)", "vcs.revision", rev, "vcs.modified", "true"), true, "a8ac89b5e1f0-dirty"},
		{"a short revision", vcs("", "vcs.revision", "abc123"), true, "abc123"},
		{"no VCS information", vcs("(devel)", "-trimpath", "true"), true, "dev"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := versionOf(tt.info, tt.ok); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
