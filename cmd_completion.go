package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/alecthomas/kong"

	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/themes"
)

type completionCmd struct {
	Shell string `arg:"" enum:"bash,zsh,fish" help:"bash, zsh or fish."`
}

func (completionCmd) Help() string {
	return `Prints a script that completes chatlens's commands, flags and flag values in the shell named.

Examples:

    source <(chatlens completion bash)                      # bash, this shell; in ~/.bashrc for all
    chatlens completion zsh > "${fpath[1]}/_chatlens"       # zsh, then start a new shell
    chatlens completion fish > ~/.config/fish/completions/chatlens.fish`
}

func (c *completionCmd) Run(parser *kong.Kong, s *session) error {
	m := completionModel(parser)
	switch c.Shell {
	case "bash":
		return m.bash(s.stdout)
	case "zsh":
		return m.zsh(s.stdout)
	default:
		return m.fish(s.stdout)
	}
}

// completable is one flag or command as completion sees it.
type completable struct {
	name, help string
	values     []string // the values a flag takes, when they are a known set
	takesValue bool
	files      bool // its value, or the command's argument, is a file
	// dynamic names the values asked of the store (chatlens __complete
	// KIND): "conversations" or "users"; "" for none.
	dynamic string
}

// completions is the command line as the scripts need it: the flags taken
// anywhere, the flags taken with no command (the UI's), and each command.
type completions struct {
	global, root []completable
	commands     []completable
	flags        map[string][]completable // by command
	args         map[string]completable   // a command's positional argument
}

// completionModel reads the kong model, so that a flag or command added
// to the declaration is completed without touching the scripts.
func completionModel(parser *kong.Kong) completions {
	m := completions{flags: map[string][]completable{}, args: map[string]completable{}}
	m.global = flagsOf(parser.Model.Flags)
	for _, n := range parser.Model.Children {
		if n.Hidden {
			continue
		}
		m.commands = append(m.commands, completable{name: n.Name, help: n.Help})
		m.flags[n.Name] = flagsOf(n.Flags)
		if n.Name == "ui" {
			m.root = m.flags[n.Name]
		}
		if len(n.Positional) > 0 {
			m.args[n.Name] = valueCompletion(n.Positional[0])
		}
	}
	return m
}

func flagsOf(flags []*kong.Flag) []completable {
	var out []completable
	for _, f := range flags {
		if f.Hidden {
			continue
		}
		c := valueCompletion(f.Value)
		c.name, c.help, c.takesValue = "--"+f.Name, f.Help, !f.IsBool()
		out = append(out, c)
	}
	return out
}

// valueCompletion says what a value completes to: its enum, a file, or a
// set named in its complete tag.
func valueCompletion(v *kong.Value) completable {
	c := completable{name: v.Name, help: v.Help}
	if v.Enum != "" {
		c.values = strings.Split(v.Enum, ",")
	}
	switch v.Tag.Get("complete") {
	case "file":
		c.files = true
	case "themes":
		c.values = themes.Names()
	case "collections":
		c.values = slices.Clone(bucket.Collections)
	case "commands":
		c.values = []string{} // filled by the script from the command list
	case "conversations", "users", "contexts":
		c.dynamic = v.Tag.Get("complete")
	}
	return c
}

// valueFlags are the flags that take a value, across all commands: the
// scripts skip their values when looking for the command word.
func (m completions) valueFlags() []completable {
	seen := map[string]bool{}
	var out []completable
	add := func(fs []completable) {
		for _, f := range fs {
			if f.takesValue && !seen[f.name] {
				seen[f.name] = true
				out = append(out, f)
			}
		}
	}
	add(m.global)
	for _, c := range m.commands {
		add(m.flags[c.name])
	}
	return out
}

func (m completions) commandNames() []string {
	var out []string
	for _, c := range m.commands {
		out = append(out, c.name)
	}
	return out
}

func names(fs []completable) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.name)
	}
	return out
}

// argValues is what a command's argument completes to.
func (m completions) argValues(cmd string) (values []string, files, ok bool) {
	a, ok := m.args[cmd]
	if !ok {
		return nil, false, false
	}
	if a.values != nil && len(a.values) == 0 {
		return m.commandNames(), false, true
	}
	return a.values, a.files, true
}

// Every candidate, from the code or from the store, reaches bash as data:
// compgen's word-list option expands $(…) and backticks in what it is
// given and runs them, so the script never uses it. _chatlens_offer compares each candidate with
// the word typed and puts it in COMPREPLY quoted for the command line.
func (m completions) bash(w io.Writer) error {
	var b strings.Builder
	b.WriteString(`# bash completion for chatlens, printed by "chatlens completion bash".
# Load it with: source <(chatlens completion bash)
` + bashSplit + bashOffer + bashValues + `_chatlens() {
    local -a cw
    local cc pre
    _chatlens_split
    _chatlens_complete
    if [[ -n $pre ]]; then
        COMPREPLY=("${COMPREPLY[@]/#/$pre}")
    fi
}
_chatlens_complete() {
    local cur prev cmd i w typed
    local -a words found
    COMPREPLY=()
    cur="${cw[cc]}"
    prev="${cw[cc-1]}"
    _chatlens_unquote "$cur"
    typed=$REPLY
    cmd=""
    for ((i = 1; i < cc; i++)); do
        w="${cw[i]}"
        case "$w" in
`)
	fmt.Fprintf(&b, "            %s) ((i++)) ;;\n", strings.Join(names(m.valueFlags()), "|"))
	b.WriteString(`            -*) ;;
            *) cmd="$w"; break ;;
        esac
    done
`)
	b.WriteString(m.bashCommandValues())
	b.WriteString(`    case "$prev" in
`)
	var bare []string
	for _, f := range m.valueFlags() {
		switch {
		case f.dynamic != "":
			fmt.Fprintf(&b, "        %s) while IFS= read -r w; do found+=(\"$w\"); done < <(_chatlens_values %s); _chatlens_offer \"${found[@]}\"; return ;;\n", f.name, f.dynamic)
		case f.files:
			fmt.Fprintf(&b, "        %s) COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n", f.name)
		case len(f.values) > 0:
			fmt.Fprintf(&b, "        %s) _chatlens_offer %s; return ;;\n", f.name, shellWords(f.values))
		default:
			bare = append(bare, f.name)
		}
	}
	if len(bare) > 0 {
		fmt.Fprintf(&b, "        %s) return ;;\n", strings.Join(bare, "|"))
	}
	b.WriteString("    esac\n    case \"$cmd\" in\n")
	global := names(m.global)
	fmt.Fprintf(&b, "        \"\") words=(%s) ;;\n", shellWords(slices.Concat(m.commandNames(), global, names(m.root))))
	for _, c := range m.commands {
		values, files, ok := m.argValues(c.name)
		fmt.Fprintf(&b, "        %s)\n", c.name)
		if ok {
			b.WriteString("            if [[ \"$cur\" != -* ]]; then\n")
			if files {
				b.WriteString("                COMPREPLY=($(compgen -f -- \"$cur\")); return\n")
			} else {
				fmt.Fprintf(&b, "                _chatlens_offer %s; return\n", shellWords(values))
			}
			b.WriteString("            fi\n")
		}
		fmt.Fprintf(&b, "            words=(%s) ;;\n", shellWords(slices.Concat(names(m.flags[c.name]), global)))
	}
	b.WriteString(`    esac
    _chatlens_offer "${words[@]}"
}
complete -o default -F _chatlens chatlens
`)
	_, err := io.WriteString(w, b.String())
	return err
}

// shellWords writes words as single-quoted shell words (bash and zsh read
// them alike), so that none of them is expanded.
func shellWords(words []string) string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = zshQuote(w)
	}
	return strings.Join(out, " ")
}

// bashCommandValues completes the values of a command's own flags that
// take a known set (dump's --format has more than conversations'), before
// the flags of the same name elsewhere.
func (m completions) bashCommandValues() string {
	var b strings.Builder
	for _, c := range m.commands {
		for _, f := range m.flags[c.name] {
			if f.takesValue && len(f.values) > 0 && !f.files {
				fmt.Fprintf(&b, "        %s/%s) _chatlens_offer %s; return ;;\n", c.name, f.name, shellWords(f.values))
			}
		}
	}
	if b.Len() == 0 {
		return ""
	}
	return "    case \"$cmd/$prev\" in\n" + b.String() + "    esac\n"
}

// zshCommandValues is bashCommandValues for zsh.
func (m completions) zshCommandValues() string {
	var b strings.Builder
	for _, c := range m.commands {
		for _, f := range m.flags[c.name] {
			if f.takesValue && len(f.values) > 0 && !f.files {
				fmt.Fprintf(&b, "        (%s/%s) compadd -- %s; return ;;\n", c.name, f.name, shellWords(f.values))
			}
		}
	}
	if b.Len() == 0 {
		return ""
	}
	return "    case $cmd/$prev in\n" + b.String() + "    esac\n"
}

// zshQuote quotes s for a single-quoted zsh word.
func zshQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// describe is a list of name:help entries for zsh's _describe.
func describe(cs []completable) string {
	var out []string
	for _, c := range cs {
		out = append(out, zshQuote(strings.ReplaceAll(c.name, ":", `\:`)+":"+strings.TrimSuffix(c.help, ".")))
	}
	return strings.Join(out, " ")
}

func (m completions) zsh(w io.Writer) error {
	var b strings.Builder
	b.WriteString(`#compdef chatlens
# zsh completion for chatlens, printed by "chatlens completion zsh".
# Install it as _chatlens in a directory of $fpath, or load it with: source <(chatlens completion zsh)
` + zshValues + `_chatlens() {
    emulate -L zsh
    local cmd="" i w
    local -a entries
    for ((i = 2; i < CURRENT; i++)); do
        w=${words[i]}
        case $w in
`)
	fmt.Fprintf(&b, "            (%s) ((i++)) ;;\n", strings.Join(names(m.valueFlags()), "|"))
	b.WriteString(`            (-*) ;;
            (*) cmd=$w; break ;;
        esac
    done
`)
	// --as=alice is one word in zsh: the flag is before its "=", the value
	// is completed after it.
	b.WriteString(`    local prev=${words[CURRENT-1]}
    if [[ ${words[CURRENT]} == --*=* ]]; then
        prev=${words[CURRENT]%%=*}
        compset -P '*='
    fi
`)
	b.WriteString(m.zshCommandValues())
	b.WriteString(`    case $prev in
`)
	var bare []string
	for _, f := range m.valueFlags() {
		switch {
		case f.dynamic != "":
			fmt.Fprintf(&b, "        (%s) compadd -- ${(f)\"$(_chatlens_values %s)\"}; return ;;\n", f.name, f.dynamic)
		case f.files:
			fmt.Fprintf(&b, "        (%s) _files; return ;;\n", f.name)
		case len(f.values) > 0:
			fmt.Fprintf(&b, "        (%s) compadd -- %s; return ;;\n", f.name, shellWords(f.values))
		default:
			bare = append(bare, f.name)
		}
	}
	if len(bare) > 0 {
		fmt.Fprintf(&b, "        (%s) _message value; return ;;\n", strings.Join(bare, "|"))
	}
	b.WriteString("    esac\n    case $cmd in\n")
	fmt.Fprintf(&b, "        (\"\")\n            if [[ ${words[CURRENT]} == -* ]]; then\n                entries=(%s)\n                _describe -t flags flag entries\n            else\n                entries=(%s)\n                _describe -t commands command entries\n            fi ;;\n",
		describe(slices.Concat(m.global, m.root)), describe(m.commands))
	for _, c := range m.commands {
		fmt.Fprintf(&b, "        (%s)\n", c.name)
		if values, files, ok := m.argValues(c.name); ok {
			b.WriteString("            if [[ ${words[CURRENT]} != -* ]]; then\n")
			if files {
				b.WriteString("                _files; return\n")
			} else {
				fmt.Fprintf(&b, "                compadd -- %s; return\n", shellWords(values))
			}
			b.WriteString("            fi\n")
		}
		fmt.Fprintf(&b, "            entries=(%s)\n            _describe -t flags flag entries ;;\n", describe(slices.Concat(m.flags[c.name], m.global)))
	}
	b.WriteString(`    esac
}
if [[ $funcstack[1] == _chatlens ]]; then
    _chatlens "$@"
else
    compdef _chatlens chatlens
fi
`)
	_, err := io.WriteString(w, b.String())
	return err
}

// fishQuote quotes s for a single-quoted fish word.
func fishQuote(s string) string {
	return "'" + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), "'", `\'`) + "'"
}

func (m completions) fish(w io.Writer) error {
	var b strings.Builder
	b.WriteString(`# fish completion for chatlens, printed by "chatlens completion fish".
# Install it with: chatlens completion fish > ~/.config/fish/completions/chatlens.fish
function __chatlens_command
    set -l skip 0
    for t in (commandline -opc)[2..-1]
        if test $skip = 1
            set skip 0
            continue
        end
        switch $t
`)
	fmt.Fprintf(&b, "            case %s\n                set skip 1\n", strings.Join(names(m.valueFlags()), " "))
	b.WriteString(`            case '-*'
            case '*'
                echo $t
                return
        end
    end
end
function __chatlens_in
    set -l cmd (__chatlens_command)
    test "$cmd" = "$argv[1]"
end
function __chatlens_none
    set -l cmd (__chatlens_command)
    test -z "$cmd"
end
complete -c chatlens -f
` + fishValues)
	flag := func(cond string, f completable) {
		line := "complete -c chatlens"
		if cond != "" {
			line += " -n " + fishQuote(cond)
		}
		line += " -l " + strings.TrimPrefix(f.name, "--")
		switch {
		case f.dynamic != "":
			line += " -x -a " + fishQuote("(__chatlens_values "+f.dynamic+")")
		case f.files:
			line += " -r -F"
		case len(f.values) > 0:
			line += " -x -a " + fishQuote(strings.Join(f.values, " "))
		case f.takesValue:
			line += " -x"
		}
		b.WriteString(line + " -d " + fishQuote(strings.TrimSuffix(f.help, ".")) + "\n")
	}
	for _, f := range m.global {
		flag("", f)
	}
	for _, f := range m.root {
		flag("__chatlens_none", f)
	}
	for _, c := range m.commands {
		fmt.Fprintf(&b, "complete -c chatlens -n %s -a %s -d %s\n", fishQuote("__chatlens_none"), c.name, fishQuote(strings.TrimSuffix(c.help, ".")))
	}
	for _, c := range m.commands {
		cond := "__chatlens_in " + c.name
		for _, f := range m.flags[c.name] {
			flag(cond, f)
		}
		if values, files, ok := m.argValues(c.name); ok {
			if files {
				fmt.Fprintf(&b, "complete -c chatlens -n %s -F\n", fishQuote(cond))
			} else {
				fmt.Fprintf(&b, "complete -c chatlens -n %s -a %s\n", fishQuote(cond), fishQuote(strings.Join(values, " ")))
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// The scripts' helper for values from the store (and the config file's
// context names): chatlens __complete KIND with the store flags already
// typed (--context, --data, --mongo-uri, --db) and the --as or
// --conversation that narrows the candidates. A store that does not answer
// within a second gives no candidates.
const bashValues = `_chatlens_values() {
    local -a args
    local i w
    for ((i = 1; i < cc - 1; i++)); do
        w="${cw[i]}"
        _chatlens_unquote "${cw[i+1]}"
        case "$w" in
            --context|--data|--mongo-uri|--db|--as|--conversation) args+=("$w" "$REPLY"); ((i++)) ;;
            --by) args+=(--as "$REPLY"); ((i++)) ;;
        esac
    done
    "${cw[0]}" __complete "${args[@]}" "$1" -- "$typed" 2>/dev/null
}
`

// bashOffer holds the two helpers that keep a candidate data. The word
// typed so far is unquoted by reading it, never by evaluating it.
const bashOffer = `_chatlens_offer() {
    local v q
    for v in "$@"; do
        if [[ $v == "$typed"* ]]; then
            printf -v q '%q' "$v"
            COMPREPLY+=("$q")
        fi
    done
}
_chatlens_unquote() {
    local w=$1 c q="" i
    REPLY=""
    for ((i = 0; i < ${#w}; i++)); do
        c=${w:i:1}
        if [[ $q == "'" ]]; then
            if [[ $c == "'" ]]; then q=""; else REPLY+=$c; fi
        elif [[ $c == '\' ]]; then
            ((i++))
            REPLY+=${w:i:1}
        elif [[ $c == '"' && $q == '"' ]]; then
            q=""
        elif [[ ($c == "'" || $c == '"') && -z $q ]]; then
            q=$c
        else
            REPLY+=$c
        fi
    done
}
`

// bashSplit reads COMP_WORDS into cw, and the index of the word being
// completed into cc, with a flag's value a word of its own in every form:
// "--as alice", and "--as=alice", which bash splits into "--as" "=" "alice"
// (= is in COMP_WORDBREAKS by default) or leaves whole (when it is not;
// then pre is the "--as=" the completed value keeps).
const bashSplit = `_chatlens_split() {
    local i w
    cw=() cc=0 pre=""
    for ((i = 0; i < ${#COMP_WORDS[@]}; i++)); do
        w="${COMP_WORDS[i]}"
        if [[ $w == "=" && $i -gt 0 && ${COMP_WORDS[i-1]} == --* ]]; then
            if ((i == COMP_CWORD)); then
                cw+=("")
                cc=$((${#cw[@]} - 1))
            fi
            continue
        fi
        if [[ $w == --*=* ]]; then
            cw+=("${w%%=*}")
            if ((i == COMP_CWORD)); then
                pre="${w%%=*}="
            fi
            w="${w#*=}"
        fi
        cw+=("$w")
        if ((i == COMP_CWORD)); then
            cc=$((${#cw[@]} - 1))
        fi
    done
}
`

// zshValues passes on the words typed with their quotes taken away by
// (Q), which reads them and evaluates nothing; compadd takes each line
// printed as one literal candidate and quotes it on the command line.
const zshValues = `_chatlens_values() {
    emulate -L zsh
    local -a args
    local i
    for ((i = 2; i < CURRENT - 1; i++)); do
        case ${words[i]} in
            (--context|--data|--mongo-uri|--db|--as|--conversation) args+=(${words[i]} ${(Q)words[i+1]}); ((i++)) ;;
            (--context=*|--data=*|--mongo-uri=*|--db=*|--as=*|--conversation=*) args+=(${(Q)words[i]}) ;;
            (--by) args+=(--as ${(Q)words[i+1]}); ((i++)) ;;
            (--by=*) args+=(--as=${(Q)words[i]#*=}) ;;
        esac
    done
    ${(Q)words[1]} __complete $args $1 -- ${(Q)PREFIX} 2>/dev/null
}
`

const fishValues = `function __chatlens_values
    set -l args
    set -l toks (commandline -opc)
    set -l n (count $toks)
    for i in (seq 2 (math $n - 1))
        switch $toks[$i]
            case --context --data --mongo-uri --db --as --conversation
                set args $args $toks[$i] $toks[(math $i + 1)]
            case '--context=*' '--data=*' '--mongo-uri=*' '--db=*' '--as=*' '--conversation=*'
                set args $args $toks[$i]
            case --by
                set args $args --as $toks[(math $i + 1)]
            case '--by=*'
                set args $args (string replace -- --by= --as= $toks[$i])
        end
    end
    $toks[1] __complete $args $argv[1] -- (commandline -ct | string replace -r -- '^--[^=]*=' '') 2>/dev/null
end
`
