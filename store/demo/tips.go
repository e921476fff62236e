package demo

// Group notification details, with the JSON names of OpenIM's sdkws tips, so
// the projection renders the demo's notifications as it would a real store's.

type groupInfo struct {
	GroupID       string `json:"groupID"`
	GroupName     string `json:"groupName"`
	FaceURL       string `json:"faceURL"`
	OwnerUserID   string `json:"ownerUserID"`
	CreateTime    int64  `json:"createTime"`
	MemberCount   int    `json:"memberCount"`
	Introduction  string `json:"introduction"`
	Notification  string `json:"notification"`
	Ex            string `json:"ex"`
	Status        int32  `json:"status"`
	CreatorUserID string `json:"creatorUserID"`
	GroupType     int32  `json:"groupType"`
}

type memberInfo struct {
	GroupID        string `json:"groupID"`
	UserID         string `json:"userID"`
	RoleLevel      int32  `json:"roleLevel"`
	JoinTime       int64  `json:"joinTime"`
	Nickname       string `json:"nickname"`
	FaceURL        string `json:"faceURL"`
	JoinSource     int32  `json:"joinSource"`
	OperatorUserID string `json:"operatorUserID"`
	InviterUserID  string `json:"inviterUserID"`
	Ex             string `json:"ex"`
}

type groupCreatedTips struct {
	Group          groupInfo    `json:"group"`
	OpUser         memberInfo   `json:"opUser"`
	MemberList     []memberInfo `json:"memberList"`
	OperationTime  int64        `json:"operationTime"`
	GroupOwnerUser memberInfo   `json:"groupOwnerUser"`
}

type memberInvitedTips struct {
	Group           groupInfo    `json:"group"`
	OpUser          memberInfo   `json:"opUser"`
	InvitedUserList []memberInfo `json:"invitedUserList"`
	OperationTime   int64        `json:"operationTime"`
}

type memberKickedTips struct {
	Group          groupInfo    `json:"group"`
	OpUser         memberInfo   `json:"opUser"`
	KickedUserList []memberInfo `json:"kickedUserList"`
	OperationTime  int64        `json:"operationTime"`
}

type memberEnterTips struct {
	Group         groupInfo  `json:"group"`
	EntrantUser   memberInfo `json:"entrantUser"`
	OperationTime int64      `json:"operationTime"`
}

type memberQuitTips struct {
	Group         groupInfo  `json:"group"`
	QuitUser      memberInfo `json:"quitUser"`
	OperationTime int64      `json:"operationTime"`
}

type memberMutedTips struct {
	Group         groupInfo  `json:"group"`
	OpUser        memberInfo `json:"opUser"`
	MutedUser     memberInfo `json:"mutedUser"`
	MutedSeconds  uint32     `json:"mutedSeconds"`
	OperationTime int64      `json:"operationTime"`
}

type announcementTips struct {
	Group  groupInfo  `json:"group"`
	OpUser memberInfo `json:"opUser"`
}
