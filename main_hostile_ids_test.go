package main

import (
	"strings"
	"testing"

	"github.com/chatlens/chatlens/store/bucket"
)

// hostileCID is a stored conversation ID that writes the clipboard (OSC
// 52), colours the terminal and reverses the rest of the line.
const hostileCID = "si_alice_\x1b]52;c;aGk=\a\x1b[31m\u202ebob"

// TestHostileIDsAreEscapedWhereverShown: dump's note on a viewer pulled
// nothing and shell completion show a stored conversation ID as every other
// output does, its escape sequences and bidi controls made visible.
func TestHostileIDsAreEscapedWhereverShown(t *testing.T) {
	t.Parallel()
	s := seeded(t)
	s.storeDocs(t, bucket.CollSeq, bucket.SeqRecord{ConversationID: hostileCID, MaxSeq: 3})
	s.storeDocs(t, bucket.CollMsg, bucket.NewDoc(bucket.DocID(hostileCID, 0)))
	raw := func(out string) bool { return strings.ContainsAny(out, "\x1b\a\u202e") }
	r := s.chatlens(t, "dump", "--conversation", hostileCID, "--as", "bob")
	if r.code != 0 || !strings.Contains(r.stderr, "has no conversation document for si_alice_^[]52;c;aGk=^G^[[31m<U+202E>bob") || raw(r.stderr) {
		t.Errorf("dump's note on %q: exit %d, stderr %q; want the ID escaped", hostileCID, r.code, r.stderr)
	}
	r = s.chatlens(t, "__complete", "conversations", "si_alice_")
	if r.code != 0 || !strings.Contains(r.stdout, "si_alice_^[]52;c;aGk=^G^[[31m<U+202E>bob\n") || raw(r.stdout) {
		t.Errorf("completion of si_alice_: exit %d, stdout %q; want the stored ID escaped", r.code, r.stdout)
	}
}
