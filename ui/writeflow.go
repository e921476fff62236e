package ui

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/ui/common"
	"github.com/chatlens/chatlens/ui/components/confirm"
)

// writeFlow is a write the timeline offers, from its key to the store's
// answer: it asks the store for the write's plan (store.Ask, which audits
// a refusal), draws the plan as the confirm dialog, and on yes has the
// store apply that plan. It holds no write rule: what would be written or
// refused, and why, is the plan's, in the lines `--dry-run` prints.
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

// verb names each action at the head of its dialog.
var verb = map[action]string{actRevoke: "Revoke", actDelete: "Delete", actRead: "Mark read"}
