// Package actionlog is how planpr prints where GitHub Actions reads
// workflow commands: untrusted text made safe (SafeLog), and planpr's own
// commands said between stop-commands tokens (Log).
package actionlog

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"strings"

	"github.com/planpr/planpr/render/mask"
	"github.com/planpr/planpr/render/md"
)

// SafeLog makes text fit to print where GitHub Actions reads workflow
// commands (a step's stdout and stderr): credential-shaped strings are
// masked; invisible and control characters other than newline and tab (a
// carriage return starts a new line for the runner too) are shown as
// \uXXXX; a line that would start with "::" has it broken up, and so has
// the older "##[" form anywhere. Every message that may carry untrusted
// text — plan values, file names, lock-file contents — goes through it
// before it is printed.
func SafeLog(s string) string {
	s = md.Visible(mask.MaskCredentials(s))
	if !strings.Contains(s, "::") && !strings.Contains(s, "##[") {
		return s
	}
	var b strings.Builder
	for i, line := range strings.Split(s, "\n") {
		if i > 0 {
			b.WriteByte('\n')
		}
		if t := strings.TrimLeft(line, " \t"); strings.HasPrefix(t, "::") {
			line = line[:len(line)-len(t)] + ": :" + t[2:]
		}
		b.WriteString(strings.ReplaceAll(line, "##[", "## ["))
	}
	return b.String()
}

// commandData escapes a workflow command's message the way the runner
// unescapes it, so it stays one command.
func commandData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// Log is the Action's output: everything it prints is inside a
// ::stop-commands:: window, so nothing in plan values, file names or error
// messages can issue a workflow command, and planpr's own annotations
// (warnings, notices, the final error) are issued between windows, their
// messages escaped. Each window has a fresh random token, never printed
// anywhere else.
type Log struct {
	w     io.Writer
	token string
}

// New opens the first window.
func New(w io.Writer) *Log {
	l := &Log{w: w}
	l.stop()
	return l
}

func (l *Log) stop() {
	b := make([]byte, 16)
	rand.Read(b)
	l.token = "planpr-" + hex.EncodeToString(b)
	fmt.Fprintf(l.w, "::stop-commands::%s\n", l.token)
}

func (l *Log) resume() { fmt.Fprintf(l.w, "::%s::\n", l.token) }

// Printf prints a line inside the window.
func (l *Log) Printf(format string, args ...any) {
	fmt.Fprintf(l.w, format+"\n", args...)
}

// Command issues a workflow command (warning, notice, error, group,
// endgroup) between two windows.
func (l *Log) Command(name, message string) {
	l.resume()
	fmt.Fprintf(l.w, "::%s::%s\n", name, commandData(message))
	l.stop()
}

// Close ends the last window.
func (l *Log) Close() { l.resume() }
