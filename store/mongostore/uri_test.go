package mongostore

import (
	"strings"
	"testing"
)

func TestMaskURI(t *testing.T) {
	tests := []struct {
		name, uri, want string
	}{
		{"user and password", "mongodb://admin:s3cret@db1:27017,db2:27017/openim_v3?replicaSet=rs0",
			"mongodb://admin:****@db1:27017,db2:27017/openim_v3?replicaSet=rs0"},
		{"user without password", "mongodb://admin@db1/?authMechanism=MONGODB-X509",
			"mongodb://admin@db1/?authMechanism=MONGODB-X509"},
		{"no user info", "mongodb://127.0.0.1:27017", "mongodb://127.0.0.1:27017"},
		{"srv", "mongodb+srv://ops:p%40ss@cluster0.example.net/chat?retryWrites=true",
			"mongodb+srv://ops:****@cluster0.example.net/chat?retryWrites=true"},
		{"@ inside the password", "mongodb://ops:p@ss@host/db", "mongodb://ops:****@host/db"},
		{"unparsable escape", "mongodb://ops:bad%zzpass@host/db", "mongodb://ops:****@host/db"},
		{"no scheme", "ops:hunter2@host", "ops:****@host"},
		{"secret option", "mongodb://host/?tls=true&tlsCertificateKeyFilePassword=hunter2&w=1",
			"mongodb://host/?tls=true&tlsCertificateKeyFilePassword=****&w=1"},
		{"aws token", "mongodb://host/?authMechanism=MONGODB-AWS&authMechanismProperties=AWS_SESSION_TOKEN:abc",
			"mongodb://host/?authMechanism=MONGODB-AWS&authMechanismProperties=****"},
		{"not a uri", "%%%", "%%%"},
		{"empty", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := MaskURI(tt.uri); got != tt.want {
				t.Errorf("MaskURI(%q) = %q, want %q", tt.uri, got, tt.want)
			}
		})
	}
}

func TestDescribeNamesHostAndDatabaseOnly(t *testing.T) {
	tests := []struct{ uri, db, want string }{
		{"mongodb://user:pw@host:27017/admin?authSource=admin", "openim_v3", "mongodb://user:****@host:27017/openim_v3"},
		{"mongodb://a,b,c/?replicaSet=rs", "chat", "mongodb://a,b,c/chat"},
		{"mongodb+srv://u:pw@cluster.example.net", "chat", "mongodb+srv://u:****@cluster.example.net/chat"},
	}
	for _, tt := range tests {
		if got := describe(tt.uri, tt.db); got != tt.want {
			t.Errorf("describe(%q, %q) = %q, want %q", tt.uri, tt.db, got, tt.want)
		}
	}
}

func TestScrubRemovesEverySecretForm(t *testing.T) {
	uri := "mongodb://ops:p%40ss%2Fword@host/db?tlsCertificateKeyFilePassword=keypw"
	msg := "error parsing uri " + uri + "\nauth failed for p@ss/word and p%40ss%2Fword, key keypw"
	got := scrub(msg, uri)
	for _, secret := range []string{"p@ss/word", "p%40ss%2Fword", "keypw"} {
		if strings.Contains(got, secret) {
			t.Errorf("scrubbed message still holds %q: %s", secret, got)
		}
	}
	if strings.Contains(got, "\n") {
		t.Errorf("scrubbed message is not one line: %q", got)
	}
}
