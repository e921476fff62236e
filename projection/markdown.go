package projection

import (
	"regexp"
	"strings"
)

var (
	mdImage    = regexp.MustCompile(`!\[([^\]]*)\]\([^)]*\)`)
	mdLink     = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)
	mdHeading  = regexp.MustCompile(`^\s{0,3}#{1,6}\s+`)
	mdQuote    = regexp.MustCompile(`^\s*(>\s?)+`)
	mdBullet   = regexp.MustCompile(`^\s*([-*+]|\d+[.)])\s+`)
	mdEmphasis = strings.NewReplacer("**", "", "__", "", "~~", "", "`", "", "*", "")
)

// plainMarkdown is the text of a markdown message without its markup:
// what a reader would see rendered, minus styling.
func plainMarkdown(s string) string {
	lines := strings.Split(s, "\n")
	out := lines[:0]
	for _, line := range lines {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			continue
		}
		line = mdHeading.ReplaceAllString(line, "")
		line = mdQuote.ReplaceAllString(line, "")
		line = mdBullet.ReplaceAllString(line, "")
		line = mdImage.ReplaceAllString(line, "$1")
		line = mdLink.ReplaceAllString(line, "$1")
		out = append(out, mdEmphasis.Replace(line))
	}
	return strings.Join(out, "\n")
}
