// Package uistream reads the machine-readable UI stream that `tofu plan
// -json`, `tofu apply -json` and `tofu test -json` write (and Terraform's
// the same), one message a line, within depth limits, with located errors.
package uistream

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"

	"github.com/planpr/planpr/render/tofujson"
	"github.com/planpr/planpr/render/tofujson/internal/jsonread"
)

// Message is one line of the machine-readable UI stream written by
// `tofu plan -json`, `tofu apply -json` and `tofu test -json`. Which fields
// are set depends on Type.
type Message struct {
	Level     string `json:"@level"`
	Text      string `json:"@message"`
	Module    string `json:"@module"`
	Timestamp string `json:"@timestamp"`
	Type      string `json:"type"`
	TestFile  string `json:"@testfile"`
	TestRun   string `json:"@testrun"`

	// version
	Terraform string `json:"terraform"`
	UI        string `json:"ui"`

	Diagnostic *Diagnostic             `json:"diagnostic"`
	Change     *StreamChange           `json:"change"`  // planned_change, resource_drift
	Changes    *ChangeSummary          `json:"changes"` // change_summary
	Outputs    map[string]StreamOutput `json:"outputs"`
	Hook       *Hook                   `json:"hook"`
	Abstract   map[string][]string     `json:"test_abstract"`
	File       *TestFileStatus         `json:"test_file"`
	Run        *TestRunStatus          `json:"test_run"`
	Summary    *TestSummary            `json:"test_summary"`
	Cleanup    *TestCleanup            `json:"test_cleanup"`

	Line int `json:"-"` // 1-based line number in the stream
}

// Diagnostic is an error or warning with its source location.
type Diagnostic struct {
	Severity string           `json:"severity"`
	Summary  string           `json:"summary"`
	Detail   string           `json:"detail"`
	Address  string           `json:"address"`
	Range    *DiagnosticRange `json:"range"`
	Snippet  *Snippet         `json:"snippet"`
}

// DiagnosticRange is a source range; Start is inclusive, End exclusive.
type DiagnosticRange struct {
	Filename string `json:"filename"`
	Start    Pos    `json:"start"`
	End      Pos    `json:"end"`
}

// Pos is a position in a source file.
type Pos struct {
	Line   int `json:"line"`
	Column int `json:"column"`
	Byte   int `json:"byte"`
}

// Snippet is the source code around a diagnostic, with the part to
// highlight given as offsets into Code.
type Snippet struct {
	Context              *string           `json:"context"`
	Code                 string            `json:"code"`
	StartLine            int               `json:"start_line"`
	HighlightStartOffset int               `json:"highlight_start_offset"`
	HighlightEndOffset   int               `json:"highlight_end_offset"`
	Values               []ExpressionValue `json:"values"`
}

// ExpressionValue describes a value that took part in a failed expression.
type ExpressionValue struct {
	Traversal string `json:"traversal"`
	Statement string `json:"statement"`
}

// ResourceAddr identifies a resource instance in stream messages.
type ResourceAddr struct {
	Addr         string          `json:"addr"`
	Module       string          `json:"module"`
	Resource     string          `json:"resource"`
	ResourceType string          `json:"resource_type"`
	ResourceName string          `json:"resource_name"`
	ResourceKey  json.RawMessage `json:"resource_key"`
}

// StreamChange is a planned change or drift in the stream.
type StreamChange struct {
	Resource         ResourceAddr  `json:"resource"`
	PreviousResource *ResourceAddr `json:"previous_resource"`
	Action           string        `json:"action"`
	Reason           string        `json:"reason"`
}

// ChangeSummary is the stream's own count of an operation's changes.
type ChangeSummary struct {
	Add       int    `json:"add"`
	Change    int    `json:"change"`
	Import    int    `json:"import"`
	Remove    int    `json:"remove"`
	Forget    int    `json:"forget"`
	Operation string `json:"operation"` // plan, apply, destroy
}

// StreamOutput is one root output in an "outputs" message. The stream
// carries sensitive values in clear.
type StreamOutput struct {
	Sensitive bool            `json:"sensitive"`
	Type      json.RawMessage `json:"type"`
	Value     any             `json:"value"`
	Action    string          `json:"action"`
}

// Hook is the progress of one resource operation.
type Hook struct {
	Resource       ResourceAddr `json:"resource"`
	Action         string       `json:"action"`
	IDKey          string       `json:"id_key"`
	IDValue        string       `json:"id_value"`
	ElapsedSeconds float64      `json:"elapsed_seconds"`
	Provisioner    string       `json:"provisioner"`
	Output         string       `json:"output"`
}

// TestFileStatus is a test file's status.
type TestFileStatus struct {
	Path   string `json:"path"`
	Status string `json:"status"`
}

// TestRunStatus is one run block's status.
type TestRunStatus struct {
	Path   string `json:"path"`
	Run    string `json:"run"`
	Status string `json:"status"`
}

// TestSummary is the stream's own totals of a test run.
type TestSummary struct {
	Status  string `json:"status"`
	Passed  int    `json:"passed"`
	Failed  int    `json:"failed"`
	Errored int    `json:"errored"`
	Skipped int    `json:"skipped"`
}

// TestCleanup lists resources a test could not destroy.
type TestCleanup struct {
	FailedResources []struct {
		Instance   string `json:"instance"`
		DeposedKey string `json:"deposed_key"`
	} `json:"failed_resources"`
}

// StreamInfo is what the reader learned about the stream as a whole.
type StreamInfo struct {
	Version   string // of OpenTofu/Terraform; "" without a version line
	UI        string // "" without a version line
	Lines     int
	Messages  int
	Truncated int // line number of a final line cut off mid-message, or 0
}

// IsStream reports whether the file starts like a UI stream: its first
// line is a "version" message or, in a stream whose version line was cut
// (Terraform Cloud's logs), a message with its "@level", "@message" and
// "type". It reads no more than such a line can be: `tofu show -json`
// writes a plan as one line, hundreds of megabytes long.
func IsStream(fs *tofujson.Files, path string) bool {
	f, err := fs.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	first, err := bufio.NewReaderSize(f, maxFirstLine).ReadSlice('\n')
	if err != nil && err != io.EOF {
		return false // longer than a first message, or unreadable
	}
	return isFirstMessage(first)
}

// isFirstMessage reports whether line can start a UI stream.
func isFirstMessage(line []byte) bool {
	var m struct {
		Type    string  `json:"type"`
		UI      string  `json:"ui"`
		Level   string  `json:"@level"`
		Message *string `json:"@message"`
	}
	if json.Unmarshal(line, &m) != nil || m.Type == "" {
		return false
	}
	return (m.Type == "version" && m.UI != "") || (m.Level != "" && m.Message != nil)
}

// maxFirstLine bounds the first line of a stream: a version message is a
// couple of hundred bytes; a diagnostic, a few KB.
const maxFirstLine = 64 << 10

// ReadStreamFile reads a UI stream, one message a line, calling visit for
// each. The first line must be the version message with ui major version 1.
// A line that is not a JSON message is an error naming its line number;
// a last line cut off mid-message (an interrupted run) is reported in
// StreamInfo.Truncated rather than failing.
func ReadStreamFile(fs *tofujson.Files, path string, visit func(*Message) error) (*StreamInfo, error) {
	f, err := fs.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readStream(path, f, visit)
}

// messageDepth is how deep a message holds its values (outputs, hooks).
const messageDepth = 8

func readStream(path string, r io.Reader, visit func(*Message) error) (*StreamInfo, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	info := &StreamInfo{}
	for lineNo := 1; ; lineNo++ {
		line, err := br.ReadBytes('\n')
		if len(line) == 0 && err == io.EOF {
			break
		}
		if err != nil && err != io.EOF {
			return nil, &tofujson.InputError{File: path, Line: lineNo, Column: 1, Msg: err.Error()}
		}
		atEOF := err == io.EOF
		info.Lines = lineNo
		trimmed := bytes.TrimSpace(line)
		if len(trimmed) == 0 {
			continue
		}
		if !jsonread.DepthWithin(trimmed, tofujson.MaxValueDepth+messageDepth) {
			return nil, &tofujson.InputError{File: path, Line: lineNo, Column: 1, Msg: tofujson.ErrTooDeep.Error()}
		}
		var m Message
		if jerr := json.Unmarshal(trimmed, &m); jerr != nil || m.Type == "" {
			if atEOF && trimmed[0] == '{' && jerr != nil && isTruncation(trimmed) {
				info.Truncated = lineNo
				break
			}
			what := "not a JSON message"
			if jerr == nil {
				what = "a JSON value without a \"type\""
			}
			return nil, &tofujson.InputError{File: path, Line: lineNo, Column: 1, Msg: fmt.Sprintf("%s: %q (expected one message a line from `tofu plan -json`, `tofu apply -json` or `tofu test -json`)", what, jsonread.Clip(string(trimmed), 60))}
		}
		jsonread.ObjectsIn(reflect.ValueOf(&m))
		m.Line = lineNo
		if info.Messages == 0 {
			if !isFirstMessage(trimmed) {
				return nil, &tofujson.InputError{File: path, Line: lineNo, Column: 1, Msg: fmt.Sprintf("a UI stream starts with a \"version\" message, or a message with \"@level\" and \"@message\"; not %q", jsonread.Clip(string(trimmed), 60))}
			}
			if m.Type == "version" {
				if err := checkUIVersion(m.UI); err != nil {
					return nil, &tofujson.InputError{File: path, Line: lineNo, Column: 1, Msg: err.Error()}
				}
				info.UI, info.Version = m.UI, m.Terraform
			}
		}
		info.Messages++
		if visit != nil {
			if err := visit(&m); err != nil {
				return nil, err
			}
		}
	}
	if info.Messages == 0 {
		return nil, &tofujson.InputError{File: path, Msg: "the stream is empty: expected the output of `tofu plan -json` (or apply/test)"}
	}
	return info, nil
}

// isTruncation reports whether a line fails to parse only because it ends
// early.
func isTruncation(line []byte) bool {
	var v any
	err := json.Unmarshal(line, &v)
	var syn *json.SyntaxError
	return err != nil && (strings.Contains(err.Error(), "unexpected end of JSON input") ||
		(asSyntax(err, &syn) && syn.Offset >= int64(len(line))))
}

func asSyntax(err error, target **json.SyntaxError) bool {
	s, ok := err.(*json.SyntaxError)
	if ok {
		*target = s
	}
	return ok
}

// checkUIVersion accepts ui 1.x, and the 0.x that preceded it (Terraform
// 0.15 wrote ui "0.1.0" in the same shape).
func checkUIVersion(v string) error {
	major, _, _ := strings.Cut(v, ".")
	if n, err := strconv.Atoi(major); err != nil || n > 1 || n < 0 {
		return fmt.Errorf("unsupported UI stream version %q: planpr reads ui 1.x", v)
	}
	return nil
}
