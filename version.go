package main

import (
	"runtime/debug"
	"strings"
)

// versionLine is what --version prints: the module version (a tag for
// `go install ...@v1.2.3`, "(devel)" for a build from a checkout), the VCS
// revision the build recorded, and the Go release that built it.
func versionLine() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "chatlens (devel), no build information"
	}
	return versionOf(info)
}

// versionOf is versionLine for the build information given.
func versionOf(info *debug.BuildInfo) string {
	version := info.Main.Version
	if version == "" {
		version = "(devel)"
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
	case revision == "" && version == "(devel)":
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
