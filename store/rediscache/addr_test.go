package rediscache

import (
	"errors"
	"slices"
	"testing"
)

func TestParseAddr(t *testing.T) {
	tests := []struct {
		addr     string
		mode     Mode
		tls      bool
		hosts    []string
		user     string
		pass     string
		master   string
		db       int
		describe string
	}{
		{"localhost", ModeSingle, false, []string{"localhost:6379"}, "", "", "", 0, "redis://localhost:6379/0"},
		{"10.0.0.5:6380", ModeSingle, false, []string{"10.0.0.5:6380"}, "", "", "", 0, "redis://10.0.0.5:6380/0"},
		{"redis://:s3cret@host:6379/2", ModeSingle, false, []string{"host:6379"}, "", "s3cret", "", 2, "redis://:****@host:6379/2"},
		{"redis://ops:p%40ss@host", ModeSingle, false, []string{"host:6379"}, "ops", "p@ss", "", 0, "redis://ops:****@host:6379/0"},
		{"redis://s3cret@host", ModeSingle, false, []string{"host:6379"}, "", "s3cret", "", 0, "redis://:****@host:6379/0"},
		{"redis://:pa/ss@host:1/3", ModeSingle, false, []string{"host:1"}, "", "pa/ss", "", 3, "redis://:****@host:1/3"},
		{"rediss://[::1]:6390", ModeSingle, true, []string{"[::1]:6390"}, "", "", "", 0, "rediss://[::1]:6390/0"},
		{"redis://[::1]", ModeSingle, false, []string{"[::1]:6379"}, "", "", "", 0, "redis://[::1]:6379/0"},
		{"a:7000,b:7001,c:7002", ModeCluster, false, []string{"a:7000", "b:7001", "c:7002"}, "", "", "", 0, "redis+cluster://a:7000,b:7001,c:7002"},
		{"redis+cluster://:pw@a:7000,b", ModeCluster, false, []string{"a:7000", "b:6379"}, "", "pw", "", 0, "redis+cluster://:****@a:7000,b:6379"},
		{"rediss+cluster://a:7000/0", ModeCluster, true, []string{"a:7000"}, "", "", "", 0, "rediss+cluster://a:7000"},
		{"redis+sentinel://:pw@s1,s2:26380/mymaster/4", ModeSentinel, false, []string{"s1:26379", "s2:26380"}, "", "pw", "mymaster", 4, "redis+sentinel://:****@s1:26379,s2:26380/mymaster/4"},
		{"rediss+sentinel://s1:26379/mymaster", ModeSentinel, true, []string{"s1:26379"}, "", "", "mymaster", 0, "rediss+sentinel://s1:26379/mymaster/0"},
	}
	for _, tt := range tests {
		got, err := parseAddr(tt.addr)
		if err != nil {
			t.Errorf("parseAddr(%q): %v", tt.addr, err)
			continue
		}
		if got.mode != tt.mode || got.tls != tt.tls || !slices.Equal(got.hosts, tt.hosts) || got.username != tt.user ||
			got.password != tt.pass || got.master != tt.master || got.db != tt.db {
			t.Errorf("parseAddr(%q) = %+v", tt.addr, got)
		}
		if d := got.describe(); d != tt.describe {
			t.Errorf("describe(%q) = %q, want %q", tt.addr, d, tt.describe)
		}
	}
}

func TestParseAddrRejects(t *testing.T) {
	for _, addr := range []string{
		"", "http://host:6379", "redis://:hunter2@host:99999", "redis://:hunter2@host:6379/x",
		"redis://:hunter2@host:6379/0?dial_timeout=1", "redis+sentinel://:hunter2@s1:26379",
		"redis+cluster://:hunter2@a:7000/3", "redis://:hunter2@/0", "host:6379/0", "redis://:hunter2@h:1/0/1",
		"redis://:hun%zzter2@h",
		// An IPv6 address missing a bracket is a typo, never rewritten
		// into some other host.
		"redis://[::1:6379", "[::1", "redis://:hunter2@[::1:6379/0", "::1]", "a:7000,[::1",
	} {
		_, err := parseAddr(addr)
		if !errors.Is(err, ErrBadAddress) {
			t.Errorf("parseAddr(%q) = %v, want ErrBadAddress", addr, err)
			continue
		}
		mustNotContain(t, "parse error", err.Error(), "hunter2")
		mustNotContain(t, "parse error", err.Error(), "hun%zzter2")
	}
}

func TestMaskAddr(t *testing.T) {
	tests := []struct{ in, want string }{
		{"redis://:s3cret@host:6379/0", "redis://:****@host:6379/0"},
		{"redis://ops:s3cret@host:6379/0", "redis://ops:****@host:6379/0"},
		{"redis://s3cret@host", "redis://:****@host"},
		{"redis://:s3@cr:et@host", "redis://:****@host"},
		{"redis+sentinel://:s3cret@a,b/m", "redis+sentinel://:****@a,b/m"},
		{"host:6379", "host:6379"},
		{"redis://host:6379/0", "redis://host:6379/0"},
		{"garbage://u:s3cret@@", "garbage://u:****@"},
	}
	for _, tt := range tests {
		if got := MaskAddr(tt.in); got != tt.want {
			t.Errorf("MaskAddr(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
