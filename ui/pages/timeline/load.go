package timeline

import (
	"fmt"
	"maps"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/ui/pages/timeline/model"
)

// Reading for the timeline: tl says what it needs, these run it through the
// store and land the replies back in it.

// after runs the reads tl asks for and settles what is drawn from it;
// what the model had to say and a viewer it switched to or waits for go
// to the root as messages.
func (l loader) after(reads []model.Read) tea.Cmd {
	var s said
	cmd := l.settle(reads, &s)
	return s.send(l.t, cmd)
}

// afterSaying is after with text said, unless the model says otherwise
// ("looking for…" until the jump lands).
func (l loader) afterSaying(text string, isErr bool, reads []model.Read) tea.Cmd {
	var s said
	s.say(text, isErr)
	cmd := l.settle(reads, &s)
	return s.send(l.t, cmd)
}

// settle runs the reads tl asks for and adds to s what the model had to
// say and the viewer it switched to or waits for.
func (l loader) settle(reads []model.Read, s *said) tea.Cmd {
	t := l.t
	t.quoteErr = nil // a read round after it: the model says what fails now
	t.load.movedViewer(s)
	var cmds []tea.Cmd
	for _, rd := range reads {
		switch rd.Kind {
		case model.ReadBuckets:
			t.fetched += len(rd.Indexes)
			cmds = append(cmds, loadBuckets(t.e, t.load.readOf(rd)))
		case model.ReadMembers:
			if t.membersAt == membersRead {
				cmds = append(cmds, t.load.settle(t.tl.Know().Members(t.Viewers().choiceIDs()), s))
				continue
			}
			cmds = append(cmds, t.NeedMembers())
		case model.ReadWindow:
			if rd.Second { // the compare view's second side: read, no switch
				t.compareReq = t.e.NewReq()
				cmds = append(cmds, loadWindow(t.e, t.compareReq, rd.Viewer, t.base))
				continue
			}
			s.window = rd.Viewer // the root switches to them, which reads it
		case model.ReadDate:
			cmds = append(cmds, findDate(t.e, t.req, t.cid, rd))
		case model.ReadMoment:
			cmds = append(cmds, readMoment(t.e, t.req, t.cid, t.conv, t.base, rd))
		case model.ReadSearch:
			cmds = append(cmds, t.Search().read(rd))
		case model.ReadScan:
			cmds = append(cmds, scanStep(t.e, t.cid, t.req, t.tl.Window(), rd))
		}
	}
	t.load.takeModelNote(s)
	t.quote.keepQuoted()
	return tea.Batch(append(cmds, t.quote.readQuoted())...)
}

// takeModelNote says what the model's last keys had to say, in words
// with the names known; while a key
// waits for the scan to find its difference, "looking for differences…",
// which goes once it is found, unless something else was said.
func (l loader) takeModelNote(s *said) {
	t := l.t
	looking := t.tl.Compare().Looking()
	n, ok := t.tl.TakeNote()
	switch {
	case ok && n.Kind == model.NoteNotComparing:
		s.say("not comparing: "+t.e.Keys.Compare.Help().Key+" to compare with another viewer", true)
	case ok && n.Kind == model.NoteAlike:
		s.say(fmt.Sprintf("%s and %s see every seq alike", t.Viewers().memberName(n.A), t.Viewers().memberName(n.B)), false)
	case ok && n.Kind == model.NoteOnlyBeyond:
		// They have no row to move to: the note above the rows is theirs.
		s.say("the only differences: "+strings.Join(t.Compare().beyondNotes(), "; "), false)
	case ok && n.Kind == model.NoteOutside:
		s.say(t.Viewers().outside(n.Seq), true)
	case ok && n.Kind == model.NoteNothing:
		s.say("nothing to jump to", true)
	case ok && n.Kind == model.NoteJumpFailed:
		s.say("jump: "+n.Err.Error(), true)
	case ok && n.Kind == model.NoteNoMatch:
		s.say(noMatch(n.Text), true)
	case ok && n.Kind == model.NoteNoSearch:
		s.say("no search hits ("+t.e.Keys.Search.Help().Key+" to search)", true)
	case ok && n.Kind == model.NoteScanFailed:
		s.say("looking for differences failed: "+n.Err.Error(), true)
	case ok:
		s.say(n.Text, false)
	case looking && !t.looking:
		s.say("looking for differences…", false)
	case !looking && t.looking && s.note == nil:
		s.say("", false)
	}
	t.looking = looking
}

// movedViewer notes a viewer the model switched to (V, or a switch whose
// window came), for the root to follow.
func (l loader) movedViewer(s *said) {
	t := l.t
	if v := t.tl.Viewer(); v != t.tlViewer {
		t.tlViewer = v
		if v != t.viewer {
			s.moved = v
		}
	}
}

// Open fills the first screen from the newest bucket the list already read,
// reading what else the screen needs.
func (t *Model) Open() tea.Cmd {
	newest := t.newest
	t.newest = nil // held from now on, or not needed
	if t.Viewers().empty() {
		return nil
	}
	if newest != nil && newest.Index != bucket.BucketIndex(t.tl.Cursor()) {
		newest = nil // the window ends before it (a cap, an empty bucket)
	}
	t.tl.Know().Buckets(newest)
	return t.load.after(t.tl.Settle())
}

// readOf is the store read of rd, telling the command what is held so
// quotes into it are not read again.
func (l loader) readOf(rd model.Read) bucketRequest {
	t := l.t
	held := t.tl.HeldIndexes()
	have := make(map[int64]bool, len(held))
	for _, i := range held {
		have[i] = true
	}
	haveSeqs := make(map[int64]bool, len(t.quoted))
	for seq := range t.quoted {
		haveSeqs[seq] = true
	}
	w := t.tl.Window()
	return bucketRequest{req: t.req, read: rd, cid: t.cid, indexes: rd.Indexes, minSeq: max(1, w.MinSeq), maxSeq: w.MaxSeq,
		skipGap: int(rd.Dir), have: have, haveSeqs: haveSeqs}
}

// loaded takes a bucket reply into tl, and the quoted slots beside it.
func (l loader) loaded(msg bucketsLoadedMsg) tea.Cmd {
	t := l.t
	if msg.req != t.req {
		return nil // a late reply for a view already left
	}
	for _, seq := range msg.quotedSeqs {
		delete(t.quotePending, seq)
	}
	maps.Copy(t.quoted, msg.quoted)
	if msg.quotedSeqs != nil { // a quotes-only read
		if msg.err != nil {
			t.quoteErr = msg.err
			return nil
		}
		t.quote.keepQuoted()
		return nil
	}
	landed := model.Landed{Read: msg.read, Err: msg.err}
	for _, b := range msg.buckets {
		if store.NotStored(b) {
			landed.Absent = append(landed.Absent, [2]int64{b.Index, b.Index})
			continue
		}
		landed.Buckets = append(landed.Buckets, b)
	}
	if msg.gap != nil {
		landed.Absent = append(landed.Absent, [2]int64{msg.gap.lo, msg.gap.hi})
	}
	return t.load.after(t.tl.Land(landed))
}

// Reload forgets what is read and reads the screen again: what another
// process wrote meanwhile, a bucket stored into a gap included.
func (t *Model) Reload() tea.Cmd {
	t.req = t.e.NewReq() // replies to reads asked before are dropped
	return t.load.after(t.tl.Reload())
}

// RefreshAfterWrite re-reads the held buckets among seqs.
func (t *Model) RefreshAfterWrite(seqs []int64) tea.Cmd {
	var idx []int64
	for _, s := range seqs {
		idx = append(idx, bucket.BucketIndex(s))
	}
	rd, ok := t.tl.Refresh(idx)
	if !ok {
		return nil
	}
	t.fetched += len(rd.Indexes)
	return tea.Batch(loadBuckets(t.e, t.load.readOf(rd)), t.load.after(t.tl.Rescan()))
}

// Retry repeats what failed: the first screen, the next bucket or a read
// for quotes.
func (t *Model) Retry() tea.Cmd {
	t.quoteErr = nil
	return t.load.after(t.tl.Retry())
}

// loader runs the reads the model asks for and lands their replies.
type loader struct{ t *Model }

// press gives tl a key and runs the reads it asks for.
func (l loader) press(k model.Key) tea.Cmd {
	t := l.t
	return t.load.after(t.tl.Press(k))
}

// pressAsking is press for a key that changes the viewer: the switch the
// model asks for at once is returned, for the root to make in this very
// update, not sent; its line is sent all the same.
func (l loader) pressAsking(k model.Key) (tea.Cmd, SwitchViewerMsg) {
	t := l.t
	var s said
	cmd := l.settle(t.tl.Press(k), &s)
	ask := s.ask(t)
	return tea.Batch(s.line(t), cmd), ask
}
