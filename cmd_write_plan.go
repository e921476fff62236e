package main

import (
	"context"
	"fmt"
	"time"

	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store"
)

// dryRunUse opens the store as dump does, without the demo's first-run
// seed (a dry run writes nothing) and without the audit log; through the
// API it knows the server it would send to and asks it nothing.
var dryRunUse = storeUse{plans: true}

// dryRun prints the plan of a write and makes none of it: it writes,
// sends and audits nothing, and never asks for the server's secret. A
// refused plan (in storage, or expected refused by the server) exits 1.
func (w *writeFlags) dryRun(ctx context.Context, s *session, action string) error {
	return s.withStore(ctx, dryRunUse, func(st *store.Store) error {
		start := time.Now()
		p, err := st.Plan(ctx, store.WriteRequest{Action: action, Cid: w.Conversation, By: w.By, Seqs: w.seqs, Admin: w.Admin})
		if w.Stats {
			printWriteStats(s, st, start)
		}
		if err != nil {
			return err
		}
		if w.Format == "json" {
			if err := printJSON(s.stdout, planJSON(p)); err != nil {
				return err
			}
		} else {
			for _, line := range planLines(p) {
				fmt.Fprintln(s.stdout, projection.SingleLine(line))
			}
		}
		switch {
		case p.Prediction != nil && p.Prediction.Refusal != "":
			return fmt.Errorf("dry run: expected: %s", p.Prediction)
		case p.Refusal != nil:
			return fmt.Errorf("dry run: %w", p.Refusal)
		}
		return nil
	})
}

// planLines are a plan's lines, the last one saying nothing was done.
func planLines(p store.Plan) []string {
	if p.ViaAPI {
		return append(p.Lines(), "dry run: nothing sent, nothing written")
	}
	return append(p.Lines(), "dry run: nothing written")
}

// seqsJSON is a run of seqs and what is said of them.
type seqsJSON struct {
	Seqs        store.SeqList `json:"seqs"`
	Reason      string        `json:"reason,omitempty"`
	Note        string        `json:"note,omitempty"`
	StorageOnly bool          `json:"storageOnly,omitempty"`
}

type noticeJSON struct {
	ContentType  int32         `json:"contentType"`
	Conversation string        `json:"conversation"`
	Seq          int64         `json:"seq,omitempty"` // in the notification conversation, once found
	About        store.SeqList `json:"about"`
}

type revokeJSON struct {
	UserID   string `json:"userID"`
	Role     int32  `json:"role"`
	Nickname string `json:"nickname"`
}

// writeJSON is a write's plan (dryRun) or what it did, as one object.
type writeJSON struct {
	DryRun       bool          `json:"dryRun"`
	Action       string        `json:"action"`
	Conversation string        `json:"conversation"`
	By           string        `json:"by"`
	Admin        bool          `json:"admin"`
	Via          string        `json:"via"` // "storage" or "api"
	Write        store.SeqList `json:"write"`
	Refused      []seqsJSON    `json:"refused,omitempty"`
	Notes        []seqsJSON    `json:"notes,omitempty"`
	ReadSeq      *struct {
		Before int64 `json:"before"`
		After  int64 `json:"after"`
	} `json:"readSeq,omitempty"`
	Revoke        *revokeJSON  `json:"revoke,omitempty"`
	Expected      string       `json:"expected,omitempty"` // through the API: chatlens's prediction
	Notifications []noticeJSON `json:"notifications,omitempty"`
	SessionNote   string       `json:"sessionNote,omitempty"`
	// A write made through the API: its operationID, the seqs the store
	// does not show yet, those no notification was found for, and those
	// accepted where chatlens expected a refusal.
	OperationID string        `json:"operationID,omitempty"`
	Unconfirmed store.SeqList `json:"unconfirmed,omitempty"`
	Unnotified  store.SeqList `json:"unnotified,omitempty"`
	Unexpected  store.SeqList `json:"unexpected,omitempty"`
}

func via(api bool) string {
	if api {
		return store.ViaAPI
	}
	return "storage"
}

func notesJSON(notes []store.SeqNote) []seqsJSON {
	var out []seqsJSON
	for _, n := range notes {
		out = append(out, seqsJSON{Seqs: n.Seqs, Note: n.Note})
	}
	return out
}

func revokeOf(rev *store.Plan) *revokeJSON {
	if rev.Revoke == nil || len(rev.Write) == 0 || rev.ViaAPI {
		return nil
	}
	return &revokeJSON{UserID: rev.Revoke.UserID, Role: rev.Revoke.Role, Nickname: rev.Revoke.Nickname}
}

// planJSON is a plan as `--format json` prints it.
func planJSON(p store.Plan) writeJSON {
	r := p.Request
	out := writeJSON{DryRun: true, Action: r.Action, Conversation: r.Cid, By: r.By, Admin: r.Admin, Via: via(p.ViaAPI),
		Write: p.Write, Notes: notesJSON(p.Notes), Revoke: revokeOf(&p), SessionNote: p.SessionNote}
	if out.Write == nil {
		out.Write = store.SeqList{}
	}
	for _, rs := range p.Refused {
		out.Refused = append(out.Refused, seqsJSON{Seqs: rs.Seqs, Reason: rs.Reason, StorageOnly: rs.StorageOnly})
	}
	if p.ReadSeq != nil {
		out.ReadSeq = &struct {
			Before int64 `json:"before"`
			After  int64 `json:"after"`
		}{p.ReadSeq.Before, p.ReadSeq.After}
	}
	if p.Prediction != nil {
		out.Expected = p.Prediction.String()
	}
	for _, n := range p.Notices {
		out.Notifications = append(out.Notifications, noticeJSON{ContentType: n.Type, Conversation: p.NoticeCid, About: n.About})
	}
	return out
}

// doneJSON is what a write did, as `--format json` prints it.
func doneJSON(action string, w *writeFlags, res store.Done, admin bool) writeJSON {
	out := writeJSON{Action: action, Conversation: w.Conversation, By: w.By, Admin: admin, Via: via(res.API != nil),
		Write: w.seqs, Notes: notesJSON(res.Notes)}
	if res.Revoke != nil {
		out.Revoke = &revokeJSON{UserID: res.Revoke.UserID, Role: res.Revoke.Role, Nickname: res.Revoke.Nickname}
	}
	if a := res.API; a != nil {
		out.Expected, out.OperationID = a.Prediction.String(), a.OperationID
		out.Unconfirmed, out.Unnotified, out.Unexpected = a.Unconfirmed, a.Unnoticed, a.Unexpected
		for _, n := range a.Notices {
			out.Notifications = append(out.Notifications, noticeJSON{ContentType: n.Type, Conversation: a.NoticeCid, Seq: n.Seq, About: n.About})
		}
	}
	return out
}
