package main

import (
	"runtime/debug"
	"strings"
)

// versionLine is what --version prints: the module version (a tag for
// `go install ...@v1.2.3`; a build from a checkout, which Go calls
// "(devel)", is "built from source"), the VCS revision the build recorded,
// and the Go release that built it.
func versionLine() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "chatlens " + fromSource + ", no build information"
	}
	return versionOf(info)
}

// versionOf is versionLine for the build information given.
func versionOf(info *debug.BuildInfo) string {
	version := info.Main.Version
	if version == "" || version == "(devel)" {
		version = fromSource
	}
	var revision, when string
	modified := false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			revision = s.Value
		case "vcs.time":
			when = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	parts := []string{"chatlens " + version}
	switch {
	case revision == "" && version == fromSource:
		parts = append(parts, "revision unknown")
	case revision == "": // a module version names its revision itself
	default:
		rev := "revision " + revision[:min(12, len(revision))]
		if modified {
			rev += " (modified)"
		}
		if when != "" {
			rev += " of " + when
		}
		parts = append(parts, rev)
	}
	parts = append(parts, info.GoVersion)
	return strings.Join(parts, ", ")
}

// fromSource names a build with no module version: go build or go run in
// a checkout, with or without a VCS stamp.
const fromSource = "built from source"
