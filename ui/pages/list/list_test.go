package list

import (
	"strings"
	"testing"

	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/ui/uitest"
)

// TestFilterIsFuzzy: letters of a conversation's ID typed with gaps find
// it (a substring filter found nothing), and enter asks to open it.
func TestFilterIsFuzzy(t *testing.T) {
	st, _ := uitest.NewStore(t, false)
	uitest.SeedSmall(t, st)
	p := openPage(t, st, "alice", 98, 26)
	p.l.SetFilter("alcbob")
	view := p.l.View()
	if !strings.Contains(view, "Bob") || strings.Contains(view, "Team") || strings.Contains(view, "no match") {
		t.Fatalf("filter alcbob should show the chat with Bob only:\n%s", view)
	}
	if !strings.Contains(view, "filter: alcbob") {
		t.Errorf("the list does not say what it is filtered by:\n%s", view)
	}
	p.keys("enter")
	if p.l.Ask() != AskOpen || p.l.Selected() == nil || p.l.Selected().Sum.ConversationID != uitest.ChatAB {
		t.Errorf("enter on the filtered row did not ask to open %s", uitest.ChatAB)
	}
	p.l.SetFilter("zzz")
	if v := p.l.View(); !strings.Contains(v, "no match for zzz") || p.l.Selected() != nil {
		t.Errorf("a filter matching nothing does not say so:\n%s", v)
	}
}

// TestKeysMoveTheCursorAndAskTheRoot: j, k, G and g move the cursor (the
// focused list marks it ▸, the other pane's ▹); enter and / are asked of
// the root once; esc clears the filter.
func TestKeysMoveTheCursorAndAskTheRoot(t *testing.T) {
	st, _ := uitest.NewStore(t, false)
	uitest.SeedSmall(t, st)
	p := openPage(t, st, "alice", 98, 26)
	selected := func() string { return p.l.Selected().Sum.ConversationID }
	if selected() != uitest.ChatT { // pinned: first
		t.Fatalf("the cursor starts on %s, want the pinned %s", selected(), uitest.ChatT)
	}
	if row := p.row("Team"); !strings.HasPrefix(row, "▸ # Team") {
		t.Errorf("the focused list's cursor row is %q, want it marked ▸", row)
	}
	p.keys("j")
	if selected() != uitest.ChatAB {
		t.Errorf("j moved to %s, want %s", selected(), uitest.ChatAB)
	}
	p.keys("k", "k")
	if selected() != uitest.ChatT {
		t.Errorf("k moved to %s, want %s (and no further up)", selected(), uitest.ChatT)
	}
	p.keys("G")
	last := p.l.Items()[len(p.l.Items())-1].Sum.ConversationID
	if selected() != last {
		t.Errorf("G moved to %s, want the last row %s", selected(), last)
	}
	p.keys("g")
	p.l.SetFocused(false)
	if row := p.row("Team"); !strings.HasPrefix(row, "▹ # Team") {
		t.Errorf("with the keys in the other pane the cursor row is %q, want it marked ▹", row)
	}
	p.keys("enter")
	if a, again := p.l.Ask(), p.l.Ask(); a != AskOpen || again != AskNothing {
		t.Errorf("enter asked %v then %v, want AskOpen once", a, again)
	}
	p.keys("/")
	if p.l.Ask() != AskFilter {
		t.Error("/ did not ask for the filter input")
	}
	p.l.SetFilter("bob")
	p.keys("esc")
	if p.l.Filter() != "" || len(p.l.Items()) != 2 || !strings.Contains(p.l.View(), "Team") {
		t.Errorf("esc did not clear the filter %q:\n%s", p.l.Filter(), p.l.View())
	}
}

// TestAClickSelectsTheRowDrawnThere: the line clicked inside the pane
// selects the row drawn on it (two lines a row, below the title); the
// title selects nothing.
func TestAClickSelectsTheRowDrawnThere(t *testing.T) {
	st, _ := uitest.NewStore(t, false)
	uitest.SeedSmall(t, st)
	p := openPage(t, st, "alice", 98, 26)
	if p.l.RowAt(0) {
		t.Error("a click on the title selected a row")
	}
	for line, want := range map[int]string{1: uitest.ChatT, 2: uitest.ChatT, 3: uitest.ChatAB, 4: uitest.ChatAB} {
		if !p.l.RowAt(line) || p.l.Selected().Sum.ConversationID != want {
			t.Errorf("a click on line %d selected %v, want %s", line, p.l.Selected(), want)
		}
	}
	if p.l.RowAt(20) {
		t.Error("a click below the rows selected one")
	}
}

// TestListPreviewShowsAFarQuoteBySeq: the newest message of the chat quotes
// seq 3, revoked, in a bucket the list does not read: its preview shows the
// quote by seq only, never the quoted text as stored.
func TestListPreviewShowsAFarQuoteBySeq(t *testing.T) {
	st, _ := uitest.NewStore(t, false)
	uitest.SeedFarQuotes(t, st)
	p := openPage(t, st, "alice", 118, 36)
	if view := p.l.View(); strings.Contains(view, "hello 3") || !strings.Contains(view, "[quoted seq 3]") {
		t.Errorf("the list preview of a quote of a far seq is not shown by seq only:\n%s", view)
	}
}

// TestNotificationRowsHaveAMarkOfTheirOwn: a notification conversation in
// the list was marked `!`, the timeline's mark of a slot that breaks the
// contract; it now has `~`, one cell, its name where a chat's is.
func TestNotificationRowsHaveAMarkOfTheirOwn(t *testing.T) {
	st, _ := uitest.NewStore(t, false)
	uitest.SeedSmall(t, st)
	uitest.SeedNotices(t, st)
	p := openPage(t, st, "alice", 98, 26)
	for _, cid := range []string{"n_team", "n_alice_bob"} {
		before, _, _ := strings.Cut(p.row(cid+" ·"), cid)
		if before != "  ~ " || projection.Width(before) != 4 {
			t.Errorf("the list row of %s is %q, want it marked ~ in one cell, its name where a chat's is", cid, p.row(cid+" ·"))
		}
	}
}

// TestTheCursorPassesOverTheNotificationHeader: the section's header is
// drawn between the chats and the notices; j from the last chat lands on
// the first notice, and a click on the header selects nothing.
func TestTheCursorPassesOverTheNotificationHeader(t *testing.T) {
	st, _ := uitest.NewStore(t, false)
	uitest.SeedSmall(t, st)
	uitest.SeedNotices(t, st)
	p := openPage(t, st, "alice", 98, 26)
	lines := strings.Split(p.l.View(), "\n")
	header := -1
	for i, l := range lines {
		if strings.HasPrefix(l, "── Notifications ─") {
			header = i
		}
	}
	if header != 5 { // the title, two chats of two lines each
		t.Fatalf("the section's header is on line %d, want 5:\n%s", header, p.l.View())
	}
	p.keys("j", "j")
	if got := p.l.Selected().Sum.ConversationID; !strings.HasPrefix(got, "n_") {
		t.Errorf("j from the last chat selected %s, want the first notice", got)
	}
	if p.l.RowAt(header) || p.l.RowAt(header+1) {
		t.Error("a click on the section's header selected a row")
	}
	if !p.l.RowAt(header+2) || !strings.HasPrefix(p.l.Selected().Sum.ConversationID, "n_") {
		t.Error("a click below the header did not select the first notice")
	}
}

// TestFilterMatchesANameThatLandsLate: a filter matches a row below the
// first screen by its ID at once, and by its name once the name lands,
// without being typed again.
func TestFilterMatchesANameThatLandsLate(t *testing.T) {
	st, _ := uitest.NewStore(t, false)
	uitest.SeedMany(t, st, 80)
	p := startPage(t, st, "alice", 118, 36)
	rest := p.untilDrawn(p.l.Load(), func() bool { return !p.l.Loading() && len(p.l.Items()) > 0 })
	if len(rest) == 0 {
		t.Fatal("nothing left to read after the first frame")
	}
	p.l.SetFilter("sg_g77")
	if v := p.l.View(); !strings.Contains(v, "sg_g77") || strings.Contains(v, "no match") {
		t.Errorf("the filter sg_g77 does not show the row by its ID at once:\n%s", v)
	}
	p.l.SetFilter("Group g77")
	if v := p.l.View(); !strings.Contains(v, "no match for Group g77") {
		t.Errorf("the filter matched a name not read yet:\n%s", v)
	}
	for _, c := range rest {
		p.run(c)
	}
	if v := p.l.View(); !strings.Contains(v, "# Group g77") || strings.Contains(v, "no match") {
		t.Errorf("the filter Group g77 does not show the row once its name landed:\n%s", v)
	}
	p.keys("enter")
	if p.l.Ask() != AskOpen || p.l.Selected().Sum.ConversationID != "sg_g77" {
		t.Errorf("enter on the filtered row did not ask to open sg_g77")
	}
}
