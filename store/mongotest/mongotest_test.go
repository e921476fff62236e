package mongotest

import (
	"context"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

func connect(t *testing.T, uri string) *mongo.Client {
	t.Helper()
	c, err := mongo.Connect(options.Client().ApplyURI(uri).SetServerSelectionTimeout(time.Second))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Disconnect(context.Background()) })
	return c
}

func TestStopCutsClientsAndRestartKeepsData(t *testing.T) {
	s := Start(t)
	db := Database(t, s.URI())
	c := connect(t, s.URI())
	coll := c.Database(db).Collection("seq")
	if _, err := coll.InsertOne(t.Context(), bson.D{{Key: "conversation_id", Value: "sg_g"}, {Key: "max_seq", Value: 7}}); err != nil {
		t.Fatal(err)
	}

	s.Stop()
	s.Stop() // twice is harmless
	if err := coll.FindOne(t.Context(), bson.D{}).Err(); err == nil {
		t.Fatal("a client still read from a stopped server")
	}

	addr := s.Addr()
	s.Restart()
	if s.Addr() != addr {
		t.Fatalf("restart moved the server from %s to %s", addr, s.Addr())
	}
	var got struct {
		MaxSeq int64 `bson:"max_seq"`
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		err := coll.FindOne(t.Context(), bson.D{{Key: "conversation_id", Value: "sg_g"}}).Decode(&got)
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no answer after restart: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if got.MaxSeq != 7 {
		t.Errorf("after restart max_seq = %d, want the 7 written before the stop", got.MaxSeq)
	}
}

func TestDatabasesAreFreshPerCall(t *testing.T) {
	t.Setenv(EnvURI, "")
	uri, real := URI(t)
	if real {
		t.Fatal("URI reported a real MongoDB with the variable empty")
	}
	a, b := Database(t, uri), Database(t, uri)
	if a == b {
		t.Fatalf("two calls gave the same database %s", a)
	}
	c := connect(t, uri)
	if _, err := c.Database(a).Collection("msg").InsertOne(t.Context(), bson.D{{Key: "doc_id", Value: "x:0"}}); err != nil {
		t.Fatal(err)
	}
	n, err := c.Database(b).Collection("msg").CountDocuments(t.Context(), bson.D{})
	if err != nil || n != 0 {
		t.Errorf("database %s sees %d documents of %s (%v)", b, n, a, err)
	}
}

func TestURIPrefersRealMongoDB(t *testing.T) {
	t.Setenv(EnvURI, "mongodb://real.example:27017")
	if uri, real := URI(t); !real || uri != "mongodb://real.example:27017" {
		t.Errorf("URI = %q, %v; want the variable's value, real", uri, real)
	}
}
