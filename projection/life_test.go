package projection

import (
	"strings"
	"testing"
	"time"

	"github.com/chatlens/chatlens/store/bucket"
)

// TestLifeIsInTimeOrderTheUndatedLast: a group message sent, read by two
// (a 2200 and the audit log), revoked by an admin, deleted for one member
// with a 2102 and for another with none, and the viewer's join: every
// change in time order with the record that dates it, the undated delete
// last as "time unknown", never given a guessed time.
func TestLifeIsInTimeOrderTheUndatedLast(t *testing.T) {
	st := bucket.StoredSlot{Seq: 7, Slot: &bucket.Slot{
		Msg:     &bucket.MsgData{SendID: "u1", SendTime: 1000},
		Revoke:  &bucket.Revoke{UserID: "u2", Role: bucket.RoleAdmin, Time: 5000},
		DelList: []string{"u4", "u3"},
	}}
	h := bucket.History{Viewer: "u3", Cid: "sg_g", Owned: true, Created: 500, CreatedFrom: "group_member.join_time", Evidence: []bucket.Evidence{
		{Kind: bucket.EvidenceDelete, At: 6000, User: "u3", Seqs: []int64{7}, Source: "2102 in n_u3_u3 seq 2"},
		{Kind: bucket.EvidenceRead, At: 3000, User: "u4", Seqs: []int64{9}, ReadSeq: 9, Source: "audit log"},
		{Kind: bucket.EvidenceRead, At: 2000, User: "u3", Seqs: []int64{7}, ReadSeq: 7, Source: "2200 in n_sg_g seq 4"},
		{Kind: bucket.EvidenceRead, At: 2500, User: "u5", Seqs: []int64{6}, ReadSeq: 6, Source: "2200 in n_sg_g seq 5"}, // before seq 7
		{Kind: bucket.EvidenceDelete, At: 2600, User: "u4", Seqs: []int64{8}, Source: "2102 in n_u4_u4 seq 1"},          // another seq
	}}
	var got []string
	for _, e := range Life(st, h) {
		got = append(got, e.Words(time.UTC))
	}
	want := []string{
		"1970-01-01 00:00:00.500  got the conversation by u3  (group_member.join_time)",
		"1970-01-01 00:00:01.000  sent by u1  (send_time)",
		"1970-01-01 00:00:02.000  read by u3  (2200 in n_sg_g seq 4)",
		"1970-01-01 00:00:03.000  read by u4  (audit log)",
		"1970-01-01 00:00:05.000  revoked by u2 (admin)  (the slot's revoke record)",
		"1970-01-01 00:00:06.000  deleted for u3  (2102 in n_u3_u3 seq 2)",
		"time unknown             deleted for u4  (" + lifeNoDelete + ")",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("life:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestLifeOfAnErasedSlotHasNoTime: a physically deleted slot's only
// change is undated, and its JSON says so with a null time.
func TestLifeOfAnErasedSlotHasNoTime(t *testing.T) {
	life := Life(bucket.StoredSlot{Seq: 3, Erased: true}, bucket.History{})
	if len(life) != 1 || life[0].What != "physically deleted" || life[0].At != 0 {
		t.Fatalf("life = %+v, want one undated physical delete", life)
	}
	b, err := life[0].MarshalJSON()
	if err != nil || !strings.HasPrefix(string(b), `{"at":null,"what":"physically deleted"`) {
		t.Errorf("json = %s (%v), want a null time", b, err)
	}
	// A delete for everyone (delete.go:72-82, IsSyncOther) is dated by
	// the 2102 stored in the chat's notification conversation.
	told := bucket.Evidence{Kind: bucket.EvidenceErase, At: later, User: "alice", Seqs: []int64{3}, Source: "2102 in n_alice_bob seq 1"}
	life = Life(bucket.StoredSlot{Seq: 3, Erased: true}, bucket.History{Evidence: []bucket.Evidence{told}})
	if len(life) != 1 || life[0].At != later || life[0].Who != "alice" || !strings.HasPrefix(life[0].Source, "2102 in n_alice_bob seq 1") {
		t.Errorf("life with its 2102 = %+v, want the physical delete dated by it", life)
	}
}
