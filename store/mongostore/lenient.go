package mongostore

import (
	"math"
	"strconv"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store"
)

// Imported data (mongoexport, other drivers, the mongo shell) stores
// numbers as int32, int64 or double and may leave fields out, so the
// records of the small collections are read field by field: a value of
// an unexpected type reads as the zero value instead of failing the query.

func str(raw bson.Raw, key string) string {
	v, err := raw.LookupErr(key)
	if err != nil {
		return ""
	}
	switch v.Type {
	case bson.TypeString:
		return v.StringValue()
	case bson.TypeInt32, bson.TypeInt64, bson.TypeDouble:
		return strconv.FormatInt(num(raw, key), 10)
	}
	return ""
}

func num(raw bson.Raw, key string) int64 {
	v, err := raw.LookupErr(key)
	if err != nil {
		return 0
	}
	switch v.Type {
	case bson.TypeInt32:
		return int64(v.Int32())
	case bson.TypeInt64:
		return v.Int64()
	case bson.TypeDouble:
		f := v.Double()
		if math.IsNaN(f) || f >= math.MaxInt64 || f < math.MinInt64 {
			return 0
		}
		return int64(f)
	case bson.TypeDecimal128:
		n, err := strconv.ParseFloat(v.Decimal128().String(), 64)
		if err != nil || math.IsNaN(n) || n >= math.MaxInt64 || n < math.MinInt64 {
			return 0
		}
		return int64(n)
	case bson.TypeString:
		n, _ := strconv.ParseInt(v.StringValue(), 10, 64)
		return n
	}
	return 0
}

func num32(raw bson.Raw, key string) int32 {
	n := num(raw, key)
	if n > math.MaxInt32 || n < math.MinInt32 {
		return 0
	}
	return int32(n)
}

func boolean(raw bson.Raw, key string) bool {
	v, err := raw.LookupErr(key)
	if err != nil {
		return false
	}
	if v.Type == bson.TypeBoolean {
		return v.Boolean()
	}
	return num(raw, key) != 0
}

func decodeSeqRecord(raw bson.Raw) store.SeqRecord {
	return store.SeqRecord{ConversationID: str(raw, "conversation_id"),
		MaxSeq: num(raw, "max_seq"), MinSeq: num(raw, "min_seq")}
}

func decodeSeqUser(raw bson.Raw) store.SeqUser {
	return store.SeqUser{UserID: str(raw, "user_id"), ConversationID: str(raw, "conversation_id"),
		MinSeq: num(raw, "min_seq"), MaxSeq: num(raw, "max_seq"), ReadSeq: num(raw, "read_seq")}
}

func decodeConversation(raw bson.Raw) store.Conversation {
	return store.Conversation{OwnerUserID: str(raw, "owner_user_id"), ConversationID: str(raw, "conversation_id"),
		ConversationType: num32(raw, "conversation_type"), UserID: str(raw, "user_id"), GroupID: str(raw, "group_id"),
		MinSeq: num(raw, "min_seq"), MaxSeq: num(raw, "max_seq"), IsPinned: boolean(raw, "is_pinned")}
}

func decodeUser(raw bson.Raw) store.User {
	return store.User{UserID: str(raw, "user_id"), Nickname: str(raw, "nickname"), FaceURL: str(raw, "face_url")}
}

func decodeGroup(raw bson.Raw) store.Group {
	return store.Group{GroupID: str(raw, "group_id"), GroupName: str(raw, "group_name")}
}

func decodeGroupMember(raw bson.Raw) store.GroupMember {
	return store.GroupMember{GroupID: str(raw, "group_id"), UserID: str(raw, "user_id"), Nickname: str(raw, "nickname"),
		RoleLevel: num32(raw, "role_level"), JoinTime: num(raw, "join_time")}
}
