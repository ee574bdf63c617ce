// Package pgtest starts a throw-away PostgreSQL for tests: a cluster made
// with Debian's postgresql package (initdb, run as the postgres user when
// the tests run as root, which initdb refuses) in a temporary directory,
// listening on a free loopback port, stopped by its pid when the test ends.
//
// Where PostgreSQL is not installed, tests that need it are skipped — unless
// PLANPR_TEST_POSTGRES=required (as .ci/run sets it), when they fail.
package pgtest

import (
	"errors"
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
	// A free port can be taken by another process between freePort and
	// the server's bind (tests run side by side): the server then exits
	// at once, and is started again on another port.
	for attempt := 1; ; attempt++ {
		port := freePort(t)
		switch err := start(t, run, data, sock, root, port); {
		case err == nil:
			return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/planpr?sslmode=disable", port)
		case errors.Is(err, errPortTaken) && attempt < 5:
			continue
		default:
			t.Fatal(err)
		}
	}
}

// errPortTaken is a server that could not bind its port.
var errPortTaken = errors.New("the port was taken before postgres bound it")

// start starts the server on port and waits until it takes connections
// and holds the planpr database; the test's cleanup stops it.
func start(t testing.TB, run func(string, ...string) *exec.Cmd, data, sock, root string, port int) error {
	server := run("postgres", "-D", data, "-p", strconv.Itoa(port), "-k", sock, "-h", "127.0.0.1",
		"-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off", "-c", "max_connections=200")
	logPath := filepath.Join(root, "server.log")
	logFile, _ := os.Create(logPath)
	server.Stdout, server.Stderr = logFile, logFile
	if err := server.Start(); err != nil {
		return fmt.Errorf("postgres: %v", err)
	}
	exited := make(chan struct{})
	go func() { server.Wait(); close(exited) }()
	t.Cleanup(func() {
		select {
		case <-exited:
			return // gone already (its port was taken): its pid may be another's now
		default:
		}
		// The server's pid: runuser's child when run through it.
		pid := server.Process.Pid
		if b, err := os.ReadFile(filepath.Join(data, "postmaster.pid")); err == nil {
			if p, err := strconv.Atoi(strings.SplitN(string(b), "\n", 2)[0]); err == nil {
				pid = p
			}
		}
		syscall.Kill(pid, syscall.SIGINT) // fast shutdown
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	deadline := time.Now().Add(30 * time.Second)
	for {
		select {
		case <-exited:
			log, _ := os.ReadFile(logPath)
			if strings.Contains(string(log), "could not create any TCP/IP sockets") || strings.Contains(string(log), "Address already in use") {
				return errPortTaken
			}
			return fmt.Errorf("postgres exited at start:\n%s", log)
		default:
		}
		if conn, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), time.Second); err == nil {
			conn.Close()
			if out, err := run("createdb", "-h", "127.0.0.1", "-p", strconv.Itoa(port), "-U", "postgres", "planpr").CombinedOutput(); err == nil {
				return nil
			} else if time.Now().After(deadline) {
				return fmt.Errorf("createdb: %v\n%s", err, out)
			}
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(logPath)
			return fmt.Errorf("postgres did not start:\n%s", log)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func freePort(t testing.TB) int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}
