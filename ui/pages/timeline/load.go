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

// after runs the reads tl asks for and settles what is drawn from it.
func (t *Model) after(reads []model.Read) tea.Cmd {
	t.sync()
	var cmds []tea.Cmd
	for _, rd := range reads {
		switch rd.Kind {
		case model.ReadBuckets:
			t.fetched += len(rd.Indexes)
			cmds = append(cmds, loadBuckets(t.e, t.readOf(rd)))
		case model.ReadMembers:
			if t.membersAt == membersRead {
				cmds = append(cmds, t.after(t.tl.KnowMembers(t.choiceIDs())))
				continue
			}
			cmds = append(cmds, t.NeedMembers())
		case model.ReadWindow:
			if w, ok := t.wins[rd.Viewer]; ok { // known from an earlier switch or the list
				cmds = append(cmds, t.after(t.tl.Land(model.Landed{Read: rd, Window: w})))
				continue
			}
			if rd.Second { // the compare view's second side: read, no switch
				t.compareReq = t.e.NewReq()
				cmds = append(cmds, loadWindow(t.e, t.compareReq, rd.Viewer, t.base))
				continue
			}
			t.wantWindow = rd.Viewer // the root switches to them, which reads it
		case model.ReadScan:
			cmds = append(cmds, scanStep(t.e, t.cid, t.req, t.tl.Window(), rd))
		}
	}
	t.takeModelNote()
	t.keepQuoted()
	return tea.Batch(append(cmds, t.readQuoted())...)
}

// takeModelNote says what the model's last keys had to say, in words
// with the names known; while a key
// waits for the scan to find its difference, "looking for differences…",
// which goes once it is found.
func (t *Model) takeModelNote() {
	looking := t.tl.Compare().Looking()
	n, ok := t.tl.TakeNote()
	switch {
	case ok && n.Kind == model.NoteNotComparing:
		t.say("not comparing: "+t.e.Keys.Compare.Help().Key+" to compare with another viewer", true)
	case ok && n.Kind == model.NoteAlike:
		t.say(fmt.Sprintf("%s and %s see every seq alike", t.memberName(n.A), t.memberName(n.B)), false)
	case ok && n.Kind == model.NoteOnlyBeyond:
		// They have no row to move to: the note above the rows is theirs.
		t.say("the only differences: "+strings.Join(t.compare().beyondNotes(), "; "), false)
	case ok && n.Kind == model.NoteScanFailed:
		t.say("looking for differences failed: "+n.Err.Error(), true)
	case ok:
		t.say(n.Text, false)
	case looking && !t.looking:
		t.say("looking for differences…", false)
	case !looking && t.looking && t.note == nil:
		t.say("", false)
	}
	t.looking = looking
}

// sync copies what the drawing reads of tl, and notes a viewer tl
// switched to, for the root to follow (switchViewer).
func (t *Model) sync() {
	t.cursor, t.top, t.boundaries = t.tl.Cursor(), t.tl.Top(), t.tl.Boundaries()
	t.err = t.tl.Err()
	if v := t.tl.Viewer(); v != t.tlViewer {
		t.tlViewer = v
		if v != t.viewer {
			t.switchTo = v
		}
	}
}

// Open fills the first screen from the newest bucket the list already read,
// reading what else the screen needs.
func (t *Model) Open() tea.Cmd {
	newest := t.newest
	t.newest = nil // held from now on, or not needed
	if t.empty() {
		return nil
	}
	if newest != nil && newest.Index != bucket.BucketIndex(t.cursor) {
		newest = nil // the window ends before it (a cap, an empty bucket)
	}
	t.tl.Give(newest)
	return t.after(t.tl.Settle())
}

// readOf is the store read of rd, telling the command what is held so
// quotes into it are not read again.
func (t *Model) readOf(rd model.Read) bucketRequest {
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
func (t *Model) loaded(msg bucketsLoadedMsg) tea.Cmd {
	if msg.req != t.req {
		return nil // a late reply for a view already left
	}
	for _, seq := range msg.quotedSeqs {
		delete(t.quotePending, seq)
	}
	maps.Copy(t.quoted, msg.quoted)
	if msg.quotedSeqs != nil { // a quotes-only read
		if msg.err != nil {
			t.err = msg.err
			return nil
		}
		t.keepQuoted()
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
	return t.after(t.tl.Land(landed))
}

// Reload forgets what is read and reads the screen again: what another
// process wrote meanwhile, a bucket stored into a gap included.
func (t *Model) Reload() tea.Cmd {
	t.req = t.e.NewReq() // replies to reads asked before are dropped
	return t.after(t.tl.Reload())
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
	return tea.Batch(loadBuckets(t.e, t.readOf(rd)), t.after(t.tl.Rescan()))
}

// Retry repeats what failed: the first screen, the next bucket or a read
// for quotes.
func (t *Model) Retry() tea.Cmd {
	t.err = nil
	return t.after(t.tl.Retry())
}
