package webhook

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"time"

	"golang.org/x/sync/semaphore"
)

// intake reads webhook bodies within a memory budget. A body must be
// read whole before its signature can be checked, so this is what bounds
// what unauthenticated senders can make the server hold: each body
// reserves the length it declares (GitHub always declares it; a body of
// unknown length is refused), and is paced (see pacedReader). Small
// bodies — every delivery GitHub sends but the rare huge one — have a
// lane of their own, so that senders of large bodies, slow or not, never
// make a genuine delivery wait; slow senders of small bodies hold only
// the few bytes they declare. There is no cap on how many bodies are
// read at once beyond the connections the listener serves.
type intake struct {
	budget  *semaphore.Weighted // large bodies
	small   *semaphore.Weighted // bodies of at most smallBody bytes
	wait    time.Duration
	grace   time.Duration // before the minimum rate applies
	minRate int64         // bytes per second a body must average after grace
}

// Defaults of the body-rate rule: a sender must average 64 KiB/s after a
// 2-second grace, so one that trickles a byte every few seconds holds its
// bytes about two seconds, not the 30 of the server's read timeout.
const (
	defaultIntakeGrace   = 2 * time.Second
	defaultIntakeMinRate = 64 << 10
)

// smallBody is the largest body read in the small lane, and smallBudget
// that lane's bytes: 256 KiB is well above a pull_request or workflow_run
// delivery (tens of KB); 16 MiB is 64 of the largest at once.
const (
	smallBody   = 256 << 10
	smallBudget = 16 << 20
)

func newIntake(cfg Config) *intake {
	budget := max(positiveOr(cfg.IntakeBudget, 64<<20), MaxBody)
	return &intake{
		budget:  semaphore.NewWeighted(budget),
		small:   semaphore.NewWeighted(smallBudget),
		wait:    positiveOr(cfg.IntakeWait, 10*time.Second),
		grace:   positiveOr(cfg.IntakeGrace, defaultIntakeGrace),
		minRate: positiveOr(cfg.IntakeMinRate, defaultIntakeMinRate),
	}
}

func positiveOr[T int | int64 | time.Duration](v, def T) T {
	if v <= 0 {
		return def
	}
	return v
}

// read reads a delivery's body, or says which status to answer: 411 for a
// body of unknown length, 413 for one over MaxBody, 503 when no room
// frees up in time, 408 for one sent too slowly.
func (in *intake) read(w http.ResponseWriter, r *http.Request) ([]byte, int) {
	switch {
	case r.ContentLength > MaxBody:
		return nil, http.StatusRequestEntityTooLarge
	case r.ContentLength < 0: // chunked: GitHub always says how long a delivery is
		return nil, http.StatusLengthRequired
	}
	weight := max(r.ContentLength, 1)
	lane := in.budget
	if weight <= smallBody {
		lane = in.small
	}
	ctx, cancel := context.WithTimeout(r.Context(), in.wait)
	defer cancel()
	if err := lane.Acquire(ctx, weight); err != nil {
		return nil, http.StatusServiceUnavailable
	}
	defer lane.Release(weight)
	body, err := io.ReadAll(&pacedReader{r: io.LimitReader(http.MaxBytesReader(w, r.Body, MaxBody), weight+1),
		rc: http.NewResponseController(w), start: time.Now(), in: in})
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge), int64(len(body)) > weight:
		return nil, http.StatusRequestEntityTooLarge
	case isTimeout(err):
		return nil, http.StatusRequestTimeout
	case err != nil:
		return nil, http.StatusBadRequest
	}
	return body, 0
}

// pacedReader reads a body under a deadline that moves with what has
// arrived: the next 32 KiB must come by the time the minimum rate says, so
// a slow sender is cut off while a fast one is never waited on.
type pacedReader struct {
	r     io.Reader
	rc    *http.ResponseController
	start time.Time
	read  int64
	in    *intake
}

func (p *pacedReader) Read(b []byte) (int, error) {
	due := p.in.grace + time.Duration(float64(p.read+32<<10)/float64(p.in.minRate)*float64(time.Second))
	p.rc.SetReadDeadline(p.start.Add(due)) // not every writer supports it (tests' recorders): then the server's timeouts hold
	n, err := p.r.Read(b)
	p.read += int64(n)
	return n, err
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.Is(err, os.ErrDeadlineExceeded) || errors.As(err, &ne) && ne.Timeout()
}

// intakeResults are the metrics' results for the statuses read answers.
var intakeResults = map[int]string{
	http.StatusRequestEntityTooLarge: "too-large",
	http.StatusServiceUnavailable:    "busy",
	http.StatusBadRequest:            "bad-body",
	http.StatusRequestTimeout:        "slow-body",
	http.StatusLengthRequired:        "no-length",
}

// unverified labels what arrived before its signature was checked: an
// unsigned header never becomes a metrics label.
const unverified = "unverified"

// eventLabel is the X-GitHub-Event header as a metrics label, from a fixed
// set, so that a sender cannot grow the metrics with names of its own.
func eventLabel(event string) string {
	switch event {
	case "pull_request", "workflow_run", "ping", "installation", "installation_repositories",
		"check_suite", "check_run", "push", "pull_request_review", "issue_comment":
		return event
	}
	return "other"
}

// validDelivery accepts a delivery id as GitHub writes them (a GUID) with
// some room: up to 64 letters, digits and dashes.
func validDelivery(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// boundedDelivery is a delivery id fit for a log line.
func boundedDelivery(id string) string {
	if validDelivery(id) {
		return id
	}
	return "(invalid)"
}
