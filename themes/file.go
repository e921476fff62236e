package themes

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/chatlens/chatlens/keymap"
	"github.com/chatlens/chatlens/store/bucket"
)

// The theme file, theme.json beside keys.json, sets colours of the palette
// by name over the theme chosen (or detected): {"accent": "#ff8800",
// "diffbg": "52"}. It is checked as keys.json is: a misspelt name is told
// the nearest, a value that is no colour says what a colour is, and every
// error is one line that starts with the file's path.

// Colours are a theme file's colours by palette name.
type Colours map[string]string

// slots are the palette's colours by the names the file uses.
func (p *Palette) slots() map[string]*string {
	return map[string]*string{
		"text": &p.Text, "muted": &p.Muted, "accent": &p.Accent, "border": &p.Border,
		"selectfg": &p.SelectFg, "selectbg": &p.SelectBg, "warn": &p.Warn, "error": &p.Error,
		"revoked": &p.Revoked, "deleted": &p.Deleted, "hole": &p.Hole, "diffbg": &p.DiffBg,
		"barfg": &p.BarFg, "barbg": &p.BarBg,
	}
}

// ColourNames lists the names a theme file may use.
func ColourNames() []string {
	var out []string
	for n := range (&Palette{}).slots() {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// DefaultPath is where LoadFile looks when no file is named:
// <user config dir>/chatlens/theme.json.
func DefaultPath() string { return keymap.ConfigPath("theme.json") }

// LoadFile reads the theme file at path (DefaultPath when ""). A missing
// file at the default path is no error and sets no colour.
func LoadFile(path string) (Colours, error) {
	data, path, err := keymap.ReadConfig(path, DefaultPath())
	if err != nil {
		return nil, fmt.Errorf("theme file: %w", err)
	}
	if data == nil {
		return nil, nil
	}
	c, err := parseColours(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return c, nil
}

// Start is the theme the UI starts with: Resolve's choice, with the
// colours of the theme file over it. NO_COLOR and the theme none stay
// without colour.
func Start(name string, isDark func() bool) (Theme, error) {
	colours, err := LoadFile("")
	if err != nil {
		return Theme{}, err
	}
	t, err := Resolve(name, isDark)
	if err != nil || t.Name == "none" || len(colours) == 0 {
		return t, err
	}
	p := builtins[t.Name]
	slots := p.slots()
	for n, c := range colours {
		*slots[n] = c
	}
	with := New(p)
	with.Name = t.Name
	return with, nil
}

// colourRE is a colour the terminal is given: an ANSI colour number, or
// #rgb / #rrggbb.
var colourRE = regexp.MustCompile(`^(#[0-9a-fA-F]{3}|#[0-9a-fA-F]{6}|[0-9]{1,3})$`)

func validColour(c string) bool {
	if !colourRE.MatchString(c) {
		return false
	}
	n, err := strconv.Atoi(c)
	return err != nil || n <= 255 // (a hex colour does not parse as a number)
}

// parseColours reads the file's object of name -> colour, strictly: a
// leading BOM is skipped; a name given twice, an unknown name, a value that
// is not a colour string or number are refused. "" is the terminal's own
// colour.
func parseColours(data []byte) (Colours, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	notObject := func(why string) error {
		return fmt.Errorf("theme: not a JSON object of colour name -> colour: %s", bucket.EscapeUntrusted(strings.Join(strings.Fields(why), " "), 2*bucket.MaxQuotedName))
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if tok, err := dec.Token(); err != nil {
		return nil, notObject(err.Error())
	} else if tok != json.Delim('{') {
		return nil, notObject(fmt.Sprintf("starts with %v", tok))
	}
	known := (&Palette{}).slots()
	out := Colours{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, notObject(err.Error())
		}
		written := tok.(string) // inside an object, a token before a value is its key
		name := strings.NewReplacer("-", "", "_", "").Replace(strings.ToLower(written))
		if _, ok := known[name]; !ok {
			if near := keymap.Nearest(name, ColourNames()); near != "" {
				return nil, fmt.Errorf("theme: unknown colour name %s: did you mean %q?", bucket.QuoteName(written), near)
			}
			return nil, fmt.Errorf("theme: unknown colour name %s (known: %s)", bucket.QuoteName(written), strings.Join(ColourNames(), ", "))
		}
		if _, dup := out[name]; dup {
			return nil, fmt.Errorf("theme: colour %s is given twice", bucket.QuoteName(written))
		}
		var v any
		if err := dec.Decode(&v); err != nil {
			return nil, notObject(err.Error())
		}
		var c string
		switch v := v.(type) {
		case string:
			c = strings.TrimSpace(v)
		case json.Number:
			c = v.String()
		default:
			got, _ := json.Marshal(v)
			return nil, fmt.Errorf("theme: colour %s: want a colour such as \"39\" or \"#ff8800\", got %s", bucket.QuoteName(written), bucket.EscapeUntrusted(string(got), 2*bucket.MaxQuotedName))
		}
		if c != "" && !validColour(c) {
			return nil, fmt.Errorf("theme: colour %s: %s is not a colour: an ANSI colour number 0-255, #rgb or #rrggbb (\"\" is the terminal's own)", bucket.QuoteName(written), bucket.QuoteName(c))
		}
		out[name] = c
	}
	if _, err := dec.Token(); err != nil {
		return nil, notObject(err.Error())
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, notObject("more after the object")
	}
	return out, nil
}
