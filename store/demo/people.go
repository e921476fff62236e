package demo

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/chatlens/chatlens/store/bucket"
)

// person is a demo user. Lang picks the phrase pool their messages use.
type person struct {
	ID, Nickname, Lang string
}

// people is the cast: real-looking names, some CJK, one with an emoji, so the
// UI's width handling and sanitising are visible from the first screen.
var people = []person{
	{"alice", "Alice Chen", "en"},
	{"bob", "Bob Müller", "en"},
	{"wangfang", "王芳", "zh"},
	{"lilei", "李雷", "zh"},
	{"hana", "Hana Sato 🌸", "ja"},
	{"omar", "Omar Haddad", "en"},
	{"sofia", "Sofía García", "es"},
	{"kenji", "山田健二", "ja"},
	{"priya", "Priya Nair", "en"},
	{"lucas", "Lucas Silva 🎸", "es"},
	{"mina", "김민아", "ko"},
	{"olga", "Ольга Смирнова", "en"},
}

func personByID(id string) person {
	for _, p := range people {
		if p.ID == id {
			return p
		}
	}
	return person{ID: id, Nickname: id, Lang: "en"}
}

// groupPlan is a group and the membership changes its timeline shows.
// Positions (seqs) of the changes are decided when the conversation is laid out.
type groupPlan struct {
	ID, Name, Intro string
	Owner           string
	Admins          []string
	Members         []string // ordinary members at creation
	Invited         string   // joins later by invitation (1509): sees only from then on
	Entered         string   // joins later by link (1510)
	Quit            string   // leaves (1504): sees nothing after
	Kicked          string   // removed by an admin (1508): sees nothing after
}

// initial is everyone in the group when it is created, owner first.
func (g *groupPlan) initial() []string {
	out := append([]string{g.Owner}, g.Admins...)
	return append(out, g.Members...)
}

// everyone is each user who is ever in the group: a participant with a
// window of their own (seq_user and conversation documents).
func (g *groupPlan) everyone() []string {
	users := append(g.initial(), g.Invited, g.Entered)
	users = slices.DeleteFunc(users, func(u string) bool { return u == "" })
	return slices.Compact(users)
}

// role is the role level of uid in g (0 for a non-member).
func (g *groupPlan) role(uid string) int32 {
	if uid == g.Owner {
		return bucket.RoleOwner
	}
	if slices.Contains(g.Admins, uid) {
		return bucket.RoleAdmin
	}
	if uid != "" && (slices.Contains(g.Members, uid) || uid == g.Invited || uid == g.Entered) {
		return bucket.RoleMember
	}
	return 0
}

// The fixed groups. The first is the showcase group, the last the long one.
var (
	groupTeam = groupPlan{ID: "phoenix", Name: "Project Phoenix 🚀", Intro: "Launch planning",
		Owner: "alice", Admins: []string{"wangfang"},
		Members: []string{"bob", "lilei", "hana", "kenji", "lucas", "olga"},
		Invited: "priya", Entered: "mina", Quit: "olga", Kicked: "lucas"}
	groupFamily = groupPlan{ID: "family", Name: "家庭群 🏠", Intro: "周末聚餐",
		Owner: "wangfang", Admins: []string{"lilei"}, Members: []string{"kenji", "mina"}}
	groupBooks = groupPlan{ID: "bookclub", Name: "Book Club 📚", Intro: "One book a month",
		Owner: "sofia", Admins: []string{"priya"}, Members: []string{"omar", "olga", "lucas", "hana"}}
	groupTown = groupPlan{ID: "townsquare", Name: "Town Square", Intro: "Everyone, everything",
		Owner: "omar", Admins: []string{"alice", "kenji"},
		Members: []string{"bob", "wangfang", "lilei", "hana", "sofia", "priya", "lucas", "mina", "olga"}}
)

// singlePairs are the fixed single chats, the first being the showcase one.
var singlePairs = [][2]string{
	{"alice", "bob"}, {"alice", "wangfang"}, {"bob", "hana"}, {"wangfang", "lilei"},
	{"omar", "sofia"}, {"kenji", "mina"}, {"priya", "lucas"},
}

// extraPairs are the single chats beyond the fixed ones, in a fixed order.
func extraPairs() [][2]string {
	var out [][2]string
	for i, a := range people {
		for _, b := range people[i+1:] {
			if !slices.ContainsFunc(singlePairs, func(p [2]string) bool {
				return p == [2]string{a.ID, b.ID} || p == [2]string{b.ID, a.ID}
			}) {
				out = append(out, [2]string{a.ID, b.ID})
			}
		}
	}
	return out
}

var clubNames = []string{"Running Club 🏃", "读书会", "Weekend Hikes ⛰️", "Board Games", "写真部 📷", "Football ⚽", "Cooking 🍜", "Language Exchange"}

// generatedGroup makes the i-th extra group with members drawn from rng.
func generatedGroup(rng *rand.Rand, i int) *groupPlan {
	perm := rng.Perm(len(people))
	size := 4 + rng.IntN(5)
	ids := make([]string, size)
	for k := range ids {
		ids[k] = people[perm[k]].ID
	}
	return &groupPlan{ID: fmt.Sprintf("club%03d", i), Name: fmt.Sprintf("%s #%d", clubNames[i%len(clubNames)], i),
		Intro: "Generated demo group", Owner: ids[0], Admins: ids[1:2], Members: ids[2:]}
}
