package model

// Kind is what a key asks of the timeline.
type Kind int

const (
	Down          Kind = iota // one row newer
	Up                        // one row older
	PageDown                  // a page of rows newer; the top of the screen follows
	PageUp                    // a page of rows older
	HalfPageDown              // half a page of rows newer, as PageDown moves
	HalfPageUp                // half a page of rows older
	Top                       // the oldest row
	Bottom                    // the newest row
	NextMessage               // the next row holding a message, past holes and missing buckets
	PrevMessage               // the previous one
	Jump                      // the row holding Seq
	CycleViewer               // view as the next member, in the order the viewer picker lists them
	ViewAs                    // view as Viewer
	Boundaries                // draw bucket boundaries, or stop: a run of holes stops at them
	CompareOn                 // compare with View, once their window is read
	CompareOff                // leave the compare view
	ToggleCompare             // CompareOn with View when off, else CompareOff
	NextDiff                  // the next difference newer, wrapping to the oldest
	PrevDiff                  // the next difference older, wrapping to the newest
	DiffOnly                  // "differences only", or every row again: the cursor on a difference
	SearchFor                 // search for Query from the cursor, as the viewer sees the rows; the cursor to the nearest hit
	OlderHit                  // the next hit older (n), wrapping to the newest
	NewerHit                  // the next hit newer (N), wrapping to the oldest
	SeqJump                   // the row holding Seq, typed: a seq outside the window is refused, with why
	DateJump                  // the row of the first message sent at or after At (ms), in the window
	Grow                      // the conversation now ends at Seq (follow): the windows grow, the cursor on the newest row goes on to the newest
	AtMoment                  // show the rows as the viewer's pull gave them at At (ms; 0: now), once that window is read
)

// Key is one press.
type Key struct {
	Kind   Kind
	Seq    int64  // Jump
	Viewer string // ViewAs
	View   View   // CompareOn, ToggleCompare
	Query  string // SearchFor
	At     int64  // DateJump: a send time, in ms; AtMoment: the moment, in ms (0: now)
}

// step is a key in the queue, with what is left of it: a page key moves
// row by row, and each row may wait on a read.
type step struct {
	Key
	rows    int   // rows still to move (Down, Up, PageDown, PageUp)
	moved   int   // rows moved so far, for the top of a page move
	topFrom int64 // the top when a page move began
	topSet  bool
	viewer  bool // the viewer is being settled (CycleViewer, ViewAs): the cursor's row in their window next
	noWrap  bool // NextDiff, PrevDiff: at the end, stay (D, and moves in "differences only")
	toggled bool // DiffOnly: switched already, the cursor's difference next
	search  int  // SearchFor: the search it started (0: not yet)
	grown   bool // Grow: the windows grew, the cursor's move next
}
