package mongostore

import (
	"net/url"
	"strings"
)

const mask = "****"

// secretParam reports URI options whose values are credentials
// (tlsCertificateKeyFilePassword, AWS_SESSION_TOKEN in
// authMechanismProperties, ...).
func secretParam(name string) bool {
	n := strings.ToLower(name)
	return strings.Contains(n, "password") || strings.Contains(n, "secret") ||
		strings.Contains(n, "token") || n == "authmechanismproperties"
}

// MaskURI returns uri with the password and any secret option values
// replaced by ****, so it can be shown or logged. It never fails: input it
// cannot parse is masked by its shape (everything between the first ':'
// of the user info and the last '@' is hidden).
func MaskURI(uri string) string {
	prefix, rest := splitScheme(uri)
	if at := strings.LastIndexByte(rest, '@'); at >= 0 {
		user, _, hasPass := strings.Cut(rest[:at], ":")
		if hasPass {
			user += ":" + mask
		}
		rest = user + "@" + rest[at+1:]
	}
	base, query, hasQuery := strings.Cut(rest, "?")
	if !hasQuery {
		return prefix + base
	}
	return prefix + base + "?" + maskQuery(query)
}

// splitScheme splits "mongodb://rest" into "mongodb://" and "rest".
func splitScheme(uri string) (prefix, rest string) {
	if i := strings.Index(uri, "://"); i >= 0 {
		return uri[:i+3], uri[i+3:]
	}
	return "", uri
}

// maskQuery hides the values of secret options, keeping the order and the
// spelling of everything else.
func maskQuery(query string) string {
	parts := strings.Split(query, "&")
	for i, p := range parts {
		name, _, hasValue := strings.Cut(p, "=")
		if hasValue && secretParam(name) {
			parts[i] = name + "=" + mask
		}
	}
	return strings.Join(parts, "&")
}

// describe names the deployment for the status bar: scheme, masked user,
// hosts and database, without options.
func describe(uri, db string) string {
	prefix, rest := splitScheme(MaskURI(uri))
	user := ""
	if at := strings.LastIndexByte(rest, '@'); at >= 0 {
		user, rest = rest[:at+1], rest[at+1:]
	}
	if i := strings.IndexAny(rest, "/?"); i >= 0 {
		rest = rest[:i]
	}
	return prefix + user + rest + "/" + db
}

// secrets lists the strings of uri that must never be shown: the password
// (raw and decoded) and the values of secret options.
func secrets(uri string) []string {
	_, rest := splitScheme(uri)
	var out []string
	add := func(s string) {
		if s == "" {
			return
		}
		out = append(out, s)
		if dec, err := url.PathUnescape(s); err == nil && dec != s {
			out = append(out, dec)
		}
	}
	if at := strings.LastIndexByte(rest, '@'); at >= 0 {
		if _, pass, ok := strings.Cut(rest[:at], ":"); ok {
			add(pass)
		}
	}
	if _, query, ok := strings.Cut(rest, "?"); ok {
		for _, p := range strings.Split(query, "&") {
			if name, value, ok := strings.Cut(p, "="); ok && secretParam(name) {
				add(value)
			}
		}
	}
	return out
}

// scrub removes every secret of uri from msg and folds it onto one line.
func scrub(msg, uri string) string {
	msg = strings.ReplaceAll(msg, uri, MaskURI(uri))
	for _, s := range secrets(uri) {
		msg = strings.ReplaceAll(msg, s, mask)
	}
	return strings.Join(strings.Fields(msg), " ")
}
