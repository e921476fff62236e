package recordingtest

import (
	"os"
	"path/filepath"
	"testing"
)

// Every recording the tests read is in the archive, whole: a clone with
// nothing beside it runs them.
func TestEveryRecordingTravelsWithTheRepository(t *testing.T) {
	for name, files := range map[string][]string{
		OpenIM: {"README.md", "msg.json", "seq.json", "seq_user.json", "conversation.json", "user.json", "group.json",
			"group_member.json", "pull_u1.json", "pull_u6.json", "has_read_u1.json", "redis_keys.json",
			"revoke_verdicts.json", "api-calls.jsonl", "summary.json"},
		OpenIMTimed: {"README.md", "msg.json", "seq_user.json", "snapshots.json", "redis_keys.json"},
		OpenIMTimed2: {"README.md", "msg.json", "seq.json", "seq_user.json", "conversation.json", "user.json", "group.json",
			"group_member.json", "snapshots.json", "redis_keys.json"},
		Engine: {"README.md", "explain-ferretdb-v2.json"},
	} {
		dir := Dir(t, name)
		for _, f := range files {
			if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
				t.Errorf("%s/%s: %v, %v", name, f, st, err)
			}
		}
		if again := Dir(t, name); again != dir {
			t.Errorf("%s written twice in one test: %s, then %s", name, dir, again)
		}
	}
}

// A test may change its copy; the next test gets the recording as recorded.
func TestEachTestGetsItsOwnCopy(t *testing.T) {
	var msg string
	t.Run("changes it", func(t *testing.T) {
		msg = filepath.Join(Dir(t, OpenIM), "msg.json")
		if err := os.WriteFile(msg, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("reads it", func(t *testing.T) {
		fresh := filepath.Join(Dir(t, OpenIM), "msg.json")
		if st, err := os.Stat(fresh); err != nil || st.Size() == 0 || fresh == msg {
			t.Errorf("%s after another test emptied %s: %v, %v", fresh, msg, st, err)
		}
	})
}

func TestAnUnknownRecordingIsNamed(t *testing.T) {
	if err := extract(t.TempDir(), "openim-recorded-2027"); err == nil {
		t.Error("an unknown recording wrote nothing and said nothing")
	}
}
