package mongostore

import "go.mongodb.org/mongo-driver/v2/bson"

// ExplainedCommands are the commands Explain wraps, by shape name, for the
// tests that hold them against what the backend sends.
func ExplainedCommands() map[string]bson.D {
	out := map[string]bson.D{}
	for _, s := range shapes() {
		out[s.name] = s.cmd
	}
	return out
}
