package mongostore

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store/bucket"
)

// The records of the small collections are decoded leniently by the
// store's shared decoders (store/lenient.go), as the embedded backend does.

func str(raw bson.Raw, key string) string { return bucket.LenientString(raw, key) }

func boolean(raw bson.Raw, key string) bool { return bucket.LenientBool(raw, key) }
