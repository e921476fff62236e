package bench

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
)

// benchUsers is how many people talk in the generated group.
const benchUsers = 20

// longTextWords is the most words a long text message has.
const longTextWords = 159

// startTime is the send time of seq 1 (unix ms), fixed so runs compare.
const startTime int64 = 1_700_000_000_000

// message builds the message at seq of conversation cid: the same seed
// and seq always give the same message, so both layouts store identical
// data without holding the conversation in memory. Sizes follow a chat:
// mostly short text, some longer text, a few pictures and files.
func message(seed int64, cid string, seq int64) *bucket.MsgData {
	rng := rand.New(rand.NewPCG(uint64(seed), uint64(seq)))
	sender := rng.IntN(benchUsers)
	sendTime := startTime + seq*1500 + rng.Int64N(1000)
	m := &bucket.MsgData{
		SendID:           fmt.Sprintf("user%02d", sender),
		ClientMsgID:      fmt.Sprintf("%016x%016x", rng.Uint64(), rng.Uint64()),
		ServerMsgID:      fmt.Sprintf("%016x%016x", rng.Uint64(), rng.Uint64()),
		SenderPlatformID: int32(1 + rng.IntN(5)),
		SenderNickname:   fmt.Sprintf("User %02d", sender),
		SenderFaceURL:    fmt.Sprintf("https://cdn.example.com/face/user%02d.png", sender),
		MsgFrom:          bucket.MsgFromUser,
		Seq:              seq,
		SendTime:         sendTime,
		CreateTime:       sendTime - 20,
		Status:           bucket.StatusSent,
		Options:          map[string]bool{"history": true, "persistent": true, "offlinePush": true},
		OfflinePush:      &bucket.OfflinePush{Title: "new message", Desc: "", Ex: ""},
		AtUserIDList:     []string{},
	}
	switch kind, a, b := store.SplitConversationID(cid); kind {
	case bucket.SessionSingle, bucket.SessionNotification:
		m.SessionType, m.SendID, m.RecvID = kind, a, b
		if sender%2 == 1 {
			m.SendID, m.RecvID = b, a
		}
	default: // groups, and IDs of no known form, are group chats
		m.SessionType, m.GroupID = bucket.SessionGroup, a
		if kind != bucket.SessionGroup {
			m.GroupID = cid
		}
	}
	switch k := rng.IntN(100); {
	case k < 80:
		m.ContentType, m.Content = 101, jsonString(map[string]string{"content": words(rng, 3+rng.IntN(25))})
	case k < 90:
		m.ContentType, m.Content = 101, jsonString(map[string]string{"content": words(rng, 40+rng.IntN(longTextWords-39))})
	case k < 96:
		m.ContentType, m.Content = 102, jsonString(map[string]any{"sourcePicture": map[string]any{
			"url": fmt.Sprintf("https://cdn.example.com/pic/%x.jpg", rng.Uint64()), "width": 1080, "height": 1920,
			"type": "image/jpeg", "size": rng.IntN(4 << 20)}})
	default:
		m.ContentType, m.Content = 105, jsonString(map[string]any{"fileName": fmt.Sprintf("report-%d.pdf", seq),
			"fileSize": rng.IntN(50 << 20), "sourceUrl": fmt.Sprintf("https://cdn.example.com/file/%x", rng.Uint64())})
	}
	return m
}

// messages builds seqs first..first+n-1.
func messages(seed int64, cid string, first int64, n int) []*bucket.MsgData {
	out := make([]*bucket.MsgData, n)
	for i := range out {
		out[i] = message(seed, cid, first+int64(i))
	}
	return out
}

var vocabulary = []string{"the", "build", "is", "green", "again", "can", "you", "check", "meeting", "at",
	"three", "ok", "thanks", "deploy", "staging", "looks", "good", "to", "me", "lunch", "?", "!", "👍", "好的", "明天见"}

func words(rng *rand.Rand, n int) string {
	b := make([]byte, 0, n*6)
	for i := 0; i < n; i++ {
		if i > 0 {
			b = append(b, ' ')
		}
		b = append(b, vocabulary[rng.IntN(len(vocabulary))]...)
	}
	return string(b)
}

func jsonString(v any) string {
	b, _ := json.Marshal(v) // maps of strings and numbers always marshal
	return string(b)
}
