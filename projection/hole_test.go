package projection

import (
	"encoding/json"
	"testing"

	"github.com/chatlens/chatlens/store/bucket"
)

// A hole prints as the stand-in OpenIM returns for it (mgo/msg.go
// FindSeqs): seq, status 4 and the previous message's send time. The
// stand-in OpenIM caches in Redis (status 4, nothing else but seq and
// send time) is such a hole, never a message with empty content; whatever
// else a hole's slot holds (a physical delete's {msg: null}, a revoke, a
// del_list, a read flag) shows nothing.
func TestHolesAreOpenIMsStandIns(t *testing.T) {
	standIn := bucket.StoredSlot{Seq: 7, Cached: true, Slot: &bucket.Slot{Msg: &bucket.MsgData{Seq: 7, Status: bucket.StatusDeleted, SendTime: 1700000000006}}}
	physical := bucket.StoredSlot{Seq: 7, Slot: &bucket.Slot{IsRead: true, DelList: []string{"bob"}}}
	for name, c := range map[string]struct {
		slot     bucket.StoredSlot
		sendTime int64
	}{
		"cached stand-in":               {standIn, 1700000000006},
		"physically deleted, then read": {physical, 0},
	} {
		t.Run(name, func(t *testing.T) {
			m := View(c.slot, "", "bob", Conv{ID: single}, nil)
			if !m.Hole || m.Problem != "" || m.SendTime != c.sendTime {
				t.Fatalf("View = hole %v, problem %q, send time %d; want a hole at %d", m.Hole, m.Problem, m.SendTime, c.sendTime)
			}
			if got := Summary(m); got != "[no message]" {
				t.Errorf("Summary = %q", got)
			}
			m.SendTime = 1700000000005 // as dump fills in for a stored hole
			b, err := json.Marshal(m)
			if want := holeJSON("1700000000005"); err != nil || string(b) != want {
				t.Errorf("JSON = %s, %v; want %s", b, err, want)
			}
		})
	}
}
