package store

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/chatlens/chatlens/store/bucket"
)

// The audit log's lines: what they record and how they are appended. The
// writes append them; the operator's trail and `dump --at` read them back.

// Results an audit line records.
const (
	// ResultIntent is written before a batch touches the store: if the
	// process dies part way, this line still names every seq it may have
	// changed.
	ResultIntent       = "intent"
	ResultOK           = "ok"
	ResultOKCacheStale = "ok-cache-stale"
	ResultPartial      = "partial" // some seqs done (Applied), the rest not or unknown
	ResultUnknown      = "unknown" // nothing surely done, some replies lost (Unknown)
	ResultFailed       = "failed"  // nothing written
	ResultRefused      = "refused" // refused before anything was written
	// ResultAccepted: the server's API accepted the write, and the store
	// did not show all of it yet (Unconfirmed) when chatlens stopped looking.
	ResultAccepted = "accepted"
)

// AuditEntry is one line of the audit log: every write, its intent before
// and its outcome after, and every refusal.
type AuditEntry struct {
	Time         time.Time `json:"time"`
	Operator     string    `json:"operator"`
	Context      string    `json:"context,omitempty"` // the named deployment (AuditLog.SetContext)
	Action       string    `json:"action"`
	Conversation string    `json:"conversation"`
	Seqs         SeqList   `json:"seqs"`
	As           string    `json:"as,omitempty"`    // the user the action was taken for
	Admin        bool      `json:"admin,omitempty"` // the operator acted as an app admin (--admin)
	Result       string    `json:"result"`
	Applied      SeqList   `json:"applied,omitempty"` // with "partial": the seqs that were changed
	Unknown      SeqList   `json:"unknown,omitempty"` // seqs whose reply was lost: maybe changed
	Retried      int       `json:"retried,omitempty"` // round trips tried again after the server wrote nothing (ErrNotWritten)
	Error        string    `json:"error,omitempty"`
	// A write through the server's API: "via": "api", the operationID its
	// calls carry (each "-<n>" more), the seqs accepted but not seen in the
	// store yet, and chatlens's and the server's verdicts. No token or
	// secret is ever part of a line.
	Via         string    `json:"via,omitempty"`
	OperationID string    `json:"operationID,omitempty"`
	Unconfirmed SeqList   `json:"unconfirmed,omitempty"`
	Verdicts    *Verdicts `json:"verdicts,omitempty"`
	// Unnotified are the seqs the server accepted whose notification
	// (2101, 2102, 2200) was not found in the notification conversation.
	Unnotified SeqList `json:"unnotified,omitempty"`
}

// SeqList is a list of seqs written to the log as ranges ("1-330,400"), so a
// batch of thousands of seqs stays one short line. It reads back the ranges
// and the plain arrays of older lines.
type SeqList []int64

// MarshalJSON writes the seqs as one range string.
func (l SeqList) MarshalJSON() ([]byte, error) { return json.Marshal(FormatSeqs(l)) }

// UnmarshalJSON reads a range string or an array of numbers.
func (l *SeqList) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		var nums []int64
		if err := json.Unmarshal(b, &nums); err != nil {
			return fmt.Errorf("seqs: want a range string or an array: %w", err)
		}
		*l = nums
		return nil
	}
	var out []int64
	for part := range strings.SplitSeq(s, ",") {
		if part == "" {
			continue
		}
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.ParseInt(lo, 10, 64)
		b := a
		if err == nil && isRange {
			b, err = strconv.ParseInt(hi, 10, 64)
		}
		if err != nil || b < a || b-a >= MaxSeqsPerCommand {
			return fmt.Errorf("seqs: bad range %q", part)
		}
		for n := range b - a + 1 {
			out = append(out, a+n)
		}
	}
	*l = out
	return nil
}

// AuditLog appends JSON lines to a writer; safe for concurrent use.
type AuditLog struct {
	mu      sync.Mutex
	w       io.Writer
	path    string // the file w appends to, when opened by OpenAuditLog
	context string // named on every line (SetContext)
}

// SetContext names the deployment (a context of the config file) on every
// line appended after it, so one log kept for several deployments tells
// which one each write went to.
func (a *AuditLog) SetContext(name string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.context = name
}

// NewAuditLog writes entries to w (an append-only file in practice).
func NewAuditLog(w io.Writer) *AuditLog { return &AuditLog{w: w} }

// Append writes one entry, with every bucket.UnsafeRune escaped (an
// operator name or a conversation ID can be hostile, and the log is read in
// a terminal). A nil AuditLog discards.
func (a *AuditLog) Append(e AuditEntry) error {
	if a == nil || a.w == nil {
		return nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if e.Context == "" {
		e.Context = a.context
	}
	line, err := json.Marshal(e)
	if err != nil {
		return err
	}
	line = bucket.EscapeJSONLine(line)
	_, err = a.w.Write(append(line, '\n'))
	return err
}

// ViaAPI is the audit log's "via" of a write made through the server's API.
const ViaAPI = "api"

// Verdicts records, on the audit line of a write through the API, what
// chatlens predicted ("allowed", or "refused: " and why) and what the
// server answered ("accepted", or "refused: " and its code); Differ when
// the two disagree.
type Verdicts struct {
	Chatlens string `json:"chatlens"`
	Server   string `json:"server"`
	Differ   bool   `json:"differ,omitempty"`
}
