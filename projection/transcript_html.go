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

func htmlHead(h TranscriptHead) string {
	var b strings.Builder
	b.WriteString("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n")
	b.WriteString("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n")
	b.WriteString("<title>" + htmlText(h.title()) + "</title>\n<style>" + htmlStyle + "</style></head>\n<body>\n")
	b.WriteString("<h1>" + htmlText(h.title()) + "</h1>\n<table class=\"head\">\n")
	for _, f := range h.headFields() {
		b.WriteString("<tr><th>" + htmlText(f[0]) + "</th><td>" + htmlText(f[1]) + "</td></tr>\n")
	}
	b.WriteString("</table>\n<table class=\"rows\">\n")
	if h.Compare != "" {
		b.WriteString("<tr><th>seq</th><th>time</th><th>sender</th><th>" + htmlText(h.Viewer) + " sees</th><th>" +
			htmlText(h.Compare) + " sees</th><th>difference</th></tr>\n")
		return b.String()
	}
	b.WriteString("<tr><th>seq</th><th>time</th><th>sender</th><th>text</th><th>why</th></tr>\n")
	return b.String()
}

func htmlRow(h TranscriptHead, r TranscriptRow) string {
	seq, when, sender, text := rowCells(r.Message, r.RunTo, h.zone())
	cells := []string{`<td class="seq">` + htmlText(seq), "<td>" + htmlText(when), "<td>" + htmlText(sender),
		`<td class="text">` + htmlText(text)}
	class := ""
	if h.Compare != "" {
		_, _, _, other := rowCells(r.Other, r.RunTo, h.zone())
		diff := ""
		if r.Reason != "" {
			diff, class = ReasonText(r.Reason, h.Viewer, h.Compare), ` class="diff"`
		}
		cells = append(cells, `<td class="text">`+htmlText(other), `<td class="why">`+htmlText(diff))
	} else {
		cells = append(cells, `<td class="why">`+htmlText(strings.Join(r.Why, "; ")))
	}
	return "<tr" + class + ">" + strings.Join(cells, "</td>") + "</td></tr>\n"
}

func htmlFoot(TranscriptHead) string { return "</table>\n</body></html>\n" }
