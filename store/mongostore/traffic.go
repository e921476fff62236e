package mongostore

import (
	"context"
	"sync/atomic"

	"go.mongodb.org/mongo-driver/v2/event"

	"github.com/chatlens/chatlens/store"
)

// traffic counts the commands sent and the bytes of their replies, from
// the driver's command events: a find's getMore and the ping at open are
// round trips too. Handshakes and heartbeats are not commands and are not
// counted.
type traffic struct {
	requests, bytes atomic.Int64
}

// monitor is a command monitor that counts into t, then hands each event
// to next (the caller's Options.Monitor) when there is one.
func (t *traffic) monitor(next *event.CommandMonitor) *event.CommandMonitor {
	return &event.CommandMonitor{
		Started: func(ctx context.Context, e *event.CommandStartedEvent) {
			t.requests.Add(1)
			if next != nil && next.Started != nil {
				next.Started(ctx, e)
			}
		},
		Succeeded: func(ctx context.Context, e *event.CommandSucceededEvent) {
			t.bytes.Add(int64(len(e.Reply)))
			if next != nil && next.Succeeded != nil {
				next.Succeeded(ctx, e)
			}
		},
		Failed: func(ctx context.Context, e *event.CommandFailedEvent) {
			if next != nil && next.Failed != nil {
				next.Failed(ctx, e)
			}
		},
	}
}

// Traffic is the commands sent and the bytes of the replies read since Open.
func (b *Backend) Traffic() store.Traffic {
	return store.Traffic{Requests: b.traffic.requests.Load(), BytesRead: b.traffic.bytes.Load()}
}
