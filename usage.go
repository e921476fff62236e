package main

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/alecthomas/kong"

	"github.com/chatlens/chatlens/keymap"
	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store/bucket"
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
		if near := keymap.Nearest(flag, flagNames(parser, pe.Context)); near != "" {
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

// flagBeforeCommand rewrites kong's refusal of a command's flag typed
// before the command word (`chatlens --as bob conversations`), which kong
// takes as the UI's, into the line to type: the flag moved after the
// command, when the command takes it.
func flagBeforeCommand(parser *kong.Kong, args []string, msg string) (string, bool) {
	var flag, cmd string
	if _, err := fmt.Sscanf(msg, "flag --%s applies to the default command \"ui\", not %q", &flag, &cmd); err != nil {
		return "", false
	}
	var node *kong.Node
	for _, n := range parser.Model.Children {
		if n.Name == cmd {
			node = n
		}
	}
	takes := false
	if node != nil {
		for _, group := range node.AllFlags(true) {
			for _, f := range group {
				takes = takes || f.Name == flag
			}
		}
	}
	if !takes {
		return fmt.Sprintf("flag --%s is the UI's; %s does not take it", flag, cmd), true
	}
	var moved, rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--"+flag && i+1 < len(args):
			moved = append(moved, a, args[i+1])
			i++
		case strings.HasPrefix(a, "--"+flag+"="):
			moved = append(moved, a)
		default:
			rest = append(rest, a)
		}
	}
	if i := slices.Index(rest, cmd); i >= 0 {
		rest = slices.Concat(rest[:i+1], moved, rest[i+1:])
	}
	line := make([]string, len(rest))
	for i, a := range rest {
		line[i] = shellWord(a)
	}
	return fmt.Sprintf("flag --%s goes after the command: chatlens %s", flag, strings.Join(line, " ")), true
}

// shellWord is a as a word to type again: as it is when plain, else
// single-quoted with its escapes made visible.
func shellWord(a string) string {
	if a != "" && strings.IndexFunc(a, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_=./:@,+", r))
	}) < 0 {
		return a
	}
	return "'" + strings.ReplaceAll(projection.SingleLine(a), "'", `'\''`) + "'"
}

// unknownCommand says word is no command, with the nearest if one is near.
func unknownCommand(parser *kong.Kong, word string) string {
	msg := fmt.Sprintf("unknown command %q", word)
	if near := keymap.Nearest(word, commandNames(parser)); near != "" {
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
// global ones. With no command word the UI's flags are valid too: kong
// picks the UI only after the flags parse.
func flagNames(parser *kong.Kong, kctx *kong.Context) []string {
	node := parser.Model.Node
	if n := kctx.Selected(); n != nil {
		node = n
	} else if ui := uiNode(parser); ui != nil {
		node = ui
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
	near := keymap.Nearest(flag, all)
	return near, owners[near]
}

// uiNode is the UI's command, what runs with no command word.
func uiNode(parser *kong.Kong) *kong.Node {
	for _, n := range parser.Model.Children {
		if n.Name == "ui" {
			return n
		}
	}
	return nil
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

// notEmpty are the flags that name something: given as "" (a script's
// unset variable) they would act on nothing, or on everything.
var notEmpty = []string{"conversation", "as", "by", "collection", "client-msg-id", "server-msg-id"}

// emptyFlag refuses a flag of notEmpty given as "": `revoke --conversation ""`
// is bad usage, not a revoke in no conversation.
func emptyFlag(kctx *kong.Context) error {
	for _, f := range kctx.Flags() {
		if !f.Set || !slices.Contains(notEmpty, f.Name) {
			continue
		}
		if v, ok := kctx.FlagValue(f).(string); ok && strings.TrimSpace(v) == "" {
			return usagef("%s--%s is empty: it names nothing", commandPrefix(kctx), f.Name)
		}
	}
	return nil
}

// flagSet tells whether the flag name was given (or set from the
// environment), not left at its default.
func flagSet(kctx *kong.Context, name string) bool {
	for _, f := range kctx.Flags() {
		if f.Name == name {
			return f.Set
		}
	}
	return false
}

// commandPrefix is "dump: " for a dump, "" for the UI.
func commandPrefix(kctx *kong.Context) string {
	if name := commandName(kctx); name != "" {
		return name + ": "
	}
	return ""
}

// knownCollection refuses a collection that is none of OpenIM's, naming the
// nearest, unless the operator says it is meant (--any-collection): an
// export of "msgs" is an empty file, an import into "users" documents
// nothing reads.
func knownCollection(name string, anyName bool) error {
	if anyName || slices.Contains(bucket.OpenIMCollections, name) {
		return nil
	}
	msg := fmt.Sprintf("--collection %q is none of OpenIM's collections", projection.SingleLine(name))
	if near := keymap.Nearest(name, bucket.OpenIMCollections); near != "" {
		msg += fmt.Sprintf(", did you mean %q?", near)
	}
	return errors.New(msg + " (--any-collection if it is meant)")
}
