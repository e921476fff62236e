package ui

import (
	"errors"
	"fmt"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/ui/common"
	"github.com/chatlens/chatlens/ui/components/confirm"
)

// A write the timeline offers, from its key to the store's answer, in one
// place: the key asks the store for the write's plan (store.Ask, which
// audits a refusal), the plan is drawn as the confirm dialog, and on yes
// a command, off the UI goroutine, has the store apply that plan
// (store.Apply), as a scripted command applies its own. The UI holds no
// write rule: what would be written or refused, and why, is the plan's,
// in the lines `--dry-run` prints.

// action names a write the timeline offers.
type action string

const (
	actRevoke action = "revoke"
	actDelete action = "delete"
	actRead   action = "mark read"
)

// storeAction names each action for the store.
var storeAction = map[action]string{actRevoke: store.ActionRevoke, actDelete: store.ActionDelete, actRead: store.ActionRead}

// verb names each action at the head of its dialog.
var verb = map[action]string{actRevoke: "Revoke", actDelete: "Delete", actRead: "Mark read"}

// writeFlow is the write whose dialog is open, if any.
type writeFlow struct {
	asked *askedWrite // the write whose dialog is open; nil when none
}

// askedWrite is a write asked for: its plan is nil until read.
type askedWrite struct {
	req     common.ReqID // carried by the plan's reply and the write's
	act     action
	viewer  string
	summary string // the row the write was asked on, in one line
	plan    *store.Plan
}

// planReadMsg is the store's plan of an asked write.
type planReadMsg struct {
	req  common.ReqID
	plan store.Plan
	err  error
}

// askWrite asks for the write act on the selected message: a mark read
// covers every unread seq up to it, which the store reads as it plans.
func (m *Model) askWrite(act action) tea.Cmd {
	t := m.tl
	seq, viewer := t.Cursor(), t.Viewer()
	msg, ok := t.Message(seq, viewer)
	if !ok {
		return nil
	}
	w := store.WriteRequest{Action: storeAction[act], Cid: t.ID(), By: viewer, Seqs: []int64{seq}, Admin: m.e.Admin}
	if act == actRead {
		w.Seqs, w.UpTo = nil, seq
	}
	d, read := m.wf.ask(m.e, act, w, fmt.Sprintf("seq %d: %s", seq, projection.Summary(msg)))
	m.showConfirm(d)
	return read
}

// ask starts the dialog of a write: it says "planning…" (and confirms
// nothing) until the plan read by the command returned is drawn.
func (f *writeFlow) ask(e *common.Common, act action, w store.WriteRequest, summary string) (confirm.Dialog, tea.Cmd) {
	a := &askedWrite{req: e.NewReq(), act: act, viewer: w.By, summary: summary}
	f.asked = a
	read := func() tea.Msg {
		p, err := e.Store.Ask(e.Ctx, w)
		return planReadMsg{req: a.req, plan: p, err: err}
	}
	return confirm.Dialog{Title: verb[act] + ": planning…", Lines: []string{summary, "planning…"}, Req: a.req}, read
}

// planning: a dialog is open whose plan is not drawn yet.
func (f *writeFlow) planning() bool { return f.asked != nil && f.asked.plan == nil }

// refusal is why the store refused the write shown; nil when it did not.
func (f *writeFlow) refusal() error {
	if f.asked == nil || f.asked.plan == nil || f.asked.plan.ViaAPI {
		return nil
	}
	return f.asked.plan.Refusal
}

// close forgets the asked write: a plan still on its way is dropped.
func (f *writeFlow) close() { f.asked = nil }

// showConfirm opens d over the panes.
func (m *Model) showConfirm(d confirm.Dialog) {
	m.confirm = confirm.New(m.e, d)
	m.confirm.SetSize(m.width, m.bodyHeight())
	m.overlay = ovConfirm
}

// planRead draws a plan in its dialog; a plan that could not be read
// closes the dialog and says why.
func (m *Model) planRead(msg planReadMsg) tea.Cmd {
	d, ok, err := m.wf.planned(m.e, msg)
	switch {
	case !ok || m.overlay != ovConfirm:
		m.wf.close()
		return nil
	case err != nil:
		m.overlay = ovNone
		m.setStatus("cannot plan the write: "+err.Error(), true)
		return nil
	case errors.Is(m.wf.refusal(), store.ErrReadOnly):
		// The keys are off: the status bar says so, with no dialog.
		m.overlay = ovNone
		m.setStatus(m.wf.refusal().Error(), true)
		m.wf.close()
		return nil
	}
	m.showConfirm(d)
	return nil
}

// planned draws the plan of the asked write: ok is false for a plan no
// dialog waits for, and err says why a plan could not be read (no
// dialog). A refused plan (in storage) is a dialog that only explains.
func (f *writeFlow) planned(e *common.Common, msg planReadMsg) (d confirm.Dialog, ok bool, err error) {
	a := f.asked
	if a == nil || a.req != msg.req {
		return d, false, nil
	}
	if msg.err != nil {
		f.close()
		return d, true, msg.err
	}
	p := msg.plan
	a.plan = &p
	d = confirm.Dialog{Title: f.title(p), Lines: append([]string{a.summary}, p.Lines()...), Req: a.req}
	switch {
	case p.Refusal != nil && !p.ViaAPI:
	case e.ReadOnly: // the write keys are off, whatever the store would take
	default:
		d.Run = apply(e, a.req, a.act, p)
		if !p.ViaAPI && e.Deployment {
			d.Lines = append(d.Lines, store.NotificationNote(p.Request.Action, a.viewer))
		}
	}
	if e.Operator != "" {
		d.Lines = append(d.Lines, "operator: "+e.Operator)
	}
	return d, true, nil
}

// title asks the question the plan answers.
func (f *writeFlow) title(p store.Plan) string {
	a := f.asked
	switch {
	case p.ViaAPI && p.Prediction != nil && p.Prediction.Refusal != "":
		// The server decides: the operator may send it all the same.
		return verb[a.act] + " through OpenIM?"
	case p.Refusal != nil && !p.ViaAPI:
		return verb[a.act] + " refused"
	case a.act == actDelete:
		return "Delete for " + a.viewer + " only?"
	case a.act == actRead:
		return "Mark read up to here?"
	}
	return "Revoke for everyone?"
}

// confirmKey gives the key to the dialog and starts the write it confirms.
// Until its plan is drawn the dialog only closes: no key confirms a write
// not yet shown.
func (m *Model) confirmKey(k tea.KeyMsg) tea.Cmd {
	d := &m.confirm
	if m.wf.planning() {
		if key.Matches(k, m.e.Keys.Cancel) {
			m.wf.close()
			m.overlay = ovNone
			m.setStatus("cancelled", false)
		}
		return nil
	}
	d.Update(k)
	answered, confirmed := d.Answer()
	refusal := m.wf.refusal()
	if answered {
		m.wf.close()
	}
	switch {
	case !answered:
		return nil
	case !confirmed:
		m.overlay = ovNone
		m.setStatus("cancelled", false)
		return nil
	case d.Run == nil: // a refusal: nothing to do; the status keeps why
		m.overlay = ovNone
		if refusal != nil {
			m.setStatus(refusal.Error(), true)
		}
		return nil
	case m.switching != nil:
		// The store it would go to is about to be left.
		m.overlay = ovNone
		m.setStatus("switching to context "+m.switching.name+"…: nothing written; ask again once it is done", true)
		return nil
	}
	m.overlay = ovNone
	status := d.Title + " working…"
	if wait := m.e.Store.APIWaiting(); wait != "" {
		status = d.Title + " " + wait
	}
	m.setStatus(status, false)
	m.writes[d.Req] = true
	return d.Run
}

// apply has the store make the write p plans.
func apply(e *common.Common, req common.ReqID, act action, p store.Plan) tea.Cmd {
	r := p.Request
	return func() tea.Msg {
		done, err := e.Store.Apply(e.Ctx, p)
		return actionDoneMsg{req: req, cid: r.Cid, act: act, viewer: r.By, seqs: r.Seqs, res: done.WriteResult, api: done.API, err: err}
	}
}

// actionDoneMsg is the store's answer to a write it applied.
type actionDoneMsg struct {
	req    common.ReqID
	cid    string
	act    action
	viewer string
	seqs   []int64
	res    store.WriteResult
	api    *store.APIDone // set when the server's API made the write
	err    error
}
