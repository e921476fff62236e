package timeline

import (
	"context"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/chatlens/chatlens/keymap"
	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/themes"
	"github.com/chatlens/chatlens/ui/common"
	"github.com/chatlens/chatlens/ui/pages/list"
	"github.com/chatlens/chatlens/ui/uitest"
)

func TestMain(m *testing.M) {
	// Screens are compared as plain text: no colour, no attributes.
	lipgloss.SetColorProfile(termenv.Ascii)
	os.Exit(m.Run())
}

// page drives a timeline as the root does: the owner's list read first
// (its newest buckets are the timeline's first screen), then the keys the
// root gives the timeline and the replies to its reads, its size set after
// each, every command run until none is left.
type page struct {
	t      testing.TB
	e      *common.Common
	list   list.Model
	tl     *Model
	sw, sh int // the screen's cells; the inspector overlay spans its width

	status    string // the last note the timeline gave, as the status bar shows it
	statusErr bool
	statusAt  common.ReqID
}

// newPage reads viewer's list on st, on a screen of width x height cells.
func newPage(t testing.TB, st *store.Store, viewer string, width, height int) *page {
	t.Helper()
	theme, err := themes.Get("dark")
	if err != nil {
		t.Fatal(err)
	}
	e := &common.Common{Ctx: context.Background(), Theme: theme, Keys: keymap.Default(), Loc: time.UTC,
		Now: func() time.Time { return uitest.Now }, Tick: tea.Tick}
	e.UseStore(st)
	p := &page{t: t, e: e, list: list.New(e, viewer)}
	p.sw, p.sh = width, height
	for cmd := p.list.Load(); cmd != nil; { // the order, the first screen, the rest
		res, ok := p.list.Reply(cmd(), "")
		if !ok || p.list.Err() != nil {
			t.Fatalf("%s's list: %v", viewer, p.list.Err())
		}
		cmd = res.Cmd
	}
	return p
}

// size gives the timeline its pane on the screen, as the root lays it
// out: under it the status bar and the footer, around it a border, the
// list beside it when the screen is wide (70 cells or more) and the
// compare view is off (it takes the whole width).
func (p *page) size() {
	h := max(3, p.sh-2) - 2
	if p.sw < 70 || p.tl.Compare().With() != "" {
		p.tl.SetSize(p.sw-2, h)
		return
	}
	p.tl.SetSize(p.sw-(max(24, min(40, p.sw/3))-2)-4, h)
}

// open opens cid, a conversation of the list or of its notification
// section, as the list's owner.
func (p *page) open(cid string) {
	p.t.Helper()
	items := slices.Concat(p.list.Items(), p.list.Notices()) // the chats, then the notification section
	for i := range items {
		if it := items[i]; it.Sum.ConversationID == cid {
			p.tl = New(p.e, Conversation{Sum: it.Sum, Name: it.Name, Peer: it.Peer}, p.list.Owner(), p.list.Names())
			p.tl.SetFocused(true)
			p.do(p.tl.Open())
			return
		}
	}
	p.t.Fatalf("%s is not in %s's list", cid, p.list.Owner())
}

// do settles cmd: the size is set, as after every update, and each reply
// goes to the timeline.
func (p *page) do(cmd tea.Cmd) {
	p.t.Helper()
	p.size()
	queue := []tea.Cmd{cmd}
	for steps := 0; len(queue) > 0; steps++ {
		if steps > 100000 {
			p.t.Fatal("commands never settle")
		}
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		switch msg := c().(type) {
		case nil:
		case tea.BatchMsg:
			queue = append(queue, msg...)
		case NoteMsg: // the status bar shows the latest said
			if msg.At > p.statusAt {
				p.status, p.statusErr, p.statusAt = msg.Text, msg.IsErr, msg.At
			}
		case SwitchViewerMsg, TranscriptWrittenMsg, FollowedMsg: // the root's
		case MembersLoadedMsg: // the root gives them (and refreshes its picker)
			_, next, err := p.tl.TakeMembers(msg)
			if err != nil {
				p.t.Fatalf("the members: %v", err)
			}
			p.size()
			queue = append(queue, next)
		default:
			next, ok := p.tl.Reply(msg)
			if !ok {
				p.t.Fatalf("the timeline takes no %T", msg)
			}
			p.size()
			queue = append(queue, next)
		}
	}
}

// keys presses each key in turn, as the root gives it to the timeline.
func (p *page) keys(ks ...string) {
	for _, k := range ks {
		p.press(func() tea.Cmd { return p.tl.Update(uitest.KeyMsg(k)) })
	}
}

// press is a key the root gives to the timeline by calling key: the status
// line is cleared, as the root clears it on every key, then what the key
// starts is settled.
func (p *page) press(key func() tea.Cmd) {
	p.status, p.statusAt = "", p.e.NewReq()
	p.do(key())
}

// jump moves the cursor to seq, as : does.
func (p *page) jump(seq int64) {
	p.t.Helper()
	p.press(func() tea.Cmd { return p.tl.Moves().Jump(strconv.FormatInt(seq, 10)) })
	if p.tl.Cursor() != seq {
		p.t.Fatalf("cursor at %d after jumping to %d", p.tl.Cursor(), seq)
	}
}

func (p *page) view() string { return p.tl.View() }

// inspect is i on the cursor's row: the inspector opens (else the test
// fails with what the timeline said), its reads are settled, and its lines
// are returned as the overlay draws them, the screen's width wide.
func (p *page) inspect() string {
	p.t.Helper()
	open, cmd := p.tl.Inspector().Open()
	p.do(cmd)
	if !open {
		p.t.Fatalf("i on seq %d opened nothing: %q\n%s", p.tl.Cursor(), p.status, p.view())
	}
	return strings.Join(p.tl.Inspector().Lines(p.sw), "\n")
}

// heldBuckets are the buckets the timeline's model holds, by index.
func heldBuckets(tl *Model) map[int64]*bucket.Bucket {
	out := map[int64]*bucket.Bucket{}
	for _, i := range tl.tl.HeldIndexes() {
		out[i] = tl.tl.Held(i)
	}
	return out
}
