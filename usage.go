package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/alecthomas/kong"
)

// Bad usage: kong's parse errors as one line naming the command, and the
// nearest command or flag to a mistyped one.

// usageError is bad input from the command line: exit code 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, a ...any) error { return usageError{fmt.Sprintf(format, a...)} }

// parseError makes kong's error a usage error naming the command it is
// about, and suggests the nearest command for a word that is none.
func parseError(parser *kong.Kong, err error) error {
	msg := err.Error()
	var pe *kong.ParseError
	if !errors.As(err, &pe) || pe.Context == nil {
		return usageError{msg}
	}
	if word, ok := strings.CutPrefix(msg, "unexpected argument "); ok && commandName(pe.Context) == "" {
		// A word where a command goes: kong handed it to the UI, which takes none.
		return usageError{unknownCommand(parser, word)}
	}
	if flag, ok := unknownFlag(msg); ok {
		msg = "unknown flag " + flag
		if near := nearest(flag, flagNames(parser, pe.Context)); near != "" {
			msg += fmt.Sprintf(", did you mean %q?", near)
		} else if near, owners := elsewhere(parser, flag); near != "" {
			msg += fmt.Sprintf(" (%s is a flag of %s)", near, strings.Join(owners, ", "))
		}
	}
	if name := commandName(pe.Context); name != "" && !strings.HasPrefix(msg, name+": ") {
		msg = name + ": " + msg // kong names the command in errors of its Validate only
	}
	return usageError{msg}
}

// unknownCommand says word is no command, with the nearest if one is near.
func unknownCommand(parser *kong.Kong, word string) string {
	msg := fmt.Sprintf("unknown command %q", word)
	if near := nearest(word, commandNames(parser)); near != "" {
		msg += fmt.Sprintf(", did you mean %q?", near)
	}
	return msg + " (chatlens help lists the commands)"
}

// unknownFlag is the flag kong's error says it does not know. Its own
// suggestions are every name within two edits; the nearest one serves better.
func unknownFlag(msg string) (string, bool) {
	rest, ok := strings.CutPrefix(msg, "unknown flag ")
	flag, _, _ := strings.Cut(rest, ",")
	return flag, ok && flag != ""
}

// flagNames are the flags the command kctx selected takes, with the
// global ones.
func flagNames(parser *kong.Kong, kctx *kong.Context) []string {
	node := parser.Model.Node
	if n := kctx.Selected(); n != nil {
		node = n
	}
	var names []string
	for _, group := range node.AllFlags(true) {
		for _, f := range group {
			names = append(names, "--"+f.Name)
		}
	}
	return names
}

// elsewhere is the flag nearest to flag among those of other commands,
// and the commands that take it: `dump --sq` is likely meant for revoke.
func elsewhere(parser *kong.Kong, flag string) (string, []string) {
	owners := map[string][]string{}
	var all []string
	for _, n := range parser.Model.Children {
		if n.Hidden {
			continue // (__complete: the scripts', not the user's)
		}
		for _, f := range n.Flags {
			name := "--" + f.Name
			if len(owners[name]) == 0 {
				all = append(all, name)
			}
			owners[name] = append(owners[name], n.Name)
		}
	}
	near := nearest(flag, all)
	return near, owners[near]
}

func commandNames(parser *kong.Kong) []string {
	var names []string
	for _, n := range parser.Model.Children {
		if !n.Hidden {
			names = append(names, n.Name)
		}
	}
	return names
}

// nearest is the name closest to word by edit distance, if any is within
// a third of the word's length (at least 1, at most 3 edits), or has it as
// a prefix.
func nearest(word string, names []string) string {
	best, bestDist := "", min(3, max(1, len(word)/3))+1
	for _, n := range names {
		d := editDistance(word, n)
		if strings.HasPrefix(n, word) && word != "" {
			d = min(d, 1)
		}
		if d < bestDist {
			best, bestDist = n, d
		}
	}
	return best
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

// singleDashFlag refuses -name for a long flag --name with a pointer to
// the two-dash form: Go's flag package took both, kong reads -name as the
// short flags -n -a -m -e.
func singleDashFlag(parser *kong.Kong, args []string) error {
	for _, a := range args {
		if a == "--" {
			return nil
		}
		name, _, _ := strings.Cut(strings.TrimPrefix(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || strings.HasPrefix(a, "--") || len(name) < 2 {
			continue
		}
		for _, n := range append([]*kong.Node{parser.Model.Node}, parser.Model.Children...) {
			for _, f := range n.Flags {
				if f.Name == name {
					return usagef("unknown flag %s, did you mean %q?", a, "--"+name)
				}
			}
		}
	}
	return nil
}
