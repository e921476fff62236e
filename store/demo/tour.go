package demo

import (
	"context"

	"github.com/chatlens/chatlens/store"
)

// TourViewer is the user the README's tour starts with: the demo's first
// conversation is hers and Bob's.
const TourViewer = "alice"

// TourViewerOf returns TourViewer when b holds the demo's showcase chat
// among her conversations (one round trip), so a UI started with no --as
// on a demo store opens as the README says; "" on any other store.
func TourViewerOf(ctx context.Context, b store.Directory) (string, error) {
	convs, err := b.Conversations(ctx, TourViewer)
	if err != nil {
		return "", err
	}
	for _, c := range convs {
		if c.ConversationID == ShowcaseSingleID {
			return TourViewer, nil
		}
	}
	return "", nil
}
