package verify

import (
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sync"
	"time"

	"github.com/planpr/planpr/lockdiff"
)

// answerCache keeps what registries' signatures proved, one file per
// provider version. Whoever can write it can vouch for any hash, so it is
// kept private: the directory 0700, the files 0600 and written whole
// (renamed into place); a directory or file others may write is not read.
type answerCache struct {
	dir string
	log *slog.Logger
}

// openAnswerCache prepares dir, or returns nil (no cache) when dir is ""
// or not private.
func openAnswerCache(dir string, log *slog.Logger) *answerCache {
	if dir == "" {
		return nil
	}
	root := filepath.Join(dir, "registry")
	if err := os.MkdirAll(root, 0o700); err != nil {
		log.Warn("the verification cache cannot be made: registries are asked every time", "dir", dir, "error", err.Error())
		return nil
	}
	for _, d := range []string{dir, root} {
		if fi, err := os.Stat(d); err != nil || !private(fi.Mode(), true) {
			log.Warn("the verification cache is writable by others and is not used: make it 0700", "dir", d)
			return nil
		}
	}
	return &answerCache{dir: root, log: log}
}

// private reports whether a mode lets only its owner write (a directory)
// or read and write (a file). Windows has no such bits: its ACLs decide.
func private(mode os.FileMode, dir bool) bool {
	if runtime.GOOS == "windows" {
		return true
	}
	if dir {
		return mode.Perm()&0o022 == 0
	}
	return mode.Perm()&0o077 == 0
}

var unsafeChars = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^A-Za-z0-9._-]`) })

func safePath(s string) string { return unsafeChars().ReplaceAllString(s, "_") }

func (c *answerCache) path(a lockdiff.Address, version string) string {
	return filepath.Join(c.dir, safePath(a.Host), safePath(a.Namespace), safePath(a.Type), safePath(version)+".json")
}

// read gives the kept answer, or nil: none, unreadable, not private, or
// an Unknown answer past its time.
func (c *answerCache) read(a lockdiff.Address, version string) *answer {
	if c == nil {
		return nil
	}
	p := c.path(a, version)
	fi, err := os.Lstat(p)
	if err != nil || !fi.Mode().IsRegular() || !private(fi.Mode(), false) || fi.Size() > 16<<20 {
		return nil
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return nil
	}
	var ans answer
	if json.Unmarshal(b, &ans) != nil || ans.Unknown && time.Now().After(ans.Expires) || !ans.Unknown && len(ans.Sums) == 0 {
		return nil
	}
	return &ans
}

// write keeps an answer, whole or not at all.
func (c *answerCache) write(a lockdiff.Address, version string, ans *answer) {
	if c == nil {
		return
	}
	b, err := json.Marshal(ans)
	if err != nil {
		return
	}
	p := c.path(a, version)
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), ".answer-*")
	if err != nil {
		return
	}
	defer os.Remove(tmp.Name()) // gone once renamed
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return
	}
	_, werr := tmp.Write(b)
	if cerr := tmp.Close(); werr != nil || cerr != nil {
		return
	}
	if err := os.Rename(tmp.Name(), p); err != nil {
		c.log.Debug("the verification cache could not keep an answer", "error", err.Error())
	}
}
