// Package findings reads what scanners say about a configuration — SARIF
// 2.1.0 from any tool (tfsec, Trivy, Checkov, KICS, TFLint) — and places
// each finding on the resources of a plan: by the address a finding names
// itself, else by the file and line of the configuration block that holds
// it (Index). It reads and places; the comment and the gate show them.
package findings

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Severity orders findings: a gate fails at or above one.
type Severity int

const (
	Info Severity = iota
	Low
	Medium
	High
	Critical
)

var severityNames = [...]string{"info", "low", "medium", "high", "critical"}

func (s Severity) String() string {
	if s < Info || s > Critical {
		return fmt.Sprintf("Severity(%d)", int(s))
	}
	return severityNames[s]
}

// ParseSeverity reads a severity's name, in any case.
func ParseSeverity(s string) (Severity, error) {
	for i, n := range severityNames {
		if strings.EqualFold(s, n) {
			return Severity(i), nil
		}
	}
	return 0, fmt.Errorf("severity %q: want critical, high, medium, low or info", s)
}

// A Finding is one result of a scanner.
type Finding struct {
	Tool, RuleID string
	// HelpURI is the rule's documentation, when the report gives one;
	// RuleText the rule's own short description ("" when none).
	HelpURI  string
	RuleText string
	Message  string
	Severity Severity
	// File and Line are where the report places it: File as the report
	// names it (relative to the directory scanned), Line from 1 (0 when
	// the report gives none).
	File string
	Line int
	// Address is the resource the finding names itself ("" when none).
	Address string
	// Denied says a policy engine denied the change (conftest, OPA).
	Denied bool
}

// Error is a report planpr cannot read, located in its file.
type Error struct {
	File         string
	Line, Column int
	Msg          string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Column, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// errorAt locates msg at byte offset off of data.
func errorAt(file string, data []byte, off int64, msg string) *Error {
	off = min(max(off, 0), int64(len(data)))
	before := data[:off]
	line := bytes.Count(before, []byte("\n")) + 1
	col := int(off) - (bytes.LastIndexByte(before, '\n') + 1) + 1
	return &Error{File: file, Line: line, Column: col, Msg: msg}
}

// decode reads a report of file into v: within MaxReportBytes, its JSON
// errors located in the file, what says what it should have been ("a
// SARIF log").
func decode(file string, data []byte, v any, what string) error {
	if len(data) > MaxReportBytes {
		return &Error{File: file, Msg: fmt.Sprintf("a report of %d bytes, over planpr's %d: scan less at once, or raise the tool's minimum severity", len(data), MaxReportBytes)}
	}
	err := json.Unmarshal(data, v, jsontext.AllowDuplicateNames(true))
	var syn *jsontext.SyntacticError
	var sem *json.SemanticError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &syn):
		return errorAt(file, data, syn.ByteOffset, "not JSON: "+syn.Err.Error())
	case errors.As(err, &sem):
		return errorAt(file, data, sem.ByteOffset, "not "+what+": "+strings.TrimPrefix(sem.Error(), "json: "))
	}
	return &Error{File: file, Msg: err.Error()}
}
