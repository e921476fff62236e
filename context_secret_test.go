package main

import "testing"

// `chatlens contexts` and the UI's picker name a secret command by its
// program only: its arguments, and a variable set before it, may hold the
// secret.
func TestSecretProgramHidesTheArguments(t *testing.T) {
	t.Parallel()
	for line, want := range map[string]string{
		"echo CmdSecret42":                  "echo …",
		"pass show openim/prod-eu":          "pass …",
		"VAULT_TOKEN=s.abc vault read -f x": "vault …",
		"/usr/local/bin/get-openim-secret":  "/usr/local/bin/get-openim-secret",
		"'my tool' --token T":               "my …",
		"":                                  "…",
	} {
		if got := secretProgram(line); got != want {
			t.Errorf("secretProgram(%q) = %q, want %q", line, got, want)
		}
	}
}
