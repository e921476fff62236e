package demo

import (
	"context"
	"errors"
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
	Started                   // a demo seed began and never finished
	Complete                  // the demo seed finished
)

// marker is the document of MetaCollection that records a demo seed. It is
// written "started" before the first message and "complete" after the last,
// so a seed that was killed midway can be told from a finished one.
type marker struct {
	ID       string `bson:"_id"`
	Complete bool   `bson:"complete"`
	Seed     int64  `bson:"seed"`
}

// MarkStarted records, before any data, that a demo seed begins.
func MarkStarted(ctx context.Context, b store.Backend, seed int64) error {
	return putMarker(ctx, b, marker{ID: markerID, Seed: seed})
}

// MarkComplete records that the demo seed finished; write it last.
func MarkComplete(ctx context.Context, b store.Backend, seed int64) error {
	return putMarker(ctx, b, marker{ID: markerID, Complete: true, Seed: seed})
}

func putMarker(ctx context.Context, b store.Backend, m marker) error {
	doc, err := bson.Marshal(m)
	if err != nil {
		return err
	}
	if _, err := b.InsertRaw(ctx, MetaCollection, []bson.Raw{doc}, store.RawUpsert); err != nil {
		return fmt.Errorf("demo marker: %w", err)
	}
	return nil
}

var errMarkerFound = errors.New("marker found")

// SeedProgress reads the demo marker of b.
func SeedProgress(ctx context.Context, b store.Backend) (Progress, error) {
	var found marker
	err := b.ScanRaw(ctx, MetaCollection, "", func(doc bson.Raw) error {
		var m marker
		if bson.Unmarshal(doc, &m) == nil && m.ID == markerID {
			found = m
			return errMarkerFound
		}
		return nil
	})
	switch {
	case errors.Is(err, errMarkerFound) && found.Complete:
		return Complete, nil
	case errors.Is(err, errMarkerFound):
		return Started, nil
	case err != nil:
		return NotSeeded, fmt.Errorf("demo marker: %w", err)
	}
	return NotSeeded, nil
}
