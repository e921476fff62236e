package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// conversations --format json gives each row isPinned and
// latestMsgSendTime (unix ms), and the rows come as the user's app lists
// them: pinned first, then newest message first, none last. The newest
// message's time is the one its dump prints last.
func TestConversationsJSONInTheAppsOrder(t *testing.T) {
	t.Parallel()
	s := seeded(t)
	out := s.mustRun(t, "conversations", "--as", "alice", "--format", "json")
	type row struct {
		ConversationID    string
		IsPinned          *bool
		LatestMsgSendTime *int64
	}
	var rows []row
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var r row
		if err := json.Unmarshal([]byte(line), &r); err != nil || r.IsPinned == nil || r.LatestMsgSendTime == nil {
			t.Fatalf("line %q lacks isPinned or latestMsgSendTime (%v)", line, err)
		}
		rows = append(rows, r)
	}
	pinned := 0
	for i, r := range rows {
		if *r.IsPinned {
			pinned++
		}
		if i == 0 {
			continue
		}
		p := rows[i-1]
		switch {
		case *r.IsPinned && !*p.IsPinned:
			t.Errorf("%s is pinned but comes after %s, which is not", r.ConversationID, p.ConversationID)
		case *r.IsPinned == *p.IsPinned && *p.LatestMsgSendTime != 0 && *r.LatestMsgSendTime > *p.LatestMsgSendTime,
			*r.IsPinned == *p.IsPinned && *p.LatestMsgSendTime == 0 && *r.LatestMsgSendTime != 0:
			t.Errorf("%s (newest %d) comes after %s (newest %d)", r.ConversationID, *r.LatestMsgSendTime, p.ConversationID, *p.LatestMsgSendTime)
		}
	}
	if pinned == 0 || pinned == len(rows) {
		t.Errorf("%d of %d rows pinned: the order says nothing", pinned, len(rows))
	}
	for _, r := range rows[:3] {
		objs := s.dumpJSON(t, r.ConversationID, "alice")
		var newest int64
		for _, o := range objs {
			if c, ok := o["content"].(string); ok && c != "" && o["status"] != float64(4) {
				newest = num(o["sendTime"])
			}
		}
		if newest != *r.LatestMsgSendTime {
			t.Errorf("%s: latestMsgSendTime %d, its dump's newest message was sent at %d", r.ConversationID, *r.LatestMsgSendTime, newest)
		}
	}
}
