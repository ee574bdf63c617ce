package setup

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// AppCredentials are what `planpr serve` needs to act as its GitHub App:
// set by PLANPR_* variables, or kept in the data directory once the
// manifest flow (see Setup) created the App.
type AppCredentials struct {
	ID            int64  `json:"id"`
	Slug          string `json:"slug,omitempty"`
	Owner         string `json:"owner,omitempty"`
	HTMLURL       string `json:"html_url,omitempty"`
	WebhookSecret string `json:"webhook_secret"`
	PrivateKey    string `json:"pem"`
}

// appFile is where the credentials live in the data directory.
const appFile = "app.json"

// LoadAppCredentials reads the credentials kept in dir; ok is false when
// there are none yet.
func LoadAppCredentials(dir string) (creds AppCredentials, ok bool, err error) {
	path := filepath.Join(dir, appFile)
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return creds, false, nil
	}
	if err != nil {
		return creds, false, err
	}
	if err := json.Unmarshal(b, &creds); err != nil {
		return creds, false, fmt.Errorf("%s: not the credentials planpr wrote: %w (delete it to set the App up again at /setup)", path, err)
	}
	if creds.ID == 0 || creds.PrivateKey == "" || creds.WebhookSecret == "" {
		return creds, false, fmt.Errorf("%s: the App's id, key or webhook secret is missing (delete it to set the App up again at /setup)", path)
	}
	return creds, true, nil
}

// ErrAppExists is SaveNew's answer when the data directory already holds
// an App.
var ErrAppExists = errors.New("the data directory already holds an App's credentials")

// SaveNew writes the credentials to dir, readable by planpr's user alone
// (the directory 0700, the file 0600), whole or not at all, and only if
// dir holds none yet: of two setups completed at once, the first is kept
// and the second refused, so the running App and the file never differ.
func (c AppCredentials) SaveNew(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, ".app-*.json")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	// A link, unlike a rename, fails when the name exists.
	if err := os.Link(tmp.Name(), filepath.Join(dir, appFile)); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return ErrAppExists
		}
		return err
	}
	return nil
}
