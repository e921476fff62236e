package timeline

import (
	"fmt"

	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/ui/common"
	"github.com/chatlens/chatlens/ui/pages/timeline/model"
)

// Runs of two or more seqs without a message are drawn as one row
// ("· seqs 151–10085: no message (9,935)") and the cursor steps over them
// as over one message (the model's row rules say where a run stops).

// isRun reports a row drawn as a run: holes more than one, or more past
// what is read.
func isRun(r model.Row) bool { return r.Kind == model.RowHoles && (r.Last > r.First || r.Open) }

// holeRunLine is the row of run r.
func (d drawing) holeRunLine(r model.Row, width, seqWidth int) string {
	t := d.t
	th := t.e.Theme
	marker, style := "  ", th.Hole
	if t.tl.Cursor() == r.First {
		marker, style = t.draw.marker(t.tl.Cursor()), th.Selected
	}
	text := projection.HoleRun(r.First, r.Last)
	if r.Open {
		text += " …" // the run goes on past what is read
	}
	line := fmt.Sprintf("%s%*d %*s %s", marker, seqWidth, r.First, len(t.clockFmt), "", text)
	return style.Render(common.PadRight(projection.Truncate(line, width), width))
}
