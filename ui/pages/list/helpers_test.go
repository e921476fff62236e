package list

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/keymap"
	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/themes"
	"github.com/chatlens/chatlens/ui/common"
	"github.com/chatlens/chatlens/ui/uitest"
)

// page drives the list alone, as the root does: every command run, its
// reply given to Reply, the size given again after each.
type page struct {
	t             testing.TB
	l             *Model
	width, height int
}

// openPage is owner's list on st, read and drawn at width x height (the
// cells inside the pane's border).
func openPage(t testing.TB, st *store.Store, owner string, width, height int) *page {
	t.Helper()
	p := startPage(t, st, owner, width, height)
	p.run(p.l.Load())
	return p
}

// startPage is openPage before the list is read.
func startPage(t testing.TB, st *store.Store, owner string, width, height int) *page {
	theme, _ := themes.Get("none")
	e := &common.Common{Ctx: context.Background(), Store: st, Theme: theme, Keys: keymap.Default(),
		Loc: time.UTC, Now: func() time.Time { return uitest.Now }}
	l := New(e, owner)
	p := &page{t: t, l: &l, width: width, height: height}
	l.SetFocused(true)
	l.SetSize(width, height)
	return p
}

// run settles cmd.
func (p *page) run(cmd tea.Cmd) { p.untilDrawn(cmd, func() bool { return false }) }

// untilDrawn runs cmd as run does until drawn holds after a reply, and
// returns the commands left unrun: what comes after that frame.
func (p *page) untilDrawn(cmd tea.Cmd, drawn func() bool) []tea.Cmd {
	queue := []tea.Cmd{cmd}
	for steps := 0; len(queue) > 0; steps++ {
		if steps > 10000 {
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
		default:
			res, ok := p.l.Reply(msg, "")
			if !ok {
				p.t.Fatalf("the list took no %T", msg)
			}
			p.l.SetSize(p.width, p.height)
			queue = append(queue, res.Cmd)
			if drawn() {
				return slices.DeleteFunc(queue, func(c tea.Cmd) bool { return c == nil })
			}
		}
	}
	return nil
}

// keys gives the list each key, as the root does when it has the keys.
func (p *page) keys(keys ...string) {
	for _, k := range keys {
		p.l.Update(uitest.KeyMsg(k))
		p.l.SetSize(p.width, p.height)
	}
}

// row is the first line of the row naming s, "" when none is drawn.
func (p *page) row(s string) string {
	for _, l := range strings.Split(p.l.View(), "\n") {
		if strings.Contains(l, s) {
			return l
		}
	}
	return ""
}
