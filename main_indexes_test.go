package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/demo"
	"github.com/chatlens/chatlens/store/mongotest"
)

// listIndexes shows every index of the collections chatlens reads, one
// line each as the server describes it.
func listIndexes(t *testing.T, client *mongo.Client, db string) []string {
	t.Helper()
	var out []string
	for _, coll := range bucket.Collections {
		cur, err := client.Database(db).Collection(coll).Indexes().List(t.Context())
		if err != nil {
			continue
		}
		for cur.Next(t.Context()) {
			out = append(out, coll+" "+cur.Current.String())
		}
		cur.Close(t.Context())
	}
	slices.Sort(out)
	return out
}

// On a database OpenIM Server has started on (its constructors in
// open-im-server pkg/common/storage/database/mgo/*.go create its indexes:
// seq and seq_user NOT unique), seed, import, revoke, dump and check work
// and leave every index exactly as OpenIM made it, and check has no
// advice. (The UI opens the store as dump and revoke do, creating none.)
func TestOpenIMIndexesSurviveSeedImportAndCheck(t *testing.T) {
	t.Parallel()
	uri, _ := mongotest.URI(t)
	db := mongotest.Database(t, uri)
	client, err := mongo.Connect(options.Client().ApplyURI(uri))
	if err != nil {
		t.Fatal(err)
	}
	defer client.Disconnect(context.Background())
	for _, ix := range []struct {
		coll   string
		unique bool
		keys   []string
	}{
		{"msg", true, []string{"doc_id"}}, {"seq", false, []string{"conversation_id"}},
		{"seq_user", false, []string{"user_id", "conversation_id"}},
		{"conversation", true, []string{"owner_user_id", "conversation_id"}},
		{"conversation", false, []string{"user_id"}}, {"conversation", false, []string{"conversation_id"}},
		{"user", true, []string{"user_id"}}, {"group", true, []string{"group_id"}},
		{"group_member", true, []string{"group_id", "user_id"}},
	} {
		var keys bson.D
		for _, k := range ix.keys {
			keys = append(keys, bson.E{Key: k, Value: 1})
		}
		opts := options.Index()
		if ix.unique {
			opts.SetUnique(true)
		}
		if _, err := client.Database(db).Collection(ix.coll).Indexes().CreateOne(t.Context(), mongo.IndexModel{Keys: keys, Options: opts}); err != nil {
			t.Fatal(err)
		}
	}
	before := listIndexes(t, client, db)
	audit := filepath.Join(t.TempDir(), "audit.log")
	mongo := func(args ...string) result {
		full := append([]string{args[0], "--mongo-uri", uri, "--db", db, "--audit-log", audit}, args[1:]...)
		var out, errs bytes.Buffer
		return result{runArgs(full, &out, &errs), out.String(), errs.String()}
	}
	if r := mongo("seed", "--conversations", "2", "--messages", "30", "--long", "0", "--seed", "2"); r.code != 0 {
		t.Fatalf("seed: exit %d: %s", r.code, r.stderr)
	}
	users := filepath.Join(t.TempDir(), "users.json")
	if err := os.WriteFile(users, []byte(`{"user_id":"zed","nickname":"Zed"}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if r := mongo("import", users, "--collection", "user"); r.code != 0 {
		t.Fatalf("import: exit %d: %s", r.code, r.stderr)
	}
	if r := mongo("revoke", "--conversation", demo.ShowcaseSingleID, "--seq", "2", "--by", "bob"); r.code != 0 {
		t.Fatalf("revoke: exit %d: %s", r.code, r.stderr)
	}
	if r := mongo("dump", "--conversation", demo.ShowcaseSingleID, "--as", "alice", "--to", "3"); r.code != 0 {
		t.Fatalf("dump: exit %d: %s", r.code, r.stderr)
	}
	r := mongo("check")
	if r.code != 0 || strings.Contains(r.stdout, "advice:") {
		t.Errorf("check on OpenIM's indexes: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if after := listIndexes(t, client, db); !slices.Equal(before, after) {
		t.Errorf("indexes changed:\nbefore %s\nafter  %s", strings.Join(before, "\n       "), strings.Join(after, "\n       "))
	}
}
