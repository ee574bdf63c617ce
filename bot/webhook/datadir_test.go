//go:build unix

package webhook

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/planpr/planpr/bot/githubtest"
)

// TestQueueFilesPrivate: in a data directory that already exists as
// 0755 (a volume), the queue's database, WAL and shared-memory files are
// 0600, whatever the umask, and the open directory is said in the log.
func TestQueueFilesPrivate(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	dir := filepath.Join(t.TempDir(), "data")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var logs githubtest.LogBuffer
	log := slog.New(slog.NewJSONHandler(&logs, nil))
	st, err := openStore(context.Background(), StoreConfig{DataDir: dir, Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"queue.db", "queue.db-wal", "queue.db-shm", "queue.db.lock"} {
		fi, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if fi.Mode().Perm() != 0o600 {
			t.Errorf("%s is %04o, want 0600", name, fi.Mode().Perm())
		}
	}
	st.close()
	if !strings.Contains(logs.String(), "the data directory is open to other users") {
		t.Errorf("no warning about the 0755 directory: %s", logs.String())
	}
}
