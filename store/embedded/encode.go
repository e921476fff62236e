package embedded

import (
	"encoding/binary"
	"maps"
	"slices"
	"strconv"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store/bucket"
)

// encodeBucket is bson.Marshal of a new bucket with an _id first, as
// InsertBucket stores it, written field by field: the driver's reflection
// was a quarter of a seed's time. The bytes are the driver's (the same
// fields in the same order, nil pointers, slices and maps as null); only an
// options map of several keys differs, in key order where the driver's is
// random. ok is false for what the driver would refuse (a map key with a
// zero byte): the caller then asks the driver.
func encodeBucket(doc *bucket.Doc, id bson.ObjectID) (raw []byte, ok bool) {
	e := bsonWriter{buf: make([]byte, 0, 1024+len(doc.Msgs)*768)}
	start := e.begin()
	e.key(bson.TypeObjectID, "_id")
	e.buf = append(e.buf, id[:]...)
	e.str("doc_id", doc.DocID)
	if doc.Msgs == nil {
		e.null("msgs")
	} else {
		e.key(bson.TypeArray, "msgs")
		arr := e.begin()
		for i, s := range doc.Msgs {
			if !e.slot(strconv.Itoa(i), s) {
				return nil, false
			}
		}
		e.end(arr)
	}
	e.end(start)
	return e.buf, true
}

// bsonWriter appends BSON elements to buf.
type bsonWriter struct{ buf []byte }

// begin starts a document or array; end closes it and fills in its length.
func (e *bsonWriter) begin() int { n := len(e.buf); e.buf = append(e.buf, 0, 0, 0, 0); return n }
func (e *bsonWriter) end(at int) {
	e.buf = append(e.buf, 0)
	binary.LittleEndian.PutUint32(e.buf[at:], uint32(len(e.buf)-at))
}

func (e *bsonWriter) key(t bson.Type, k string) {
	e.buf = append(e.buf, byte(t))
	e.buf = append(e.buf, k...)
	e.buf = append(e.buf, 0)
}

func (e *bsonWriter) null(k string) { e.key(bson.TypeNull, k) }

func (e *bsonWriter) str(k, v string) {
	e.key(bson.TypeString, k)
	e.buf = binary.LittleEndian.AppendUint32(e.buf, uint32(len(v)+1))
	e.buf = append(e.buf, v...)
	e.buf = append(e.buf, 0)
}

func (e *bsonWriter) i32(k string, v int32) {
	e.key(bson.TypeInt32, k)
	e.buf = binary.LittleEndian.AppendUint32(e.buf, uint32(v))
}

func (e *bsonWriter) i64(k string, v int64) {
	e.key(bson.TypeInt64, k)
	e.buf = binary.LittleEndian.AppendUint64(e.buf, uint64(v))
}

func (e *bsonWriter) boolean(k string, v bool) {
	e.key(bson.TypeBoolean, k)
	b := byte(0)
	if v {
		b = 1
	}
	e.buf = append(e.buf, b)
}

func (e *bsonWriter) strings(k string, v []string) {
	if v == nil {
		e.null(k)
		return
	}
	e.key(bson.TypeArray, k)
	at := e.begin()
	for i, s := range v {
		e.str(strconv.Itoa(i), s)
	}
	e.end(at)
}

func (e *bsonWriter) slot(k string, s *bucket.Slot) bool {
	if s == nil {
		e.null(k)
		return true
	}
	e.key(bson.TypeEmbeddedDocument, k)
	at := e.begin()
	if !e.msg("msg", s.Msg) {
		return false
	}
	if r := s.Revoke; r == nil {
		e.null("revoke")
	} else {
		e.key(bson.TypeEmbeddedDocument, "revoke")
		ra := e.begin()
		e.i32("role", r.Role)
		e.str("user_id", r.UserID)
		e.str("nickname", r.Nickname)
		e.i64("time", r.Time)
		e.end(ra)
	}
	e.strings("del_list", s.DelList)
	e.boolean("is_read", s.IsRead)
	e.end(at)
	return true
}

func (e *bsonWriter) msg(k string, m *bucket.MsgData) bool {
	if m == nil {
		e.null(k)
		return true
	}
	e.key(bson.TypeEmbeddedDocument, k)
	at := e.begin()
	e.str("send_id", m.SendID)
	e.str("recv_id", m.RecvID)
	e.str("group_id", m.GroupID)
	e.str("client_msg_id", m.ClientMsgID)
	e.str("server_msg_id", m.ServerMsgID)
	e.i32("sender_platform_id", m.SenderPlatformID)
	e.str("sender_nickname", m.SenderNickname)
	e.str("sender_face_url", m.SenderFaceURL)
	e.i32("session_type", m.SessionType)
	e.i32("msg_from", m.MsgFrom)
	e.i32("content_type", m.ContentType)
	e.str("content", m.Content)
	e.i64("seq", m.Seq)
	e.i64("send_time", m.SendTime)
	e.i64("create_time", m.CreateTime)
	e.i32("status", m.Status)
	e.boolean("is_read", m.IsRead)
	if m.Options == nil {
		e.null("options")
	} else {
		e.key(bson.TypeEmbeddedDocument, "options")
		oa := e.begin()
		for _, name := range slices.Sorted(maps.Keys(m.Options)) {
			if strings.IndexByte(name, 0) >= 0 {
				return false
			}
			e.boolean(name, m.Options[name])
		}
		e.end(oa)
	}
	if p := m.OfflinePush; p == nil {
		e.null("offline_push")
	} else {
		e.key(bson.TypeEmbeddedDocument, "offline_push")
		pa := e.begin()
		e.str("title", p.Title)
		e.str("desc", p.Desc)
		e.str("ex", p.Ex)
		e.str("ios_push_sound", p.IOSPushSound)
		e.boolean("ios_badge_count", p.IOSBadgeCount)
		e.end(pa)
	}
	e.strings("at_user_id_list", m.AtUserIDList)
	e.str("attached_info", m.AttachedInfo)
	e.str("ex", m.Ex)
	e.end(at)
	return true
}
