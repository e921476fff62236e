package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// The words of a write through the server's API that planning and
// applying share: what chatlens predicts, what the server refused, what the
// write found afterwards.

// APIDone is what a write through the API adds to Done.
type APIDone struct {
	OperationID string // the write's; each call's header is it plus "-<n>"
	// Unconfirmed are the seqs the server accepted that the store did not
	// show yet when chatlens stopped looking (it writes MongoDB after it
	// answers).
	Unconfirmed []int64
	// Prediction is what chatlens expected; Unexpected the seqs the server
	// accepted where it expected a refusal.
	Prediction Prediction
	Unexpected []int64
	// NoticeCid is the notification conversation the server tells devices
	// of the write in; Notices the notifications found there, Unnoticed
	// the accepted seqs none was found for (NoticeErr when it could not be
	// read).
	NoticeCid string
	Notices   []Notice
	Unnoticed []int64
	NoticeErr error
}

// apiNote says, in a plan's lines, what a write through the API does that
// a storage-level one does not.
const apiNote = "through the OpenIM API: the server applies its own permission rules and notifies devices; its answer decides"

// Prediction is what chatlens expects the server to answer a write through
// its API, from its own checks (OpenIM's rules as chatlens reads them).
// The server decides; where the two differ chatlens says so, since that
// is a difference between its rules and the server's.
type Prediction struct {
	// Refusal is why chatlens expects a refusal, one line; "" when it
	// expects the server to accept.
	Refusal string
	// Seqs are the seqs it expects refused: all of them when the refusal
	// is of the user.
	Seqs []int64
}

// predictionOf turns the refusal chatlens's checks gave (nil for none)
// into a Prediction of req.
func predictionOf(req WriteRequest, refusal error) Prediction {
	var te *TargetError
	switch {
	case refusal == nil:
		return Prediction{}
	case errors.As(refusal, &te):
		p := Prediction{Refusal: te.reasons()}
		for _, r := range te.Refused {
			p.Seqs = append(p.Seqs, r.Seqs...)
		}
		slices.Sort(p.Seqs)
		return p
	}
	return Prediction{Refusal: refusal.Error(), Seqs: req.Seqs}
}

func (p Prediction) String() string {
	if p.Refusal == "" {
		return "OpenIM will accept this"
	}
	return "OpenIM will refuse this: " + p.Refusal
}

// refuses tells whether chatlens expects the server to refuse a call of
// seqs.
func (p Prediction) refuses(seqs []int64) bool {
	for _, seq := range seqs {
		if slices.Contains(p.Seqs, seq) {
			return true
		}
	}
	return false
}

type predictionKey struct{}

// WithPrediction returns ctx carrying fn: a write through the API made
// with it calls fn with chatlens's prediction before it sends anything, so
// the operator sees what chatlens expects before the server answers.
func WithPrediction(ctx context.Context, fn func(Prediction)) context.Context {
	return context.WithValue(ctx, predictionKey{}, fn)
}

// ExpectedRefusalAccepted is what a write through the API says when the
// server accepted what chatlens expected it to refuse.
const ExpectedRefusalAccepted = "chatlens expected a refusal; the server accepted"

// ServerRefusal is the server refusing a call of a write: its verdict
// stands, and nothing after it was tried. Expected says whether chatlens
// predicted the refusal.
type ServerRefusal struct {
	Action, Cid string
	Seqs        []int64 // the call's
	Path        string
	Code        int
	Msg, Dlt    string
	Expected    bool
}

func (e *ServerRefusal) Error() string {
	what := fmt.Sprintf("the server refused %s of seq %s of %s", e.Action, FormatSeqs(e.Seqs), e.Cid)
	if e.Path != "" && !isWritePath(e.Path) {
		what += " (" + e.Path + ")"
	}
	if e.Expected {
		return what + ": " + e.Verdict() + ", as chatlens expected"
	}
	return what + ": " + e.Verdict() + "; chatlens expected acceptance: its rules and the server's differ"
}

// Verdict is the server's answer in one phrase: code, message, detail.
func (e *ServerRefusal) Verdict() string {
	v := strconv.Itoa(e.Code) + " " + e.Msg
	if e.Dlt != "" {
		v += " (" + e.Dlt + ")"
	}
	return v
}

func isWritePath(p string) bool { return len(p) > 5 && p[:5] == "/msg/" }

// NoticeWords names where the notifications of a write through the API
// are, runs joined: "seq 6: 2101 in n_g1 seq 45; seq 7-9: 2101 in n_g1 seq
// 46-48"; "" when none was found.
func (a *APIDone) NoticeWords() string {
	var parts []string
	for i := 0; i < len(a.Notices); {
		n := a.Notices[i]
		j := i + 1
		// One seq per notification, both rising by one: a run.
		for len(n.About) == 1 && j < len(a.Notices) && len(a.Notices[j].About) == 1 && a.Notices[j].Type == n.Type &&
			a.Notices[j].Seq == n.Seq+int64(j-i) && a.Notices[j].About[0] == n.About[0]+int64(j-i) {
			j++
		}
		about := n.About
		if j > i+1 {
			about = seqRange(n.About[0], j-i)
		}
		at := fmt.Sprint(n.Seq)
		if j > i+1 {
			at = fmt.Sprintf("%d-%d", n.Seq, a.Notices[j-1].Seq)
		}
		parts = append(parts, fmt.Sprintf("seq %s: %d in %s seq %s", FormatSeqs(about), n.Type, a.NoticeCid, at))
		i = j
	}
	return strings.Join(parts, "; ")
}

// UnnoticedWords says which seqs of a write through the API no
// notification was found for, and what that means; "" when every one has
// one.
func (a *APIDone) UnnoticedWords() string {
	if len(a.Unnoticed) == 0 {
		return ""
	}
	switch {
	case a.NoticeErr != nil:
		return fmt.Sprintf("the notifications of seq %s in %s could not be read: %v", FormatSeqs(a.Unnoticed), a.NoticeCid, a.NoticeErr)
	case a.NoticeCid == "":
		return "no notification conversation to look in for seq " + FormatSeqs(a.Unnoticed)
	}
	return fmt.Sprintf("no notification in %s for seq %s: devices that already hold those messages will not learn of the change (a device does not pull a seq it holds)",
		a.NoticeCid, FormatSeqs(a.Unnoticed))
}

// NoticeSummary is what a write through the API told devices, for a
// status line: where its notifications are, or which seqs have none.
func (a *APIDone) NoticeSummary() string {
	if words := a.UnnoticedWords(); words != "" {
		return words
	}
	return "notified: " + a.NoticeWords()
}
