package demo

import (
	"context"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store"
)

// MetaCollection holds chatlens's own bookkeeping beside the OpenIM
// collections; no OpenIM command, export of msg or check reads it.
const MetaCollection = "chatlens_meta"

// markerID is the _id of the document that records a demo seed.
const markerID = "demo"

// Progress is how far a demo seed recorded in a store got.
type Progress int

const (
	NotSeeded Progress = iota // no marker: not a demo chatlens seeded (imported or user data)
	Started                   // a demo seed began and never finished; nothing else was written
	Complete                  // the demo seed finished
	Adopted                   // a demo seed never finished, then something else wrote: the user's
)

// marker is the document of MetaCollection that records a demo seed. It is
// written "started" before the first message and "complete" after the last,
// so a seed that was killed midway can be told from a finished one.
type marker struct {
	ID       string `bson:"_id"`
	Complete bool   `bson:"complete"`
	Seed     int64  `bson:"seed"`
	Adopted  bool   `bson:"adopted,omitempty"`
}

// MarkStarted records, before any data, that a demo seed begins.
func MarkStarted(ctx context.Context, b store.RawDocs, seed int64) error {
	return putMarker(ctx, b, marker{ID: markerID, Seed: seed})
}

// MarkComplete records that the demo seed finished; write it last.
func MarkComplete(ctx context.Context, b store.RawDocs, seed int64) error {
	return putMarker(ctx, b, marker{ID: markerID, Complete: true, Seed: seed})
}

func putMarker(ctx context.Context, b store.RawDocs, m marker) error {
	doc, err := bson.Marshal(m)
	if err != nil {
		return err
	}
	if _, err := b.InsertRaw(ctx, MetaCollection, []bson.Raw{doc}, store.RawUpsert); err != nil {
		return fmt.Errorf("demo marker: %w", err)
	}
	return nil
}

// Adopt marks an unfinished demo seed in b as the user's, so that no first
// run ever empties it: every command that may write into an embedded store
// calls it before writing (an import into an interrupted first run's file
// must survive the next run). Other stores are left as they are.
func Adopt(ctx context.Context, b store.RawDocs) error {
	var found []bson.Raw
	err := b.ScanRaw(ctx, MetaCollection, "", func(doc bson.Raw) error {
		found = append(found, doc)
		return nil
	})
	if err != nil {
		return fmt.Errorf("demo marker: %w", err)
	}
	if progressOf(found) != Started {
		return nil
	}
	var m marker
	if err := bson.Unmarshal(markerIn(found), &m); err != nil {
		return fmt.Errorf("demo marker: %w", err)
	}
	m.Adopted = true
	return putMarker(ctx, b, m)
}

// SeedProgress reads the demo marker of b.
func SeedProgress(ctx context.Context, b store.RawDocs) (Progress, error) {
	var found []bson.Raw
	err := b.ScanRaw(ctx, MetaCollection, "", func(doc bson.Raw) error {
		found = append(found, doc)
		return nil
	})
	if err != nil {
		return NotSeeded, fmt.Errorf("demo marker: %w", err)
	}
	return progressOf(found), nil
}

// markerIn finds the demo marker among the documents of MetaCollection.
func markerIn(docs []bson.Raw) bson.Raw {
	for _, doc := range docs {
		if id, ok := doc.Lookup("_id").StringValueOK(); ok && id == markerID {
			return doc
		}
	}
	return nil
}

// progressOf reads the demo marker among the documents of MetaCollection.
func progressOf(docs []bson.Raw) Progress {
	var m marker
	doc := markerIn(docs)
	switch {
	case doc == nil || bson.Unmarshal(doc, &m) != nil:
		return NotSeeded
	case m.Complete:
		return Complete
	case m.Adopted:
		return Adopted
	}
	return Started
}
