// Package pgtest starts a throw-away PostgreSQL for tests: a cluster made
// with Debian's postgresql package (initdb, run as the postgres user when
// the tests run as root, which initdb refuses) in a temporary directory,
// listening on a free loopback port, stopped by its pid when the test ends.
//
// Where PostgreSQL is not installed, tests that need it are skipped — unless
// PLANPR_TEST_POSTGRES=required (as .ci/run sets it), when they fail.
package pgtest

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// binDirs are where Debian puts the server's programs.
var binDirs = []string{"/usr/lib/postgresql/17/bin", "/usr/lib/postgresql/16/bin", "/usr/lib/postgresql/15/bin"}

// Start starts a cluster and returns the URL of its database "planpr".
func Start(t testing.TB) string {
	t.Helper()
	bin := ""
	for _, d := range binDirs {
		if _, err := os.Stat(filepath.Join(d, "initdb")); err == nil {
			bin = d
			break
		}
	}
	if bin == "" {
		if os.Getenv("PLANPR_TEST_POSTGRES") == "required" {
			t.Fatalf("PostgreSQL is required (PLANPR_TEST_POSTGRES=required) but initdb is not in %v: apt-get install postgresql", binDirs)
		}
		t.Skip("PostgreSQL is not installed (apt-get install postgresql); set PLANPR_TEST_POSTGRES=required to make this a failure")
	}
	root, err := os.MkdirTemp("", "planpr-pg-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	data, sock := filepath.Join(root, "data"), filepath.Join(root, "sock")
	os.Mkdir(sock, 0o700)
	asPostgres := os.Geteuid() == 0
	if asPostgres {
		u, err := user.Lookup("postgres")
		if err != nil {
			t.Fatalf("running as root, initdb needs the postgres user: %v", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		for _, p := range []string{root, sock} {
			if err := os.Chown(p, uid, gid); err != nil {
				t.Fatal(err)
			}
		}
	}
	run := func(name string, args ...string) *exec.Cmd {
		cmd := exec.Command(filepath.Join(bin, name), args...)
		if asPostgres {
			cmd = exec.Command("runuser", append([]string{"-u", "postgres", "--", filepath.Join(bin, name)}, args...)...)
		}
		cmd.Dir = root
		return cmd
	}
	if out, err := run("initdb", "-D", data, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8").CombinedOutput(); err != nil {
		t.Fatalf("initdb: %v\n%s", err, out)
	}
	port := freePort(t)
	server := run("postgres", "-D", data, "-p", strconv.Itoa(port), "-k", sock, "-h", "127.0.0.1",
		"-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off", "-c", "max_connections=200")
	logFile, _ := os.Create(filepath.Join(root, "server.log"))
	server.Stdout, server.Stderr = logFile, logFile
	if err := server.Start(); err != nil {
		t.Fatalf("postgres: %v", err)
	}
	t.Cleanup(func() {
		// The server's pid: runuser's child when run through it.
		pid := server.Process.Pid
		if b, err := os.ReadFile(filepath.Join(data, "postmaster.pid")); err == nil {
			if p, err := strconv.Atoi(strings.SplitN(string(b), "\n", 2)[0]); err == nil {
				pid = p
			}
		}
		syscall.Kill(pid, syscall.SIGINT) // fast shutdown
		done := make(chan struct{})
		go func() { server.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	deadline := time.Now().Add(30 * time.Second)
	for {
		if conn, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), time.Second); err == nil {
			conn.Close()
			if out, err := run("createdb", "-h", "127.0.0.1", "-p", strconv.Itoa(port), "-U", "postgres", "planpr").CombinedOutput(); err == nil {
				break
			} else if time.Now().After(deadline) {
				t.Fatalf("createdb: %v\n%s", err, out)
			}
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(filepath.Join(root, "server.log"))
			t.Fatalf("postgres did not start:\n%s", log)
		}
		time.Sleep(100 * time.Millisecond)
	}
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/planpr?sslmode=disable", port)
}

func freePort(t testing.TB) int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}
