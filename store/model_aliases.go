package store

// Transitional: the document model and codec moved to store/bucket. These
// forwards keep the packages that still say store.X (ui, main,
// store/embedded, store/mongostore, store/rediscache, store/bench) building
// until a mechanical rewrite (store.X -> bucket.X) replaces them; then this
// file is deleted. Nothing in store itself uses them.

import "github.com/chatlens/chatlens/store/bucket"

type (
	Bucket       = bucket.Bucket
	Conversation = bucket.Conversation
	Doc          = bucket.Doc
	Group        = bucket.Group
	GroupMember  = bucket.GroupMember
	MsgData      = bucket.MsgData
	OfflinePush  = bucket.OfflinePush
	Revoke       = bucket.Revoke
	SeqRecord    = bucket.SeqRecord
	SeqUser      = bucket.SeqUser
	Slot         = bucket.Slot
	StoredSlot   = bucket.StoredSlot
	User         = bucket.User
	Window       = bucket.Window
)

const (
	BucketSize          = bucket.BucketSize
	CollConversation    = bucket.CollConversation
	CollGroup           = bucket.CollGroup
	CollGroupMember     = bucket.CollGroupMember
	CollMsg             = bucket.CollMsg
	CollSeq             = bucket.CollSeq
	CollSeqUser         = bucket.CollSeqUser
	CollUser            = bucket.CollUser
	KindDocID           = bucket.KindDocID
	KindEmptySlot       = bucket.KindEmptySlot
	MsgFromUser         = bucket.MsgFromUser
	RoleAdmin           = bucket.RoleAdmin
	RoleMember          = bucket.RoleMember
	RoleOwner           = bucket.RoleOwner
	SessionGroup        = bucket.SessionGroup
	SessionNotification = bucket.SessionNotification
	SessionSingle       = bucket.SessionSingle
	SessionWriteGroup   = bucket.SessionWriteGroup
	StatusDeleted       = bucket.StatusDeleted
	StatusSent          = bucket.StatusSent
)

var (
	BucketIndex        = bucket.BucketIndex
	BucketsCovering    = bucket.BucketsCovering
	Collections        = bucket.Collections
	DecodeBucket       = bucket.DecodeBucket
	DecodeConversation = bucket.DecodeConversation
	DecodeGroup        = bucket.DecodeGroup
	DecodeGroupMember  = bucket.DecodeGroupMember
	DecodeSeqRecord    = bucket.DecodeSeqRecord
	DecodeSeqUser      = bucket.DecodeSeqUser
	DecodeSlots        = bucket.DecodeSlots
	DecodeUser         = bucket.DecodeUser
	DocID              = bucket.DocID
	DocIDForSeq        = bucket.DocIDForSeq
	EmptySlot          = bucket.EmptySlot
	FirstSeq           = bucket.FirstSeq
	LastSeq            = bucket.LastSeq
	LenientBool        = bucket.LenientBool
	LenientString      = bucket.LenientString
	NewDoc             = bucket.NewDoc
	ParseDocID         = bucket.ParseDocID
	SlotIndex          = bucket.SlotIndex
	UniqueKey          = bucket.UniqueKey
	UnsafeRune         = bucket.UnsafeRune
)
