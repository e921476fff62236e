package demo

import (
	"math/rand/v2"

	"github.com/chatlens/chatlens/store/bucket"
)

// baseTime is the fixed start of the demo's history (2024-01-08 09:00 UTC),
// so a seed always produces the same documents.
const baseTime int64 = 1704704400000

// conv is one conversation as it is laid out: its messages by seq not yet
// written (nil is a hole), the writes that follow them, and each member's
// window and read position. Messages are written a few batches at a time
// while the conversation is planned (see writer.flush), so memory stays
// flat however long it is; the last ones stay for quotes and forwards.
type conv struct {
	cid   string
	kind  int32
	pair  [2]string  // single chats
	group *groupPlan // group chats
	msgs  []*bucket.MsgData
	base  int64   // seqs before msgs[0]: written and dropped
	holes []int64 // the seq of every hole (a handful)
	count int     // messages planned, holes not included

	revokes []revokePlan
	deletes []deletePlan
	// received: in a single chat, the seqs each user received, rising
	// (what their read mark names: noticeBook.reads)
	received map[string][]int64
	leftAt   map[string]int64 // when each who quit or was kicked left, ms
	// windows per participant (everyone who ever was one, kicked users too)
	users   []string
	minSeq  map[string]int64 // seq_user.min_seq (late joiners)
	endSeq  map[string]int64 // conversation.max_seq (left or kicked)
	readSeq map[string]int64
	joined  map[string]int64 // join time, ms (group_member.join_time)
	current []string         // group members at the end (group_member documents)
	pinned  map[string]bool
	// membersKnown: users, current and their windows are final from the
	// start of the planning (no one joins or leaves), so the membership
	// documents go before the messages; membersSent: they are handed over.
	membersKnown, membersSent bool
	// flushedEarly: some of it was handed to the writer while planned;
	// readsWritten: its read flags and read seqs are set in the documents
	// gathered for a bulk writer, not by mark reads.
	flushedEarly, readsWritten bool
}

type revokePlan struct {
	seq int64
	rev bucket.Revoke
}

type deletePlan struct {
	seq int64
	uid string
}

// planner draws every random choice from one PCG stream.
type planner struct {
	rng   *rand.Rand
	clock int64
	c     *conv
	// flush, when set, writes out the planned messages of c once they pass
	// windowSize; err is its first failure, which stops the planning.
	flush func() error
	err   error
	texts map[string]string // see textContent
	notes *noticeBook       // the notifications of the writes planned
}

// windowSize is how many planned messages a conversation holds before the
// oldest are written out; a variable so tests can make it small.
var windowSize = 5 * batchSize

// top is the highest seq planned so far.
func (c *conv) top() int64 { return c.base + int64(len(c.msgs)) }

// last is the message just planned.
func (c *conv) last() *bucket.MsgData { return c.msgs[len(c.msgs)-1] }

// grew writes out the oldest messages once the window is full.
func (p *planner) grew() {
	if p.flush != nil && p.err == nil && len(p.c.msgs) >= windowSize {
		p.err = p.flush()
	}
}

func (p *planner) chance(pct float64) bool { return p.rng.Float64()*100 < pct }
func (p *planner) pick(xs []string) string { return xs[p.rng.IntN(len(xs))] }

// hexID is a 32-hex-digit ID like OpenIM's client and server message IDs:
// two draws, each as %016x (written by hand: fmt took a sixth of a seed).
func (p *planner) hexID() string { return hexFrom(p.rng) }

func hexFrom(r *rand.Rand) string {
	var b [32]byte
	putHex16(b[:16], r.Uint64())
	putHex16(b[16:], r.Uint64())
	return string(b[:])
}

// putHex16 writes v into dst as 16 lower-case hex digits, zero-padded.
func putHex16(dst []byte, v uint64) {
	const digits = "0123456789abcdef"
	for i := 15; i >= 0; i-- {
		dst[i] = digits[v&15]
		v >>= 4
	}
}

// textContent is textContent(s), encoded once per distinct text: the
// texts come from a small pool of phrases.
func (p *planner) textContent(s string) string {
	if c, ok := p.texts[s]; ok {
		return c
	}
	if p.texts == nil {
		p.texts = map[string]string{}
	}
	c := textContent(s)
	p.texts[s] = c
	return c
}

// advance moves the conversation clock by between lo and hi seconds.
func (p *planner) advance(lo, hi int) { p.clock += int64(lo+p.rng.IntN(hi-lo+1)) * 1000 }

func platformOf(uid string) int32 {
	var h int32
	for _, r := range uid {
		h += r
	}
	return 1 + h%5
}

// add appends a message from sender at the next seq.
func (p *planner) add(sender string, from, ct int32, content string) *bucket.MsgData {
	c := p.c
	sp := personByID(sender)
	m := &bucket.MsgData{SendID: sender, ClientMsgID: p.hexID(), ServerMsgID: p.hexID(),
		SenderPlatformID: platformOf(sender), SenderNickname: sp.Nickname, SenderFaceURL: faceURL(sender),
		SessionType: c.kind, MsgFrom: from, ContentType: ct, Content: content,
		Seq: c.top() + 1, SendTime: p.clock, CreateTime: p.clock - int64(p.rng.IntN(800)),
		Status: bucket.StatusSent}
	if c.kind == bucket.SessionSingle {
		m.RecvID = c.pair[0]
		if sender == c.pair[0] {
			m.RecvID = c.pair[1]
		}
		c.received[m.RecvID] = append(c.received[m.RecvID], m.Seq)
	} else {
		m.GroupID = c.group.ID
	}
	if from == bucket.MsgFromSystem {
		m.SenderPlatformID = 0
	}
	c.msgs = append(c.msgs, m)
	c.count++
	p.grew()
	return m
}

// hole reserves the next seq without a message (a seq allocated, never stored).
func (p *planner) hole() {
	p.c.holes = append(p.c.holes, p.c.top()+1)
	p.c.msgs = append(p.c.msgs, nil)
	p.grew()
}

func (p *planner) text(sender string) string {
	pool := phrases[personByID(sender).Lang]
	s := pool[p.rng.IntN(len(pool))]
	if p.chance(20) {
		s += " " + p.pick(emoji)
	}
	return s
}

// recentText finds a text message among the last few, for quotes and forwards.
func (p *planner) recentText(back int) *bucket.MsgData {
	for i := len(p.c.msgs) - 1; i >= 0 && i >= len(p.c.msgs)-back; i-- {
		if m := p.c.msgs[i]; m != nil && m.ContentType == ctText {
			return m
		}
	}
	return nil
}

var fileNames = []string{"Q3-report.pdf", "roadmap-2024.xlsx", "会议纪要.docx", "logo-final-v7.png",
	"contract_signed.pdf", "設計書.pptx", "build-logs.zip", "photos.tar.gz"}

var places = []struct {
	desc     string
	lon, lat float64
}{
	{"Blue Bottle Coffee, Shibuya", 139.7016, 35.6580},
	{"天安门广场", 116.3975, 39.9087},
	{"Plaza Mayor, Madrid", -3.7074, 40.4155},
	{"Office — 5th floor", 121.4737, 31.2304},
}

// randomMessage adds one ordinary user message of a weighted content type.
func (p *planner) randomMessage(sender string, others []string) {
	r := p.rng.IntN(100)
	id := p.hexID()[:12]
	switch {
	case r < 66:
		p.add(sender, bucket.MsgFromUser, ctText, p.textContent(p.text(sender)))
	case r < 72:
		p.add(sender, bucket.MsgFromUser, ctPicture, pictureContent(id, 1080+p.rng.IntN(3)*360, 1440, int64(200000+p.rng.IntN(2000000))))
	case r < 76:
		p.add(sender, bucket.MsgFromUser, ctVoice, voiceContent(id, int64(1+p.rng.IntN(59))))
	case r < 78:
		p.add(sender, bucket.MsgFromUser, ctVideo, videoContent(id, int64(3+p.rng.IntN(120))))
	case r < 81:
		p.add(sender, bucket.MsgFromUser, ctFile, fileContent(id, p.pick(fileNames), int64(10000+p.rng.IntN(20000000))))
	case r < 86:
		if q := p.recentText(8); q != nil {
			p.add(sender, bucket.MsgFromUser, ctQuote, quoteContent(p.text(sender), q))
		} else {
			p.add(sender, bucket.MsgFromUser, ctText, p.textContent(p.text(sender)))
		}
	case r < 90 && p.c.kind == bucket.SessionGroup && len(others) > 0:
		who := []string{p.pick(others)}
		p.add(sender, bucket.MsgFromUser, ctAtText, atTextContent(p.text(sender), who)).AtUserIDList = who
	case r < 92:
		p.add(sender, bucket.MsgFromUser, ctMarkdown, markdownContent("**"+p.text(sender)+"**\n\n- [x] done\n- [ ] todo"))
	case r < 94:
		pl := places[p.rng.IntN(len(places))]
		p.add(sender, bucket.MsgFromUser, ctLocation, locationContent(pl.desc, pl.lon, pl.lat))
	case r < 95:
		p.add(sender, bucket.MsgFromUser, ctCard, cardContent(p.pick(peopleIDs())))
	case r < 96:
		p.add(sender, bucket.MsgFromUser, ctCustom, customContent(`{"type":"poll","question":"Friday lunch?"}`, "poll", ""))
	case r < 97:
		text := p.text(sender)
		p.add(sender, bucket.MsgFromUser, ctAdvancedText, advancedTextContent(text, []entity{{Type: "bold", Offset: 0, Length: min(4, len([]rune(text)))}}))
	default:
		var fwd []*bucket.MsgData
		for i := len(p.c.msgs) - 1; i >= 0 && len(fwd) < 3; i-- {
			if m := p.c.msgs[i]; m != nil && m.ContentType == ctText {
				fwd = append([]*bucket.MsgData{m}, fwd...)
			}
		}
		if len(fwd) == 0 {
			p.add(sender, bucket.MsgFromUser, ctText, p.textContent(p.text(sender)))
			return
		}
		p.add(sender, bucket.MsgFromUser, ctMerger, mergerContent("Chat history", fwd))
	}
}

func peopleIDs() []string {
	ids := make([]string, len(people))
	for i, pp := range people {
		ids[i] = pp.ID
	}
	return ids
}

func without(xs []string, drop string) []string {
	out := make([]string, 0, len(xs))
	for _, x := range xs {
		if x != drop {
			out = append(out, x)
		}
	}
	return out
}
