package bucket

import (
	"math"
	"strconv"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// Imported data (mongoexport, other drivers, the mongo shell) stores numbers
// as int32, int64 or double and may leave fields out, so the records of the
// small collections are read field by field: a value of an unexpected type
// reads as the zero value instead of failing the whole query. Every backend
// decodes them with these, so one odd document reads the same everywhere.

// LenientString is raw[key] as a string; numbers are formatted, anything
// else (or an absent key) is "".
func LenientString(raw bson.Raw, key string) string {
	v, err := raw.LookupErr(key)
	if err != nil {
		return ""
	}
	switch v.Type {
	case bson.TypeString:
		return v.StringValue()
	case bson.TypeInt32, bson.TypeInt64, bson.TypeDouble:
		return strconv.FormatInt(LenientInt64(raw, key), 10)
	}
	return ""
}

// LenientInt64 is raw[key] as an integer, whatever numeric type (or decimal
// string) holds it; 0 when absent, out of range or not a number.
func LenientInt64(raw bson.Raw, key string) int64 {
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
		return floatToInt64(v.Double())
	case bson.TypeDecimal128:
		f, err := strconv.ParseFloat(v.Decimal128().String(), 64)
		if err != nil {
			return 0
		}
		return floatToInt64(f)
	case bson.TypeString:
		n, _ := strconv.ParseInt(v.StringValue(), 10, 64)
		return n
	}
	return 0
}

func floatToInt64(f float64) int64 {
	if math.IsNaN(f) || f >= math.MaxInt64 || f < math.MinInt64 {
		return 0
	}
	return int64(f)
}

// LenientInt32 is LenientInt64 limited to int32 (0 when out of range).
func LenientInt32(raw bson.Raw, key string) int32 {
	n := LenientInt64(raw, key)
	if n > math.MaxInt32 || n < math.MinInt32 {
		return 0
	}
	return int32(n)
}

// LenientBool is raw[key] as a bool; a number is true when not 0.
func LenientBool(raw bson.Raw, key string) bool {
	v, err := raw.LookupErr(key)
	if err != nil {
		return false
	}
	if v.Type == bson.TypeBoolean {
		return v.Boolean()
	}
	return LenientInt64(raw, key) != 0
}

// DecodeSeqRecord reads a seq document leniently.
func DecodeSeqRecord(raw bson.Raw) SeqRecord {
	return SeqRecord{ConversationID: LenientString(raw, "conversation_id"),
		MaxSeq: LenientInt64(raw, "max_seq"), MinSeq: LenientInt64(raw, "min_seq")}
}

// DecodeSeqUser reads a seq_user document leniently.
func DecodeSeqUser(raw bson.Raw) SeqUser {
	return SeqUser{UserID: LenientString(raw, "user_id"), ConversationID: LenientString(raw, "conversation_id"),
		MinSeq: LenientInt64(raw, "min_seq"), MaxSeq: LenientInt64(raw, "max_seq"), ReadSeq: LenientInt64(raw, "read_seq")}
}

// DecodeConversation reads a conversation document leniently.
func DecodeConversation(raw bson.Raw) Conversation {
	return Conversation{OwnerUserID: LenientString(raw, "owner_user_id"), ConversationID: LenientString(raw, "conversation_id"),
		ConversationType: LenientInt32(raw, "conversation_type"), UserID: LenientString(raw, "user_id"),
		GroupID: LenientString(raw, "group_id"), MinSeq: LenientInt64(raw, "min_seq"), MaxSeq: LenientInt64(raw, "max_seq"),
		IsPinned: LenientBool(raw, "is_pinned"), CreateTime: lenientMillis(raw, "create_time")}
}

// DecodeUser reads a user document leniently.
func DecodeUser(raw bson.Raw) User {
	return User{UserID: LenientString(raw, "user_id"), Nickname: LenientString(raw, "nickname"),
		FaceURL: LenientString(raw, "face_url"), AppMangerLevel: LenientInt32(raw, "app_manger_level")}
}

// DecodeGroup reads a group document leniently.
func DecodeGroup(raw bson.Raw) Group {
	return Group{GroupID: LenientString(raw, "group_id"), GroupName: LenientString(raw, "group_name")}
}

// DecodeGroupMember reads a group_member document leniently.
func DecodeGroupMember(raw bson.Raw) GroupMember {
	return GroupMember{GroupID: LenientString(raw, "group_id"), UserID: LenientString(raw, "user_id"),
		Nickname: LenientString(raw, "nickname"), RoleLevel: LenientInt32(raw, "role_level"),
		JoinTime: LenientTime(raw, "join_time")}
}

// LenientTime is raw[key] as a time: a BSON date (how OpenIM stores its
// times), or a number of unix milliseconds; the zero time otherwise.
func LenientTime(raw bson.Raw, key string) time.Time {
	v, err := raw.LookupErr(key)
	if err != nil {
		return time.Time{}
	}
	if dt, ok := v.DateTimeOK(); ok {
		return time.UnixMilli(dt).UTC()
	}
	if ms := LenientInt64(raw, key); ms != 0 {
		return time.UnixMilli(ms).UTC()
	}
	return time.Time{}
}
