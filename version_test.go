package main

import (
	"runtime/debug"
	"testing"
)

// --version names what the build recorded: the module version of a
// `go install ...@version`, the VCS revision of a build from a checkout,
// and says so when there is neither.
func TestVersionLine(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		info debug.BuildInfo
		want string
	}{
		{debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.4.0"}},
			"chatlens v1.4.0, go1.26.8"},
		{debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "050a70a1c3d2e4f5a6b7c8d9e0f1a2b3c4d5e6f7"},
			{Key: "vcs.time", Value: "2026-11-30T16:00:00Z"},
			{Key: "vcs.modified", Value: "true"}}},
			"chatlens built from source, revision 050a70a1c3d2 (modified) of 2026-11-30T16:00:00Z, go1.26.8"},
		{debug.BuildInfo{GoVersion: "go1.26.8"}, "chatlens built from source, revision unknown, go1.26.8"},
	} {
		if got := versionOf(&c.info); got != c.want {
			t.Errorf("versionOf(%+v) = %q, want %q", c.info.Main, got, c.want)
		}
	}
}
