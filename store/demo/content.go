package demo

import (
	"encoding/json"
	"strings"

	"github.com/chatlens/chatlens/store/bucket"
)

// Content types of OpenIM (OPENIM.md).
const (
	ctText         int32 = 101
	ctPicture      int32 = 102
	ctVoice        int32 = 103
	ctVideo        int32 = 104
	ctFile         int32 = 105
	ctAtText       int32 = 106
	ctMerger       int32 = 107
	ctCard         int32 = 108
	ctLocation     int32 = 109
	ctCustom       int32 = 110
	ctQuote        int32 = 114
	ctAdvancedText int32 = 117
	ctMarkdown     int32 = 118

	ntGroupCreated      int32 = 1501
	ntMemberQuit        int32 = 1504
	ntMemberKicked      int32 = 1508
	ntMemberInvited     int32 = 1509
	ntMemberEnter       int32 = 1510
	ntMemberMuted       int32 = 1512
	ntGroupAnnouncement int32 = 1519
)

// mustJSON marshals values built here from fixed shapes; failure is a bug.
func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic("demo: " + err.Error())
	}
	return string(b)
}

func textContent(s string) string {
	return mustJSON(struct {
		Content string `json:"content"`
	}{s})
}

type pictureInfo struct {
	UUID   string `json:"uuid"`
	Type   string `json:"type"`
	Size   int64  `json:"size"`
	Width  int    `json:"width"`
	Height int    `json:"height"`
	URL    string `json:"url"`
}

func pictureContent(id string, w, h int, size int64) string {
	pic := func(scale int, suffix string) pictureInfo {
		return pictureInfo{UUID: id + suffix, Type: "image/jpeg", Size: size / int64(scale*scale),
			Width: w / scale, Height: h / scale, URL: "https://cdn.example.com/img/" + id + suffix + ".jpg"}
	}
	return mustJSON(struct {
		SourcePath      string      `json:"sourcePath"`
		SourcePicture   pictureInfo `json:"sourcePicture"`
		BigPicture      pictureInfo `json:"bigPicture"`
		SnapshotPicture pictureInfo `json:"snapshotPicture"`
	}{"", pic(1, ""), pic(1, ""), pic(4, "_thumb")})
}

func voiceContent(id string, seconds int64) string {
	return mustJSON(struct {
		UUID      string `json:"uuid"`
		SoundPath string `json:"soundPath"`
		SourceURL string `json:"sourceUrl"`
		DataSize  int64  `json:"dataSize"`
		Duration  int64  `json:"duration"`
	}{id, "", "https://cdn.example.com/voice/" + id + ".m4a", seconds * 4000, seconds})
}

func videoContent(id string, seconds int64) string {
	return mustJSON(struct {
		VideoPath      string `json:"videoPath"`
		VideoUUID      string `json:"videoUUID"`
		VideoURL       string `json:"videoUrl"`
		VideoType      string `json:"videoType"`
		VideoSize      int64  `json:"videoSize"`
		Duration       int64  `json:"duration"`
		SnapshotPath   string `json:"snapshotPath"`
		SnapshotUUID   string `json:"snapshotUUID"`
		SnapshotSize   int64  `json:"snapshotSize"`
		SnapshotURL    string `json:"snapshotUrl"`
		SnapshotWidth  int    `json:"snapshotWidth"`
		SnapshotHeight int    `json:"snapshotHeight"`
	}{"", id, "https://cdn.example.com/video/" + id + ".mp4", "mp4", seconds * 350000, seconds,
		"", id + "_snap", 48000, "https://cdn.example.com/video/" + id + "_snap.jpg", 720, 1280})
}

func fileContent(id, name string, size int64) string {
	return mustJSON(struct {
		FilePath  string `json:"filePath"`
		UUID      string `json:"uuid"`
		SourceURL string `json:"sourceUrl"`
		FileName  string `json:"fileName"`
		FileSize  int64  `json:"fileSize"`
	}{"", id, "https://cdn.example.com/file/" + id + "/" + name, name, size})
}

type atUserInfo struct {
	AtUserID      string `json:"atUserID"`
	GroupNickname string `json:"groupNickname"`
}

// atTextContent mentions users; the text carries "@Nickname" as clients write it.
func atTextContent(text string, users []string) string {
	infos := make([]atUserInfo, len(users))
	var mentions []string
	for i, u := range users {
		infos[i] = atUserInfo{u, personByID(u).Nickname}
		mentions = append(mentions, "@"+personByID(u).Nickname)
	}
	return mustJSON(struct {
		Text        string       `json:"text"`
		AtUserList  []string     `json:"atUserList"`
		AtUsersInfo []atUserInfo `json:"atUsersInfo"`
		IsAtSelf    bool         `json:"isAtSelf"`
	}{strings.Join(mentions, " ") + " " + text, users, infos, false})
}

// inner is a message as clients embed it inside merger and quote contents.
type inner struct {
	ClientMsgID    string `json:"clientMsgID"`
	ServerMsgID    string `json:"serverMsgID"`
	CreateTime     int64  `json:"createTime"`
	SendTime       int64  `json:"sendTime"`
	SessionType    int32  `json:"sessionType"`
	SendID         string `json:"sendID"`
	RecvID         string `json:"recvID,omitempty"`
	GroupID        string `json:"groupID,omitempty"`
	MsgFrom        int32  `json:"msgFrom"`
	ContentType    int32  `json:"contentType"`
	SenderNickname string `json:"senderNickname"`
	Seq            int64  `json:"seq"`
	Status         int32  `json:"status"`
	TextElem       *struct {
		Content string `json:"content"`
	} `json:"textElem,omitempty"`
}

func embed(m *bucket.MsgData) inner {
	e := inner{ClientMsgID: m.ClientMsgID, ServerMsgID: m.ServerMsgID, CreateTime: m.CreateTime,
		SendTime: m.SendTime, SessionType: m.SessionType, SendID: m.SendID, RecvID: m.RecvID,
		GroupID: m.GroupID, MsgFrom: m.MsgFrom, ContentType: m.ContentType,
		SenderNickname: m.SenderNickname, Seq: m.Seq, Status: m.Status}
	if m.ContentType == ctText {
		var t struct{ Content string }
		_ = json.Unmarshal([]byte(m.Content), &t)
		e.TextElem = &struct {
			Content string `json:"content"`
		}{t.Content}
	}
	return e
}

func mergerContent(title string, msgs []*bucket.MsgData) string {
	var abstracts []string
	var multi []inner
	for _, m := range msgs {
		e := embed(m)
		multi = append(multi, e)
		if e.TextElem != nil {
			abstracts = append(abstracts, m.SenderNickname+": "+e.TextElem.Content)
		}
	}
	return mustJSON(struct {
		Title        string   `json:"title"`
		AbstractList []string `json:"abstractList"`
		MultiMessage []inner  `json:"multiMessage"`
	}{title, abstracts, multi})
}

func cardContent(uid string) string {
	p := personByID(uid)
	return mustJSON(struct {
		UserID   string `json:"userID"`
		Nickname string `json:"nickname"`
		FaceURL  string `json:"faceURL"`
		Ex       string `json:"ex"`
	}{p.ID, p.Nickname, faceURL(p.ID), ""})
}

func locationContent(desc string, lon, lat float64) string {
	return mustJSON(struct {
		Description string  `json:"description"`
		Longitude   float64 `json:"longitude"`
		Latitude    float64 `json:"latitude"`
	}{desc, lon, lat})
}

func customContent(data, desc, ext string) string {
	return mustJSON(struct {
		Data        string `json:"data"`
		Description string `json:"description"`
		Extension   string `json:"extension"`
	}{data, desc, ext})
}

func quoteContent(text string, quoted *bucket.MsgData) string {
	return mustJSON(struct {
		Text         string `json:"text"`
		QuoteMessage inner  `json:"quoteMessage"`
	}{text, embed(quoted)})
}

type entity struct {
	Type   string `json:"type"`
	Offset int    `json:"offset"`
	Length int    `json:"length"`
	URL    string `json:"url,omitempty"`
}

func advancedTextContent(text string, entities []entity) string {
	return mustJSON(struct {
		Text              string   `json:"text"`
		MessageEntityList []entity `json:"messageEntityList"`
	}{text, entities})
}

func markdownContent(md string) string { return textContent(md) }

// notificationContent wraps a tips object the way OpenIM stores notifications.
func notificationContent(tips any) string {
	return mustJSON(struct {
		Detail string `json:"detail"`
	}{mustJSON(tips)})
}

func faceURL(uid string) string { return "https://cdn.example.com/avatar/" + uid + ".png" }
