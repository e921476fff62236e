package rediscache

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
)

// ErrBadAddress marks an address that cannot be parsed: a usage error, not a
// Redis failure.
var ErrBadAddress = errors.New("bad redis address")

// Mode is how the client reaches Redis.
type Mode string

const (
	ModeSingle   Mode = "single"
	ModeCluster  Mode = "cluster"
	ModeSentinel Mode = "sentinel"
)

// target is a parsed address.
type target struct {
	mode     Mode
	tls      bool
	hosts    []string // host:port, at least one
	username string
	password string
	master   string // Sentinel master name
	db       int
}

// parseAddr understands these forms (default port 6379, 26379 for Sentinel):
//
//	host[:port]                               single node, db 0
//	host:port,host:port,...                   Cluster (seed nodes)
//	redis://[[user]:pass@]host[:port][/db]    single node; rediss:// for TLS
//	redis+cluster://[[user]:pass@]host:port[,host:port...]      Cluster; rediss+cluster:// for TLS
//	redis+sentinel://[[user]:pass@]host:port[,host:port...]/master[/db]
//	                                          Sentinel; the password is the master's
//	                                          (sentinels without auth); rediss+sentinel:// for TLS
//
// As in go-redis, userinfo without a colon is a password. Query options are
// refused. It never uses net/url on the whole string, whose errors would quote
// the password.
func parseAddr(addr string) (target, error) {
	var t target
	addr = strings.TrimSpace(addr)
	if addr == "" {
		return t, fmt.Errorf("%w: empty", ErrBadAddress)
	}
	scheme, rest, hasScheme := strings.Cut(addr, "://")
	if !hasScheme {
		scheme, rest = "", addr
	}
	switch scheme {
	case "", "redis":
		t.mode = ModeSingle
	case "rediss":
		t.mode, t.tls = ModeSingle, true
	case "redis+cluster":
		t.mode = ModeCluster
	case "rediss+cluster":
		t.mode, t.tls = ModeCluster, true
	case "redis+sentinel":
		t.mode = ModeSentinel
	case "rediss+sentinel":
		t.mode, t.tls = ModeSentinel, true
	default:
		return t, fmt.Errorf("%w: unknown scheme %q (want redis, rediss, redis+cluster, redis+sentinel)", ErrBadAddress, scheme)
	}
	// Userinfo ends at the last "@", so a raw "/", "?" or "@" in a password
	// does not cut the address short.
	if at := strings.LastIndexByte(rest, '@'); at >= 0 {
		var err error
		if t.username, t.password, err = parseUserinfo(rest[:at]); err != nil {
			return t, err
		}
		rest = rest[at+1:]
	}
	if strings.ContainsAny(rest, "?#") {
		return t, fmt.Errorf("%w: query options are not supported in %s", ErrBadAddress, MaskAddr(addr))
	}
	authority, path, _ := strings.Cut(rest, "/")
	defPort := "6379"
	if t.mode == ModeSentinel {
		defPort = "26379"
	}
	for _, h := range strings.Split(authority, ",") {
		hp, err := hostPort(h, defPort)
		if err != nil {
			return t, err
		}
		t.hosts = append(t.hosts, hp)
	}
	if !hasScheme && len(t.hosts) > 1 {
		t.mode = ModeCluster
	}
	if !hasScheme && path != "" {
		return t, fmt.Errorf("%w: a path needs a scheme (redis://host:port/db)", ErrBadAddress)
	}
	return t, t.parsePath(path)
}

func (t *target) parsePath(path string) error {
	parts := strings.FieldsFunc(path, func(r rune) bool { return r == '/' })
	if t.mode == ModeSentinel {
		if len(parts) == 0 {
			return fmt.Errorf("%w: sentinel address needs a master name: redis+sentinel://host:26379/mymaster[/db]", ErrBadAddress)
		}
		t.master, parts = parts[0], parts[1:]
	}
	switch len(parts) {
	case 0:
		return nil
	case 1:
		db, err := strconv.Atoi(parts[0])
		if err != nil || db < 0 {
			return fmt.Errorf("%w: database %q is not a number", ErrBadAddress, parts[0])
		}
		if db != 0 && t.mode == ModeCluster {
			return fmt.Errorf("%w: Redis Cluster has only database 0", ErrBadAddress)
		}
		t.db = db
		return nil
	}
	return fmt.Errorf("%w: path %q has too many parts", ErrBadAddress, path)
}

func parseUserinfo(info string) (user, pass string, err error) {
	u, p, hasColon := strings.Cut(info, ":")
	if !hasColon {
		u, p = "", u // go-redis convention: a lone userinfo is the password
	}
	if user, err = url.PathUnescape(u); err != nil {
		return "", "", fmt.Errorf("%w: user name is not URL-escaped properly", ErrBadAddress)
	}
	if pass, err = url.PathUnescape(p); err != nil {
		return "", "", fmt.Errorf("%w: password is not URL-escaped properly", ErrBadAddress)
	}
	return user, pass, nil
}

func hostPort(h, defPort string) (string, error) {
	if h == "" {
		return "", fmt.Errorf("%w: empty host", ErrBadAddress)
	}
	host, port, err := net.SplitHostPort(h)
	if err != nil {
		// No port given (a bare IPv6 address must be bracketed, both ends:
		// "[::1:6379" is a typo, not the host "::1:6379").
		host, port = strings.TrimSuffix(strings.TrimPrefix(h, "["), "]"), defPort
		bracketed := strings.HasPrefix(h, "[") && strings.HasSuffix(h, "]")
		if strings.ContainsAny(host, "[]") || strings.HasPrefix(h, "[") != bracketed || (strings.Contains(host, ":") && !bracketed) {
			return "", fmt.Errorf("%w: host %q is not host:port", ErrBadAddress, h)
		}
	}
	if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
		return "", fmt.Errorf("%w: port %q of %q is not a port number", ErrBadAddress, port, host)
	}
	if host == "" {
		return "", fmt.Errorf("%w: empty host", ErrBadAddress)
	}
	return net.JoinHostPort(host, port), nil
}

// describe is the canonical form of t with the password masked.
func (t target) describe() string {
	scheme := "redis"
	if t.tls {
		scheme = "rediss"
	}
	if t.mode != ModeSingle {
		scheme += "+" + string(t.mode)
	}
	var b strings.Builder
	b.WriteString(scheme + "://")
	if t.username != "" || t.password != "" {
		b.WriteString(url.PathEscape(t.username))
		if t.password != "" {
			b.WriteString(":****")
		}
		b.WriteString("@")
	}
	b.WriteString(strings.Join(t.hosts, ","))
	if t.mode == ModeSentinel {
		b.WriteString("/" + t.master)
	}
	if t.mode != ModeCluster {
		b.WriteString("/" + strconv.Itoa(t.db))
	}
	return b.String()
}

// MaskAddr hides the password of any address form, even one that does not
// parse: everything between the user name and the last "@" becomes ****.
// A lone userinfo is masked whole, since go-redis reads it as a password.
func MaskAddr(addr string) string {
	start := 0
	if i := strings.Index(addr, "://"); i >= 0 {
		start = i + 3
	}
	at := strings.LastIndexByte(addr[start:], '@')
	if at < 0 {
		return addr
	}
	at += start
	info := addr[start:at]
	user, _, hasColon := strings.Cut(info, ":")
	if !hasColon {
		user = ""
	}
	return addr[:start] + user + ":****" + addr[at:]
}

// scrubbed hides secret (raw and URL-escaped) in an error's text while
// keeping the error chain for errors.Is.
type scrubbed struct {
	msg string
	err error
}

func (e *scrubbed) Error() string { return e.msg }
func (e *scrubbed) Unwrap() error { return e.err }

func scrub(err error, secret string) error {
	if err == nil || secret == "" {
		return err
	}
	msg := err.Error()
	for _, s := range []string{secret, url.PathEscape(secret), url.QueryEscape(secret)} {
		msg = strings.ReplaceAll(msg, s, "****")
	}
	return &scrubbed{msg: msg, err: err}
}

// ParseAddr checks addr the way Open does, without connecting, so a bad
// address is refused before anything else happens. The error wraps
// ErrBadAddress and hides the password.
func ParseAddr(addr string) error {
	t, err := parseAddr(addr)
	return scrub(err, t.password)
}
