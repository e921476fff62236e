package projection

import (
	"html"
	"strings"
)

// The HTML transcript is one file that needs nothing else: its style is
// inline, it links and loads nothing, and every text in it is sanitised
// and then escaped, so a message can neither run script nor fetch a
// resource when the file is opened.

const htmlStyle = `body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222;background:#fff}
h1{font-size:1.3em}table{border-collapse:collapse;margin:1em 0}
th,td{border:1px solid #ccc;padding:.25em .5em;text-align:left;vertical-align:top}
th{background:#f3f3f3}td.seq{text-align:right;font-variant-numeric:tabular-nums}
td.text{white-space:pre-wrap}td.why{color:#555}tr.diff td{background:#fff4e0}`

// htmlText is s sanitised and escaped for HTML text or an attribute.
func htmlText(s string) string { return html.EscapeString(SingleLine(s)) }

func htmlHead(h TranscriptHead, n headNotes) string {
	var b strings.Builder
	b.WriteString("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n")
	b.WriteString("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n")
	b.WriteString("<title>" + htmlText(h.title()) + "</title>\n<style>" + htmlStyle + "</style></head>\n<body>\n")
	b.WriteString("<h1>" + htmlText(h.title()) + "</h1>\n")
	for _, l := range n.counts {
		b.WriteString("<p class=\"count\">" + htmlText(l) + "</p>\n")
	}
	b.WriteString("<table class=\"head\">\n")
	for _, f := range h.headFields(n) {
		b.WriteString("<tr><th>" + htmlText(f[0]) + "</th><td>" + htmlText(f[1]) + "</td></tr>\n")
	}
	b.WriteString("</table>\n<table class=\"rows\">\n")
	cols := []string{"seq", "time", "sender", "text", "why"}
	if h.Compare != "" {
		cols = []string{"seq", "time", "sender", htmlText(h.Viewer) + " sees", htmlText(h.Compare) + " sees", "difference"}
	}
	if n.every != "" {
		cols = cols[:len(cols)-1] // said once above
	}
	b.WriteString("<tr><th>" + strings.Join(cols, "</th><th>") + "</th></tr>\n")
	return b.String()
}

func htmlRow(h TranscriptHead, r TranscriptRow, ruleColumn bool) string {
	seq, when, sender, text := rowCells(r.Message, r.RunTo, h.zone())
	cells := []string{`<td class="seq">` + htmlText(seq), "<td>" + htmlText(when), "<td>" + htmlText(sender),
		`<td class="text">` + htmlText(text)}
	class := ""
	if h.Compare != "" {
		_, _, _, other := rowCells(r.Other, r.RunTo, h.zone())
		cells = append(cells, `<td class="text">`+htmlText(other))
		if r.Reason != "" {
			class = ` class="diff"`
		}
	}
	if ruleColumn {
		cells = append(cells, `<td class="why">`+htmlText(h.ruleCell(r)))
	}
	return "<tr" + class + ">" + strings.Join(cells, "</td>") + "</td></tr>\n"
}

func htmlFoot(TranscriptHead) string { return "</table>\n</body></html>\n" }
