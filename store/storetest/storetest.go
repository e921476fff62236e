// Package storetest is the contract suite every store.Backend passes: the
// addressing rules, the bucket state machine, each mutation, the read path
// and raw import/export. Cases that concern the state machine go through
// store.Store, so a backend is judged by what a user would notice.
package storetest

import (
	"testing"

	"github.com/chatlens/chatlens/store"
)

// Caps tells the suite what a backend can be asked to do.
type Caps struct {
	// Concurrent is true when concurrent updates to one document are safe
	// (not FerretDB, whose update is an unlocked read-modify-write).
	Concurrent bool
	// ConcurrentSkipReason is given when the concurrent cases are skipped.
	ConcurrentSkipReason string
	// Name labels the backend in failure messages.
	Name string
	// Parallel runs the cases side by side, each on its own fresh backend.
	// It pays where a case waits on something other than this process's
	// cores (fsync, a server elsewhere); an in-process server only
	// competes with the cases for the same cores, and measured slower so.
	Parallel bool
	// ScansEveryRead says a read decodes every document of the collection
	// (FerretDB v1). Each catalogue case then reads a fresh backend of its
	// own, holding its documents alone; elsewhere the cases take turns on
	// one backend, as a fresh database costs more than the reads it
	// spares (a third of a second on DocumentDB).
	ScansEveryRead bool
}

// Run runs every contract case as a subtest. open returns a fresh, empty
// backend on each call; the suite closes it when the subtest ends.
func Run(t *testing.T, open func(t *testing.T) store.Backend, caps Caps) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if caps.Parallel {
				t.Parallel()
			}
			if c.concurrent && !caps.Concurrent {
				t.Skip(caps.ConcurrentSkipReason)
			}
			c.run(newFixture(t, open, caps))
		})
	}
}

// testCase is one contract case.
type testCase struct {
	name       string
	concurrent bool
	run        func(e *fixture)
}

var cases = []testCase{
	{name: "addressing", run: testAddressing},
	{name: "insert/one bucket", run: testInsertOneBucket},
	{name: "insert/spans buckets", run: testInsertSpansBuckets},
	{name: "insert/replayed batch", run: testInsertReplayed},
	{name: "insert/bucket exists", run: testInsertBucketExists},
	{name: "insert/duplicate key race", run: testDuplicateKeyRace},
	{name: "insert/empty slots", run: testEmptySlots},
	{name: "replay/every write", run: testReplayEveryWrite},
	{name: "revoke", run: testRevoke},
	{name: "revoke/after another writer", run: testRevokeAfterAnotherWriter},
	{name: "delete for me", run: testDeleteForMe},
	{name: "mark read/single", run: testMarkReadSingle},
	{name: "mark read/group", run: testMarkReadGroup},
	{name: "mark read/filter", run: testMarkSlotReadFilter},
	{name: "mark read/across buckets", run: testMarkReadAcrossBuckets},
	{name: "read/bucket edges", run: testReadBucketEdges},
	{name: "read/holes", run: testReadHoles},
	{name: "read/windows", run: testWindows},
	{name: "read/pull window", run: testPullWindow},
	{name: "read/bucket ids", run: testBucketIDs},
	{name: "find/by message id", run: testFindMessage},
	{name: "read/slots as whole buckets read them", run: testSlotsAsBuckets},
	{name: "read/slots read only the slots asked", run: testSlotsReadLittle},
	{name: "read/range as whole buckets read it", run: testRangeAsBuckets},
	{name: "read/range reads only the slots asked", run: testSlotRangesReadLittle},
	{name: "read/max seq reserved into an unwritten bucket", run: testReservedMaxSeq},
	{name: "read/list newest as whole buckets tell it", run: testListNewest},
	{name: "records/upserted seq documents", run: testSeqUpsertShape},
	{name: "records/mistyped fields", run: testLenientRecords},
	{name: "write targets checked", run: testCheckTargets},
	{name: "conversations/from collection", run: testConversationsFromCollection},
	{name: "seq_user/of every member", run: testSeqUsersOfMembers},
	{name: "seq_user/duplicates in the order stored", run: testSeqUserDuplicates},
	{name: "seq_user/never duplicated by a raise", run: testSeqUserNeverDuplicated},
	{name: "conversations/from doc ids", run: testConversationsFromDocIDs},
	{name: "raw/round trip", run: testRawRoundTrip},
	{name: "raw/replace same key", run: testRawReplace},
	{name: "raw/insert refuses stored keys", run: testRawInsertMode},
	{name: "raw/malformed msg", run: testRawMalformed},
	{name: "raw/short array update", run: testShortArrayUpdate},
	{name: "names and members", run: testNamesAndMembers},
	{name: "indexes", run: testIndexes},
	{name: "openim/physically deleted slots", run: testPhysicallyDeletedSlots},
	{name: "openim/join time dates", run: testJoinTimeDates},
	{name: "concurrent/overlapping inserts", concurrent: true, run: testConcurrentInserts},
	{name: "concurrent/mutations on one bucket", concurrent: true, run: testConcurrentMutations},
	{name: "concurrent/revokes of one seq", concurrent: true, run: testConcurrentRevokes},
}
