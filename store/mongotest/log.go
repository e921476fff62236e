package mongotest

import (
	"context"
	"log/slog"
	"testing"
)

// testHandler sends FerretDB's errors to the test log and
// drops the rest; nothing is logged once the test has ended.
type testHandler struct {
	t      testing.TB
	server *Server
	attrs  []slog.Attr
}

func (h *testHandler) Enabled(_ context.Context, l slog.Level) bool { return l >= slog.LevelError }

func (h *testHandler) Handle(_ context.Context, r slog.Record) error {
	if !h.server.running() {
		return nil
	}
	msg := "ferretdb: " + r.Level.String() + " " + r.Message
	for _, a := range h.attrs {
		msg += " " + a.String()
	}
	r.Attrs(func(a slog.Attr) bool {
		msg += " " + a.String()
		return true
	})
	h.t.Log(msg)
	return nil
}

func (h *testHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return &testHandler{t: h.t, server: h.server, attrs: append(append([]slog.Attr{}, h.attrs...), attrs...)}
}

func (h *testHandler) WithGroup(string) slog.Handler { return h }
