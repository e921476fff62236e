package mongostore_test

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/check"
	"github.com/chatlens/chatlens/store/mongotest"
)

// createLikeOpenIM creates indexes the way OpenIM Server's constructors do
// (open-im-server pkg/common/storage/database/mgo: NewMsgMongo,
// NewSeqConversationMongo, NewSeqUserMongo, NewConversationMongo,
// NewUserMongo, NewGroupMongo, NewGroupMember): keys only, SetUnique(true)
// where OpenIM asks for it, never a name, so the driver names them.
func createLikeOpenIM(t *testing.T, uri, db string) {
	t.Helper()
	client, err := mongo.Connect(options.Client().ApplyURI(uri))
	if err != nil {
		t.Fatal(err)
	}
	defer client.Disconnect(context.Background())
	ix := func(coll string, unique bool, keys ...string) {
		var d bson.D
		for _, k := range keys {
			d = append(d, bson.E{Key: k, Value: 1})
		}
		opts := options.Index()
		if unique {
			opts.SetUnique(true)
		}
		if _, err := client.Database(db).Collection(coll).Indexes().CreateOne(t.Context(), mongo.IndexModel{Keys: d, Options: opts}); err != nil {
			t.Fatalf("create %s %v: %v", coll, keys, err)
		}
	}
	ix("msg", true, "doc_id")
	ix("seq", false, "conversation_id")
	ix("seq_user", false, "user_id", "conversation_id")
	ix("conversation", true, "owner_user_id", "conversation_id")
	ix("conversation", false, "user_id")
	ix("conversation", false, "conversation_id")
	ix("user", true, "user_id")
	ix("group", true, "group_id")
	ix("group_member", true, "group_id", "user_id")
}

// indexSpecs lists every index of the collections chatlens reads, as the
// server describes them, one line each.
func indexSpecs(t *testing.T, uri, db string) []string {
	t.Helper()
	client, err := mongo.Connect(options.Client().ApplyURI(uri))
	if err != nil {
		t.Fatal(err)
	}
	defer client.Disconnect(context.Background())
	var out []string
	for _, coll := range bucket.Collections {
		cur, err := client.Database(db).Collection(coll).Indexes().List(t.Context())
		if err != nil {
			continue // no such collection
		}
		for cur.Next(t.Context()) {
			out = append(out, coll+" "+cur.Current.String())
		}
		cur.Close(t.Context())
	}
	slices.Sort(out)
	return out
}

// specLine shows one index of a createIndexes command with every field it
// carries, so an extra option (unique: false, a collation) shows up.
func specLine(coll string, spec bson.Raw) string {
	elems, _ := spec.Elements()
	var parts []string
	for _, e := range elems {
		parts = append(parts, e.Key()+"="+e.Value().String())
	}
	return coll + " " + strings.Join(parts, " ")
}

// sentSpecs lists the index specs of every createIndexes command sent.
func sentSpecs(rec *sentCommands) []string {
	var out []string
	for _, cmd := range rec.named("createIndexes") {
		coll := cmd.Lookup("createIndexes").StringValue()
		specs, _ := cmd.Lookup("indexes").Array().Values()
		for _, s := range specs {
			out = append(out, specLine(coll, s.Document()))
		}
	}
	slices.Sort(out)
	return out
}

// On a database where OpenIM Server created its indexes, chatlens sends no
// createIndexes at all, leaves every index as it was, and check has nothing
// to say about them.
func TestEnsureIndexesLeavesOpenIMsIndexesAlone(t *testing.T) {
	uri := mongotest.Start(t).URI()
	db := mongotest.Database(t, uri)
	createLikeOpenIM(t, uri, db)
	before := indexSpecs(t, uri, db)
	b, rec := openRecorded(t, uri, db)

	if err := b.EnsureIndexes(t.Context()); err != nil {
		t.Fatalf("EnsureIndexes on OpenIM's indexes: %v", err)
	}
	if sent := sentSpecs(rec); len(sent) != 0 {
		t.Errorf("chatlens sent createIndexes on a database OpenIM had indexed:\n%s", strings.Join(sent, "\n"))
	}
	if after := indexSpecs(t, uri, db); !slices.Equal(before, after) {
		t.Errorf("indexes changed:\nbefore %s\nafter  %s", strings.Join(before, "\n       "), strings.Join(after, "\n       "))
	}
	rep, err := check.Run(t.Context(), store.New(b, store.Options{}), "", nil)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	rep.Write(&out)
	if rep.Problems() != 0 || len(rep.Advice) != 0 {
		t.Errorf("check on OpenIM's own indexes:\n%s", out.String())
	}
}

// On an empty database chatlens creates exactly OpenIM's indexes: the same
// keys, unique only where OpenIM sets it (never an explicit unique: false),
// and the names the driver gives OpenIM's unnamed indexes.
func TestEnsureIndexesSendsOpenIMsSpecs(t *testing.T) {
	uri := mongotest.Start(t).URI()
	b, rec := openRecorded(t, uri, mongotest.Database(t, uri))
	if err := b.EnsureIndexes(t.Context()); err != nil {
		t.Fatal(err)
	}
	want := []string{
		`conversation key={"conversation_id": {"$numberInt":"1"}} name="conversation_id_1"`,
		`conversation key={"owner_user_id": {"$numberInt":"1"},"conversation_id": {"$numberInt":"1"}} name="owner_user_id_1_conversation_id_1" unique=true`,
		`conversation key={"user_id": {"$numberInt":"1"}} name="user_id_1"`,
		`group key={"group_id": {"$numberInt":"1"}} name="group_id_1" unique=true`,
		`group_member key={"group_id": {"$numberInt":"1"},"user_id": {"$numberInt":"1"}} name="group_id_1_user_id_1" unique=true`,
		`msg key={"doc_id": {"$numberInt":"1"}} name="doc_id_1" unique=true`,
		`seq key={"conversation_id": {"$numberInt":"1"}} name="conversation_id_1"`,
		`seq_user key={"user_id": {"$numberInt":"1"},"conversation_id": {"$numberInt":"1"}} name="user_id_1_conversation_id_1"`,
		`user key={"user_id": {"$numberInt":"1"}} name="user_id_1" unique=true`,
	}
	if got := sentSpecs(rec); !slices.Equal(got, want) {
		t.Errorf("createIndexes specs sent:\n%s\nwant OpenIM's:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	rec.reset()
	if err := b.EnsureIndexes(t.Context()); err != nil {
		t.Fatal(err)
	}
	if sent := sentSpecs(rec); len(sent) != 0 {
		t.Errorf("second EnsureIndexes sent %v", sent)
	}
}

// An index someone made with OpenIM's keys but other options, or with
// OpenIM's name on other keys, is left standing: chatlens creates nothing
// beside it (MongoDB would refuse OpenIM's spec, or chatlens's), does not
// fail, and check advises without asking for a drop.
func TestEnsureIndexesNeverCreatesAConflictingSpec(t *testing.T) {
	uri := mongotest.Start(t).URI()
	db := mongotest.Database(t, uri)
	client, err := mongo.Connect(options.Client().ApplyURI(uri))
	if err != nil {
		t.Fatal(err)
	}
	defer client.Disconnect(context.Background())
	mk := func(coll, name string, unique bool, keys ...string) {
		var d bson.D
		for _, k := range keys {
			d = append(d, bson.E{Key: k, Value: 1})
		}
		opts := options.Index().SetName(name)
		if unique {
			opts.SetUnique(true)
		}
		if _, err := client.Database(db).Collection(coll).Indexes().CreateOne(t.Context(), mongo.IndexModel{Keys: d, Options: opts}); err != nil {
			t.Fatal(err)
		}
	}
	mk("seq", "by_conversation", true, "conversation_id")                             // OpenIM's keys, unique, another name
	mk("conversation", "user_id_1", false, "owner_user_id")                           // OpenIM's name, other keys
	mk("seq_user", "user_id_1_conversation_id_1", true, "user_id", "conversation_id") // OpenIM's name and keys, unique
	before := indexSpecs(t, uri, db)
	b, rec := openRecorded(t, uri, db)

	if err := b.EnsureIndexes(t.Context()); err != nil {
		t.Fatalf("EnsureIndexes beside conflicting indexes: %v", err)
	}
	for _, s := range sentSpecs(rec) {
		if strings.HasPrefix(s, "seq ") || strings.HasPrefix(s, "seq_user ") || strings.Contains(s, `name="user_id_1"`) && strings.HasPrefix(s, "conversation ") {
			t.Errorf("sent a spec that clashes with a present index: %s", s)
		}
	}
	after := indexSpecs(t, uri, db)
	for _, ix := range before {
		if !slices.Contains(after, ix) {
			t.Errorf("index %s changed or went away", ix)
		}
	}
	rep, err := check.Run(t.Context(), store.New(b, store.Options{}), "", nil)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	rep.Write(&out)
	if rep.Problems() != 0 {
		t.Errorf("a conflicting index is advice, not a problem:\n%s", out.String())
	}
	for _, want := range []string{"by_conversation", "user_id_1 {owner_user_id: 1}", "user_id_1_conversation_id_1 {user_id: 1, conversation_id: 1} unique"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("check does not advise about %s:\n%s", want, out.String())
		}
	}
	if strings.Contains(strings.ToLower(out.String()), "drop") {
		t.Errorf("check asks for a drop:\n%s", out.String())
	}
}
