package bucket_test

import (
	"testing"

	"github.com/chatlens/chatlens/store/bucket"
)

// TestRoleNameIsOpenIMs: a role level reads as OpenIM names it, "ordinary
// member" rather than "member", wherever chatlens says it (dump --explain,
// the revoke rule's words, the revoke dialog, the viewer picker).
func TestRoleNameIsOpenIMs(t *testing.T) {
	for level, want := range map[int32]string{bucket.RoleOwner: "owner", bucket.RoleAdmin: "admin",
		bucket.RoleMember: "ordinary member", 0: "0, none", 42: "level 42"} {
		if got := bucket.RoleName(level); got != want {
			t.Errorf("RoleName(%d) = %q, want %q", level, got, want)
		}
	}
}
