package ui

import (
	"testing"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
)

// TestGoldenInspectorReadBy: in a group the inspector says which of the
// other members have read the message under the cursor (read seq >= its
// seq) and which not; alice sent seq 15, so she is not counted
// (openim-sdk-core internal/conversation_msg/read_drawing.go: a client
// never marks its own messages read).
func TestGoldenInspectorReadBy(t *testing.T) {
	s := startScreenWith(t, func(st *store.Store) {
		insertRaw(t, st, bucket.CollSeqUser,
			bucket.SeqUser{UserID: "bob", ConversationID: chatT, ReadSeq: 20},
			bucket.SeqUser{UserID: "carol", ConversationID: chatT, ReadSeq: 10})
	})
	s.keys("/")
	s.typeText(chatT)
	s.keys("enter", "enter")
	s.waitFor("team note 30")
	s.keys(":")
	s.typeText("15")
	s.keys("enter")
	s.waitFor("▸ 15 ")
	s.keys("i")
	s.waitFor("read by 1 of 2: Bob", "not read by 1 of 2: Carol")
	s.check()
}
