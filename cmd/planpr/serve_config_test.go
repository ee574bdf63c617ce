package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestServeConfigRefusesBadVariables: every bad variable stops serve
// before anything starts, named with what it accepts; several are named
// together.
func TestServeConfigRefusesBadVariables(t *testing.T) {
	for _, tc := range []struct{ env, want string }{
		{"PLANPR_WORKERS=abc", `PLANPR_WORKERS="abc": want a whole number from 1 to 256`},
		{"PLANPR_WORKERS=0", `PLANPR_WORKERS="0": want a whole number from 1 to 256`},
		{"PLANPR_WORKERS=-1", `PLANPR_WORKERS="-1"`},
		{"PLANPR_MAX_ATTEMPTS=-1", `PLANPR_MAX_ATTEMPTS="-1": want a whole number from 1 to 100`},
		{"PLANPR_MAX_ATTEMPTS=many", `PLANPR_MAX_ATTEMPTS="many"`},
		{"PLANPR_REDELIVER_EVERY=soon", `PLANPR_REDELIVER_EVERY must be a duration of at least 10s`},
		{"PLANPR_VERIFY=sometimes", `PLANPR_VERIFY: verify "sometimes": want on, off or full`},
		{"PLANPR_REGISTRY=nonsense", `PLANPR_REGISTRY: registry "nonsense": want HOST=URL`},
		{"PLANPR_VERIFY_HOSTS=a/b", `PLANPR_VERIFY_HOSTS: registry host "a/b"`},
		{"PLANPR_PLATFORMS=linux-amd64", `PLANPR_PLATFORMS: platform "linux-amd64": want OS_ARCH`},
		{"PLANPR_FAIL_ON=destroy,sometimes", `PLANPR_FAIL_ON: fail-on "sometimes": want a list of`},
		{"PLANPR_DATABASE_URL=mysql://root:hunter2@db/planpr", `PLANPR_DATABASE_URL="mysql://…": want a postgres:// URL — postgres://USER@HOST:5432/DB`},
		{"PLANPR_METRICS_LISTEN=9090", `PLANPR_METRICS_LISTEN="9090": want HOST:PORT or :PORT`},
		{"PLANPR_METRICS_LISTEN=:99999", `PLANPR_METRICS_LISTEN=":99999": not an address planpr can listen on`},
		{"PLANPR_LISTEN=bad", `PLANPR_LISTEN="bad": want HOST:PORT or :PORT, such as :8080`},
		{"PLANPR_LISTEN=:99999", `PLANPR_LISTEN=":99999": not an address planpr can listen on`},
		{"GITHUB_API_URL=ftp://x", `GITHUB_API_URL="ftp://x": want an http(s) URL, such as https://HOST/api/v3`},
		{"GITHUB_SERVER_URL=notaurl", `GITHUB_SERVER_URL="notaurl": want an http(s) URL`},
		{"PLANPR_PUBLIC_URL=notaurl", `PLANPR_PUBLIC_URL="notaurl": want an http(s) URL`},
		{"PLANPR_APP_ID=777", "PLANPR_PRIVATE_KEY is not set"},
		{"PLANPR_APP_ID=777", "PLANPR_WEBHOOK_SECRET is not set"},
	} {
		name, value, _ := strings.Cut(tc.env, "=")
		_, err := readServeConfig(func(k string) string {
			if k == name {
				return value
			}
			return ""
		})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.env, err, tc.want)
		}
		if err != nil && strings.Contains(err.Error(), "hunter2") {
			t.Errorf("%s: the error shows a password: %v", tc.env, err)
		}
	}
	env := map[string]string{"PLANPR_WORKERS": "abc", "PLANPR_MAX_ATTEMPTS": "0"}
	_, err := readServeConfig(func(k string) string { return env[k] })
	if err == nil || !strings.Contains(err.Error(), "PLANPR_WORKERS") || !strings.Contains(err.Error(), "PLANPR_MAX_ATTEMPTS") {
		t.Errorf("two bad variables: %v", err)
	}
	c, err := readServeConfig(func(string) string { return "" })
	if err != nil || c.Workers != 4 || c.MaxAttempts != 8 || c.Listen != ":8080" || c.DataDir != "planpr-data" || c.Verify == nil {
		t.Errorf("defaults: %+v %v", c, err)
	}
}

// TestServeConfigNamesTheKeyAndDataDirWithTheRest: the App's key and the
// data directory are checked with the other variables, before the queue
// is opened or migrated, and named in the same message.
func TestServeConfigNamesTheKeyAndDataDirWithTheRest(t *testing.T) {
	dir := t.TempDir()
	notADir := filepath.Join(dir, "file")
	if err := os.WriteFile(notADir, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{
		"PLANPR_WORKERS": "abc", "PLANPR_APP_ID": "1", "PLANPR_WEBHOOK_SECRET": "s",
		"PLANPR_PRIVATE_KEY": "-----BEGIN RSA PRIVATE KEY-----\nnot a key\n-----END RSA PRIVATE KEY-----",
		"PLANPR_DATA_DIR":    filepath.Join(dir, "data"),
	}
	_, err := readServeConfig(func(k string) string { return env[k] })
	if err == nil || !strings.Contains(err.Error(), "PLANPR_WORKERS") || !strings.Contains(err.Error(), "PLANPR_PRIVATE_KEY: not the App's RSA private key") {
		t.Errorf("bad key with a bad variable: %v", err)
	}
	if err != nil && strings.Contains(err.Error(), "not a key") {
		t.Errorf("the error shows the key: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "data")); err == nil {
		t.Errorf("reading the configuration made the data directory")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("the write check left %d entries behind", len(entries)-1)
	}

	for _, bad := range []string{notADir, filepath.Join(notADir, "sub")} {
		env := map[string]string{"PLANPR_DATA_DIR": bad}
		_, err := readServeConfig(func(k string) string { return env[k] })
		if err == nil || !strings.Contains(err.Error(), "PLANPR_DATA_DIR=") {
			t.Errorf("data directory %s: %v", bad, err)
		}
	}
}
