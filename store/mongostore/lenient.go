package mongostore

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store"
)

// The records of the small collections are decoded leniently by the
// store's shared decoders (store/lenient.go), as the embedded backend does.

func str(raw bson.Raw, key string) string { return store.LenientString(raw, key) }

func boolean(raw bson.Raw, key string) bool { return store.LenientBool(raw, key) }
