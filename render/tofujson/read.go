package tofujson

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
)

// Section names of the two streamed arrays.
const (
	SectionDrift   = "resource_drift"
	SectionChanges = "resource_changes"
)

// Visitor receives each resource change as it is decoded, in document order.
// The ResourceChange is only valid during the call.
type Visitor func(section string, rc *ResourceChange) error

// ReadPlanFile reads a plan JSON document in one pass, streaming every
// element of "resource_drift" and "resource_changes" to visit (which may be
// nil) and returning the rest. When sections are named, only those of the
// two arrays are decoded; the others are skipped. Errors are *InputError values naming the file
// and, for syntax errors, the line and column.
func ReadPlanFile(path string, visit Visitor, sections ...string) (*Plan, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, &InputError{File: path, Msg: strings.TrimPrefix(err.Error(), "open "+path+": ")}
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 1<<16)
	if err := sniff(path, br); err != nil {
		return nil, err
	}
	p, err := readPlan(path, br, visit, sections)
	if err != nil {
		return nil, err
	}
	return p, nil
}

// sniff looks at the start of the input to give a helpful error for the
// common ways a plan file goes wrong before any JSON is decoded.
func sniff(path string, br *bufio.Reader) error {
	head, _ := br.Peek(4096)
	trimmed := bytes.TrimLeft(head, " \t\r\n\ufeff")
	lead := len(head) - len(trimmed)
	switch {
	case len(trimmed) == 0:
		return &InputError{File: path, Msg: "the file is empty: expected the output of `tofu show -json PLANFILE`"}
	case trimmed[0] == '{':
		return nil
	}
	line, col := 1, 1
	for _, b := range head[:lead] {
		if b == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	first := string(trimmed)
	if i := strings.IndexByte(first, '\n'); i >= 0 {
		first = first[:i]
	}
	if strings.HasPrefix(first, "[command]") || strings.HasPrefix(first, "::") {
		return &InputError{File: path, Line: line, Column: col, Msg: "not plain JSON: the file holds GitHub Actions log lines (" + clip(first, 40) +
			"); the setup-terraform/setup-opentofu wrapper adds them: set `terraform_wrapper: false` / `tofu_wrapper: false`, or write the JSON with `tofu show -json PLANFILE > plan.json`"}
	}
	return &InputError{File: path, Line: line, Column: col, Msg: fmt.Sprintf("not JSON: expected the output of `tofu show -json PLANFILE`, found %q", clip(first, 40))}
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

func readPlan(path string, r io.Reader, visit Visitor, sections []string) (*Plan, error) {
	dec := json.NewDecoder(r)
	dec.UseNumber()
	fail := func(err error) (*Plan, error) { return nil, wrapJSONError(path, err, dec.InputOffset()) }

	if _, err := dec.Token(); err != nil { // '{', checked by sniff
		return fail(err)
	}
	p := &Plan{Sections: map[string]bool{}}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return fail(err)
		}
		key, _ := tok.(string)
		keyOffset := dec.InputOffset()
		p.Sections[key] = true
		switch key {
		case "format_version":
			var v any
			if err := dec.Decode(&v); err != nil {
				return fail(err)
			}
			s, ok := v.(string)
			if !ok {
				return nil, errorAt(path, keyOffset, fmt.Sprintf("format_version must be a string, got %v", v))
			}
			if err := checkPlanVersion(s); err != nil {
				return nil, errorAt(path, keyOffset, err.Error())
			}
			p.FormatVersion = s
		case "terraform_version":
			err = dec.Decode(&p.TerraformVersion)
		case "variables":
			err = dec.Decode(&p.Variables)
		case "output_changes":
			err = dec.Decode(&p.OutputChanges)
			if err == nil {
				for name, oc := range p.OutputChanges {
					if _, aerr := ParseActions(oc.Actions); aerr != nil {
						return nil, errorAt(path, keyOffset, fmt.Sprintf("output %q: %v", name, aerr))
					}
				}
			}
		case "relevant_attributes":
			err = dec.Decode(&p.RelevantAttributes)
		case "errored":
			err = dec.Decode(&p.Errored)
		case "configuration":
			err = dec.Decode(&p.Configuration)
		case "checks":
			err = dec.Decode(&p.Checks)
		case SectionChanges, SectionDrift:
			if len(sections) > 0 && !slices.Contains(sections, key) {
				err = skipValue(dec)
			} else {
				err = streamChanges(path, dec, key, visit)
			}
		default:
			err = skipValue(dec)
		}
		if err != nil {
			return fail(err)
		}
	}
	if _, err := dec.Token(); err != nil { // '}'
		return fail(err)
	}
	if err := checkTrailing(path, dec); err != nil {
		return nil, err
	}
	if err := checkIsPlan(path, p); err != nil {
		return nil, err
	}
	return p, nil
}

func streamChanges(path string, dec *json.Decoder, section string, visit Visitor) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok == nil { // "resource_changes": null
		return nil
	}
	if d, ok := tok.(json.Delim); !ok || d != '[' {
		return errorAt(path, dec.InputOffset(), section+" must be an array")
	}
	for dec.More() {
		start := dec.InputOffset()
		var rc ResourceChange
		if err := dec.Decode(&rc); err != nil {
			return err
		}
		if _, err := ParseActions(rc.Change.Actions); err != nil {
			return errorAt(path, start, fmt.Sprintf("%s %s: %v", section, rc.Address, err))
		}
		if visit != nil {
			if err := visit(section, &rc); err != nil {
				return err
			}
		}
	}
	_, err = dec.Token() // ']'
	return err
}

// skipValue consumes one JSON value token by token without building it.
func skipValue(dec *json.Decoder) error {
	depth := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		if d, ok := tok.(json.Delim); ok {
			switch d {
			case '{', '[':
				depth++
			default:
				depth--
			}
		}
		if depth == 0 {
			return nil
		}
	}
}

func checkTrailing(path string, dec *json.Decoder) error {
	rest := dec.Buffered()
	var buf [256]byte
	n, _ := io.ReadFull(rest, buf[:])
	trimmed := bytes.TrimLeft(buf[:n], " \t\r\n")
	if len(trimmed) == 0 {
		return nil
	}
	off := dec.InputOffset() + int64(n-len(trimmed))
	line := string(trimmed)
	if i := strings.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	msg := fmt.Sprintf("unexpected text after the plan JSON: %q", clip(line, 40))
	if strings.HasPrefix(line, "::") || strings.HasPrefix(line, "[command]") {
		msg += " (GitHub Actions log lines from the setup-terraform/setup-opentofu wrapper: set `terraform_wrapper: false` / `tofu_wrapper: false`)"
	}
	return errorAt(path, off, msg)
}

// checkPlanVersion accepts format_version 1.x.
func checkPlanVersion(v string) error {
	major, _, _ := strings.Cut(v, ".")
	if n, err := strconv.Atoi(major); err != nil || n != 1 {
		return fmt.Errorf("unsupported plan format_version %q: planpr reads 1.x", v)
	}
	return nil
}

func checkIsPlan(path string, p *Plan) error {
	if p.FormatVersion == "" {
		return &InputError{File: path, Msg: "no format_version: not the output of `tofu show -json PLANFILE`"}
	}
	planish := p.Sections["planned_values"] || p.Sections[SectionChanges] || p.Sections["output_changes"] ||
		p.Sections[SectionDrift] || p.Sections["prior_state"] || p.Sections["configuration"]
	if p.Sections["values"] && !planish {
		return &InputError{File: path, Msg: "this is a state, not a plan (it has \"values\" and no planned changes): render reads `tofu show -json PLANFILE`"}
	}
	return nil
}

// NewerThanRenderer reports whether the plan's format_version is newer than
// the 1.2 OpenTofu's renderer was written for, compared as numbers the way
// OpenTofu does, which makes it print its version warning.
func (p *Plan) NewerThanRenderer() bool {
	return versionAbove(p.FormatVersion, 1.2)
}

func versionAbove(v string, limit float64) bool {
	f, err := strconv.ParseFloat(v, 64)
	return err == nil && f > limit
}
