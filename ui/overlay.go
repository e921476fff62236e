package ui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/chatlens/chatlens/ui/common"
)

// overlayComponent is the dialog or box over the panes, nil when none.
func (m *Model) overlayComponent() common.Component {
	switch m.overlay {
	case ovHelp:
		return &m.helpBox
	case ovConfirm:
		return &m.confirm
	case ovInspector:
		return &m.inspector
	case ovPicker:
		return &m.picker
	case ovMsgLog:
		return &m.logBox
	case ovCopyChoice:
		return &m.copyChoice
	}
	return nil
}

// floatOver draws box centred over bg (both width cells wide, bg height
// lines tall), so a dialog leaves the timeline it is about in sight around
// it. Each background line is cut on cell boundaries around the box; a wide
// character the cut splits becomes spaces, so every line keeps its width.
func floatOver(bg, box string, width, height int) string {
	bgLines := strings.Split(common.FitBlock(bg, width, height), "\n")
	boxLines := strings.Split(box, "\n")
	boxW := 0
	for _, l := range boxLines {
		boxW = max(boxW, ansi.StringWidth(l))
	}
	if boxW >= width || len(boxLines) >= height {
		return common.FitBlock(box, width, height)
	}
	x, y := (width-boxW)/2, (height-len(boxLines))/2
	for i, l := range boxLines {
		row := y + i
		left := common.FitBlock(ansi.Truncate(bgLines[row], x, ""), x, 1)
		right := rightOf(bgLines[row], x+boxW, width-x-boxW)
		mid := l + strings.Repeat(" ", boxW-ansi.StringWidth(l))
		// Reset styles at each seam: the background's colours must not
		// bleed into the box, nor the box's into what follows.
		reset := ""
		if strings.Contains(bgLines[row], "\x1b") || strings.Contains(l, "\x1b") {
			reset = ansi.ResetStyle
		}
		bgLines[row] = left + reset + mid + reset + right
	}
	return strings.Join(bgLines, "\n")
}

// rightOf is line from cell from on, at most want cells wide and padded on
// the left to exactly that: a wide character split by the cut is dropped
// (TruncateLeft keeps it whole, one cell too wide).
func rightOf(line string, from, want int) string {
	right := ansi.TruncateLeft(line, from, "")
	for cut := from + 1; ansi.StringWidth(right) > want && cut <= from+2; cut++ {
		right = ansi.TruncateLeft(line, cut, "")
	}
	return strings.Repeat(" ", max(0, want-ansi.StringWidth(right))) + right
}
