package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
)

// secret is the OpenIM secret of a context that keeps it outside the
// config file: the value of its openim-secret-env variable, or what its
// openim-secret-cmd prints (pass, a vault's client). It is asked for only
// when a write needs it, and never shown.
func (d *deployment) secret(ctx context.Context) (string, error) {
	if d.secretEnv != "" {
		v := strings.TrimSpace(os.Getenv(d.secretEnv))
		if v == "" {
			return "", usagef("context %s: %s %s is not set: the OpenIM secret is read from it", d.name, keySecretEnv, d.secretEnv)
		}
		return v, nil
	}
	shell := []string{"sh", "-c"}
	if runtime.GOOS == "windows" {
		shell = []string{"cmd", "/C"}
	}
	cmd := exec.CommandContext(ctx, shell[0], shell[1], d.secretCmd)
	var out, errs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errs
	err := cmd.Run()
	if err != nil {
		why := err.Error()
		if line, _, _ := strings.Cut(strings.TrimSpace(errs.String()), "\n"); line != "" {
			why += ": " + line
		}
		return "", fmt.Errorf("context %s: %s failed (%s): the OpenIM secret is not known", d.name, keySecretCmd, oneLine(why))
	}
	v := strings.TrimSpace(out.String())
	if v == "" {
		return "", fmt.Errorf("context %s: %s printed nothing: the OpenIM secret is not known", d.name, keySecretCmd)
	}
	return v, nil
}
