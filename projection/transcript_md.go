package projection

import (
	"strings"
)

// Transcript writes a transcript in one format, piece by piece, so a long
// one streams: Head once, Row per row, Foot once.
type Transcript struct {
	Head func(TranscriptHead) string
	Row  func(TranscriptHead, TranscriptRow) string
	Foot func(TranscriptHead) string
}

// TranscriptFormats are the formats by name: "markdown" and "html".
var TranscriptFormats = map[string]Transcript{
	"markdown": {Head: markdownHead, Row: markdownRow, Foot: func(TranscriptHead) string { return "" }},
	"html":     {Head: htmlHead, Row: htmlRow, Foot: htmlFoot},
}

// mdEscapes are the characters that would make a cell's text markup when
// rendered: emphasis, code, links and images (an image is fetched when a
// ticket is opened), HTML and entities, and the cell separator. A
// backslash before ASCII punctuation is always literal in CommonMark.
var mdEscapes = func() *strings.Replacer {
	var pairs []string
	for _, c := range "\\`*_[]<>|~&" {
		pairs = append(pairs, string(c), `\`+string(c))
	}
	return strings.NewReplacer(pairs...)
}()

// mdCell is s for one table cell: one line, sanitised, markup escaped.
func mdCell(s string) string { return mdEscapes.Replace(SingleLine(s)) }

func markdownHead(h TranscriptHead) string {
	var b strings.Builder
	b.WriteString("# " + mdCell(h.title()) + "\n\n| | |\n|---|---|\n")
	for _, f := range h.headFields() {
		b.WriteString("| " + mdCell(f[0]) + " | " + mdCell(f[1]) + " |\n")
	}
	if h.Compare != "" {
		b.WriteString("\n| seq | time | sender | " + mdCell(h.Viewer) + " sees | " + mdCell(h.Compare) + " sees | difference |\n")
		b.WriteString("|---:|---|---|---|---|---|\n")
		return b.String()
	}
	b.WriteString("\n| seq | time | sender | text | why |\n|---:|---|---|---|---|\n")
	return b.String()
}

func markdownRow(h TranscriptHead, r TranscriptRow) string {
	seq, when, sender, text := rowCells(r.Message, r.RunTo, h.zone())
	if h.Compare != "" {
		_, _, _, other := rowCells(r.Other, r.RunTo, h.zone())
		diff := ""
		if r.Reason != "" {
			diff = ReasonText(r.Reason, h.Viewer, h.Compare)
		}
		return "| " + strings.Join([]string{mdCell(seq), mdCell(when), mdCell(sender), mdCell(text), mdCell(other), mdCell(diff)}, " | ") + " |\n"
	}
	why := mdCell(strings.Join(r.Why, "; "))
	return "| " + strings.Join([]string{mdCell(seq), mdCell(when), mdCell(sender), mdCell(text), why}, " | ") + " |\n"
}
