package mongostore

import (
	"context"
	"sync"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
	"go.mongodb.org/mongo-driver/v2/mongo/readconcern"
	"go.mongodb.org/mongo-driver/v2/mongo/readpref"
	"go.mongodb.org/mongo-driver/v2/mongo/writeconcern"
)

// causalClock makes every operation of a Backend causally consistent with
// the ones before it, so an operator reads their own writes even from a
// secondary. A mongo.Session must not be used by two goroutines at once,
// and concurrent retryable writes on one session id clash on the server,
// so each operation gets its own causally consistent session, started from
// the newest cluster and operation times this Backend has seen and folding
// its own back in: one causal chain, no shared session in flight.
type causalClock struct {
	client *mongo.Client
	mu     sync.Mutex
	anchor *mongo.Session // holds the newest times; never runs an operation
}

var causalOpts = options.Session().SetCausalConsistency(true)

// majorityUnlessSet gives writes majority write concern and reads majority
// read concern, unless the URI chose its own (w=, journal=, wtimeoutMS=,
// readConcernLevel=). MongoDB promises read-your-writes in a causally
// consistent session across a failover only with both at majority: a
// write acknowledged by the primary alone can be rolled back when another
// member is elected, and a local read can see data that is then rolled back.
func majorityUnlessSet(co *options.ClientOptions) {
	if co.WriteConcern == nil {
		co.SetWriteConcern(writeconcern.Majority())
	}
	if co.ReadConcern == nil {
		co.SetReadConcern(readconcern.Majority())
	}
}

// probeSessions returns a clock when the deployment accepts a command in an
// explicit causally consistent session, nil otherwise.
func probeSessions(ctx context.Context, client *mongo.Client, rp *readpref.ReadPref) *causalClock {
	anchor, err := client.StartSession(causalOpts)
	if err != nil {
		return nil
	}
	c := &causalClock{client: client, anchor: anchor}
	err = c.run(ctx, func(sctx context.Context) error { return client.Ping(sctx, rp) })
	if err != nil {
		anchor.EndSession(ctx)
		return nil
	}
	return c
}

// run calls fn with a context carrying a causally consistent session.
// A nil clock runs fn without a session.
func (c *causalClock) run(ctx context.Context, fn func(context.Context) error) error {
	if c == nil {
		return fn(ctx)
	}
	sess, err := c.client.StartSession(causalOpts)
	if err != nil {
		return err
	}
	defer sess.EndSession(context.WithoutCancel(ctx))
	c.mu.Lock()
	ct, ot := c.anchor.ClusterTime(), c.anchor.OperationTime()
	c.mu.Unlock()
	if ct != nil {
		_ = sess.AdvanceClusterTime(ct)
	}
	if ot != nil {
		_ = sess.AdvanceOperationTime(ot)
	}
	err = fn(mongo.NewSessionContext(ctx, sess))
	c.observe(sess.ClusterTime(), sess.OperationTime())
	return err
}

// observe folds times seen by one operation into the anchor.
func (c *causalClock) observe(ct bson.Raw, ot *bson.Timestamp) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if ct != nil {
		_ = c.anchor.AdvanceClusterTime(ct)
	}
	if ot != nil {
		_ = c.anchor.AdvanceOperationTime(ot)
	}
}

func (c *causalClock) end(ctx context.Context) {
	if c != nil {
		c.anchor.EndSession(ctx)
	}
}
