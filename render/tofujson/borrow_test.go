package tofujson

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// Borrowed values are the plan's own memory until Finish returns: a
// goroutine handed them reads them right up to then, and values kept
// with KeepValues outlive the read.
func TestBorrowedValuesLastUntilFinish(t *testing.T) {
	path := writeFile(t, "plan.json", minimalPlan)
	work := make(chan []byte, 8)
	done := make(chan string)
	go func() {
		var seen []string
		for raw := range work {
			seen = append(seen, string(raw))
		}
		done <- strings.Join(seen, " ")
	}()
	var kept []Change
	var seen string
	finished := false
	_, err := ReadPlan(path, ReadOptions{Lazy: true, Borrow: true, Finish: func() error {
		close(work)
		seen, finished = <-done, true
		return nil
	}}, func(section string, rc *ResourceChange) error {
		work <- rc.Change.RawValues()[1]
		rc.Change.KeepValues()
		kept = append(kept, rc.Change)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !finished {
		t.Fatal("Finish was not called")
	}
	if want := `{"x":2} {"n":1.50} {}`; seen != want {
		t.Errorf("the goroutine read %s, want %s", seen, want)
	}
	if got := string(kept[1].RawValues()[1]); got != `{"n":1.50}` {
		t.Errorf("a kept value after the read: %s", got)
	}
}

// Finish is called whatever ends the read: a file that is not there, and
// one that is not JSON.
func TestFinishIsCalledOnFailure(t *testing.T) {
	for name, path := range map[string]string{
		"missing":  writeFile(t, "gone.json", "{}") + ".not-there",
		"not JSON": writeFile(t, "bad.json", "{\"format_version\":\"1.2\",\"resource_changes\":[{\"change\":{\"after\":{\"x\":}}}]}"),
	} {
		called := 0
		_, err := ReadPlan(path, ReadOptions{Lazy: true, Borrow: true, Finish: func() error { called++; return nil }}, nil)
		if err == nil || called != 1 {
			t.Errorf("%s: err %v, Finish called %d times, want once", name, err, called)
		}
	}
}

// A goroutine reading borrowed values of a plan cut short meanwhile gets
// an error from Guard, not a crash, and the read names the file.
func TestBorrowedValuesOfAFileCutShort(t *testing.T) {
	path := writeFile(t, "plan.json", minimalPlan+strings.Repeat(" ", 3*os.Getpagesize()))
	var raw [][]byte
	_, err := ReadPlan(path, ReadOptions{Lazy: true, Borrow: true, Finish: func() error {
		if err := os.Truncate(path, 0); err != nil {
			t.Fatal(err)
		}
		done := make(chan error)
		go func() {
			done <- Guard(func() {
				for _, r := range raw {
					_ = bytes.Clone(r)
				}
			})
		}()
		return <-done
	}}, func(section string, rc *ResourceChange) error {
		raw = append(raw, rc.Change.RawValues()...)
		return nil
	})
	ie, ok := err.(*InputError)
	if !ok || ie.File != path || !strings.Contains(ie.Msg, "changed while planpr read it") {
		t.Fatalf("got %v, want the file named as changed", err)
	}
}
