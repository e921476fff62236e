package projection

import (
	"strings"
)

// Transcript is one format of a transcript, written through its Writer:
// head once, row per row (with or without the rule column), foot once.
type Transcript struct {
	head func(TranscriptHead, headNotes) string
	row  func(h TranscriptHead, r TranscriptRow, ruleColumn bool) string
	foot func(TranscriptHead) string
}

// TranscriptFormats are the formats by name: "markdown" and "html".
var TranscriptFormats = map[string]Transcript{
	"markdown": {head: markdownHead, row: markdownRow, foot: func(TranscriptHead) string { return "" }},
	"html":     {head: htmlHead, row: htmlRow, foot: htmlFoot},
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

func markdownHead(h TranscriptHead, n headNotes) string {
	var b strings.Builder
	b.WriteString("# " + mdCell(h.title()) + "\n\n")
	for _, l := range n.counts {
		b.WriteString(mdCell(l) + "\n\n")
	}
	b.WriteString("| | |\n|---|---|\n")
	for _, f := range h.headFields(n) {
		b.WriteString("| " + mdCell(f[0]) + " | " + mdCell(f[1]) + " |\n")
	}
	cols := []string{"seq", "time", "sender", "text", "why"}
	if h.Compare != "" {
		cols = []string{"seq", "time", "sender", mdCell(h.Viewer) + " sees", mdCell(h.Compare) + " sees", "difference"}
	}
	if n.every != "" {
		cols = cols[:len(cols)-1] // said once above
	}
	b.WriteString("\n| " + strings.Join(cols, " | ") + " |\n|---:" + strings.Repeat("|---", len(cols)-1) + "|\n")
	return b.String()
}

func markdownRow(h TranscriptHead, r TranscriptRow, ruleColumn bool) string {
	seq, when, sender, text := rowCells(r.Message, r.RunTo, h.zone())
	cells := []string{mdCell(seq), mdCell(when), mdCell(sender), mdCell(text)}
	if h.Compare != "" {
		_, _, _, other := rowCells(r.Other, r.RunTo, h.zone())
		cells = append(cells, mdCell(other))
	}
	if ruleColumn {
		cells = append(cells, mdCell(h.ruleCell(r)))
	}
	return "| " + strings.Join(cells, " | ") + " |\n"
}
