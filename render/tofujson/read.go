package tofujson

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/planpr/planpr/render/tofujson/internal/jsonread"
)

// Section names of the two streamed arrays.
const (
	SectionDrift   = "resource_drift"
	SectionChanges = "resource_changes"
)

// Visitor receives each resource change as it is decoded, in document order.
// The ResourceChange is only valid during the call.
type Visitor func(section string, rc *ResourceChange) error

// ReadOptions tune a pass over a plan.
type ReadOptions struct {
	// Sections, when set, are the streamed arrays to decode; the others
	// are skipped unread.
	Sections []string
	// Lazy leaves each change's values raw until Change.Decode.
	Lazy bool
	// SkipValues names sections whose changes' values are skipped: checked
	// but neither kept nor decoded. A ChangeReader reads them later from
	// the change's Span.
	SkipValues []string
	// Files are the run's open inputs, the plan among them; nil opens it
	// afresh.
	Files *Files
}

// ReadPlanFile reads a plan JSON document in one pass, streaming every
// element of "resource_drift" and "resource_changes" to visit (which may be
// nil) and returning the rest. When sections are named, only those of the
// two arrays are decoded; the others are skipped. Errors are *InputError
// values naming the file and, for syntax errors, the line and column.
func ReadPlanFile(path string, visit Visitor, sections ...string) (*Plan, error) {
	return ReadPlan(path, ReadOptions{Sections: sections}, visit)
}

// ReadPlan is ReadPlanFile with options.
func ReadPlan(path string, opts ReadOptions, visit Visitor) (*Plan, error) {
	f, br, err := opts.Files.openJSON(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readPlan(path, br, opts, visit)
}

// openJSON opens a JSON document, having checked that it starts like one.
// jsontext reads into a buffer only as large as the longest token needs,
// a few KB at a time: a large bufio.Reader in front saves thousands of
// read calls on a large plan.
func (fs *Files) openJSON(path string) (Text, io.Reader, error) { return fs.openJSONOf(path, false) }

// openJSONOf is openJSON that also takes a document that is an array
// (arrays: conftest's output is one), for telling what it is.
func (fs *Files) openJSONOf(path string, arrays bool) (Text, io.Reader, error) {
	f, err := fs.Open(path)
	if err != nil {
		return nil, nil, err
	}
	head := make([]byte, 4096)
	n, _ := f.ReadAt(head, 0)
	if t := bytes.TrimLeft(head[:n], " \t\r\n\ufeff"); arrays && len(t) > 0 && t[0] == '[' {
		// an array: its reader says what it is
	} else if err := sniff(path, bufio.NewReader(bytes.NewReader(head[:n]))); err != nil {
		f.Close()
		return nil, nil, err
	}
	size := int64(1 << 18)
	if n := textSize(f); n >= 0 {
		size = min(size, max(n, 4096)) // a small plan, of thousands in one file, gets a small buffer
	}
	return f, bufio.NewReaderSize(f, int(size)), nil
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
	line, col := jsonread.LineCol(head, int64(lead))
	first := string(trimmed)
	if i := strings.IndexByte(first, '\n'); i >= 0 {
		first = first[:i]
	}
	if strings.HasPrefix(first, "PK\x03\x04") {
		return &InputError{File: path, Line: line, Column: col, Msg: "a binary plan file (the zip `tofu plan -out` writes), not its JSON: run `tofu show -json PLANFILE > plan.json`"}
	}
	if strings.HasPrefix(first, "# This file is maintained automatically") || strings.HasPrefix(first, `provider "`) {
		return &InputError{File: path, Line: line, Column: col, Msg: "a dependency lock file (.terraform.lock.hcl), not JSON: `planpr lockdiff BEFORE AFTER` compares lock files, and the Action, the App and dry-run find the ones a pull request changes themselves"}
	}
	if strings.HasPrefix(first, "[command]") || strings.HasPrefix(first, "::") {
		return &InputError{File: path, Line: line, Column: col, Msg: "not plain JSON: the file holds GitHub Actions log lines (" + jsonread.Clip(first, 40) +
			"); the setup-terraform/setup-opentofu wrapper adds them: set `terraform_wrapper: false` / `tofu_wrapper: false`, or write the JSON with `tofu show -json PLANFILE > plan.json`"}
	}
	return &InputError{File: path, Line: line, Column: col, Msg: fmt.Sprintf("not JSON: expected the output of `tofu show -json PLANFILE`, found %q", jsonread.Clip(first, 40))}
}

// reader walks a plan document token by token.
type reader struct {
	path string
	dec  jsonread.Tokens
	opts ReadOptions
	// skipValues is set while reading a section named in opts.SkipValues.
	skipValues bool
	// src is the whole input, when it is held in memory (see decodeIn).
	src string
}

// errorAt is an InputError at a byte offset of the reader's file.
func (r *reader) errorAt(offset int64, msg string) *InputError {
	return r.opts.Files.ErrorAt(r.path, offset, msg)
}

// fail turns a decoding error into a located InputError.
func (r *reader) fail(err error) error {
	var ie *InputError
	var several *SeveralPlansError
	if errors.As(err, &ie) || errors.As(err, &several) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err // a stopped read is not the file's fault
	}
	var syn *jsontext.SyntacticError
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		off := r.dec.InputOffset()
		if fi, serr := os.Stat(r.path); serr == nil {
			off = fi.Size()
		}
		return r.errorAt(off, "truncated JSON: the file ends in the middle of the document")
	case errors.As(err, &syn):
		msg := syn.Err.Error()
		return r.errorAt(syn.ByteOffset, "invalid JSON: "+msg)
	}
	return r.errorAt(r.dec.InputOffset(), err.Error())
}

// expect reads a delimiter.
func (r *reader) expect(kind jsontext.Kind, what string) error {
	tok, err := r.dec.ReadToken()
	if err != nil {
		return err
	}
	if tok.Kind() != kind {
		return r.errorAt(r.dec.InputOffset()-1, fmt.Sprintf("%s: got %s, want %s", what, jsonread.KindName(tok.Kind()), jsonread.KindName(kind)))
	}
	return nil
}

// members walks an object: each is called with every member's name, and
// must read (or skip) its value.
func (r *reader) members(what string, each func(key string) error) error {
	if err := r.expect('{', what); err != nil {
		return err
	}
	for r.dec.PeekKind() != '}' {
		key, err := r.name()
		if err != nil {
			return err
		}
		if err := each(key); err != nil {
			return err
		}
	}
	_, err := r.dec.ReadToken()
	return err
}

// name reads an object member's name. The names plans are made of come
// from a table: a plan has tens of them per resource, and making each
// anew was a good part of what the first pass allocates.
func (r *reader) name() (string, error) {
	raw, err := r.dec.ReadValue()
	if err != nil {
		return "", err
	}
	if name, ok := knownNames[string(raw)]; ok {
		return name, nil
	}
	name, err := jsontext.AppendUnquote(nil, raw)
	return string(name), err
}

// knownNames maps the quoted names of plan objects to their text.
var knownNames = func() map[string]string {
	m := map[string]string{}
	for _, name := range []string{
		"address", "previous_address", "module_address", "mode", "type", "name", "index", "deposed",
		"provider_name", "action_reason", "change", "actions", "before", "after", "after_unknown",
		"before_sensitive", "after_sensitive", "replace_paths", "importing", "generated_config",
		"id", "identity", "unknown", "before_identity", "after_identity",
	} {
		m[strconv.Quote(name)] = name
	}
	return m
}()

// small decodes a small value with encoding/json (numbers kept as text).
func (r *reader) small(dst any, what string) error {
	start := r.dec.InputOffset()
	raw, err := r.dec.ReadValue()
	if err != nil {
		return err
	}
	if err := r.checkDepth(raw, start); err != nil {
		return err
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	if err := d.Decode(dst); err != nil {
		var typ *json.UnmarshalTypeError
		if errors.As(err, &typ) {
			return r.errorAt(start+typ.Offset, fmt.Sprintf("invalid JSON for %s: got %s, want %s", cmp.Or(typ.Field, what), typ.Value, typ.Type))
		}
		return r.errorAt(start, fmt.Sprintf("invalid %s: %v", what, err))
	}
	jsonread.ObjectsIn(reflect.ValueOf(dst))
	return nil
}

func readPlan(path string, in io.Reader, opts ReadOptions, visit Visitor) (*Plan, error) {
	// Plans from tofu have no duplicate names; not checking saves time.
	r := &reader{path: path, dec: jsontext.NewDecoder(in, jsontext.AllowDuplicateNames(true)), opts: opts}
	p, err := r.plan(visit)
	if err != nil {
		return nil, r.fail(err)
	}
	if err := checkIsPlan(path, p); err != nil {
		return nil, err
	}
	return p, nil
}

func (r *reader) plan(visit Visitor) (*Plan, error) {
	p := &Plan{Sections: map[string]bool{}}
	err := r.members("a plan", func(key string) (err error) {
		keyOffset := r.dec.InputOffset()
		if p.Sections[key] {
			return duplicateMember(r.path, keyOffset, key, "a plan")
		}
		p.Sections[key] = true
		switch key {
		case "@level", "@message", "@module":
			return &InputError{File: r.path, Msg: "a UI stream (`tofu plan -json`) without its first, \"version\" line: pass the whole stream as written"}
		case "format_version":
			var v any
			if err := r.small(&v, key); err != nil {
				return err
			}
			s, ok := v.(string)
			if !ok {
				return r.errorAt(keyOffset, fmt.Sprintf("format_version must be a string, got %v", v))
			}
			if err := checkPlanVersion(s); err != nil {
				return r.errorAt(keyOffset+1, err.Error())
			}
			p.FormatVersion = s
		case "terraform_version":
			p.TerraformVersion, err = jsonread.ReadString(r.dec)
		case "variables":
			err = r.small(&p.Variables, key)
		case "output_changes":
			if err = r.small(&p.OutputChanges, key); err != nil {
				return err
			}
			for name, oc := range p.OutputChanges {
				if _, aerr := ParseActions(oc.Actions); aerr != nil {
					return r.errorAt(keyOffset, fmt.Sprintf("output %q: %v", name, aerr))
				}
			}
		case "relevant_attributes":
			err = r.small(&p.RelevantAttributes, key)
		case "errored":
			err = r.small(&p.Errored, key)
		case "configuration":
			p.Configuration, err = jsonread.RawValue(r.dec)
		case "checks":
			err = r.small(&p.Checks, key)
		case "deferred_changes":
			if err = r.small(&p.DeferredChanges, key); err == nil {
				for _, d := range p.DeferredChanges {
					if _, aerr := ParseActions(d.ResourceChange.Change.Actions); aerr != nil {
						return r.errorAt(keyOffset, fmt.Sprintf("deferred change %q: %v", d.ResourceChange.Address, aerr))
					}
				}
			}
		case "action_invocations":
			err = r.small(&p.ActionInvocations, key)
		case SectionChanges, SectionDrift:
			if len(r.opts.Sections) > 0 && !slices.Contains(r.opts.Sections, key) {
				err = r.dec.SkipValue()
			} else {
				err = r.changes(key, visit)
			}
		default:
			err = r.dec.SkipValue()
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	if err := r.trailing("plan"); err != nil {
		return nil, err
	}
	return p, nil
}

// trailing rejects text after the document (what: "plan" or "state"),
// unless another plan follows a plan: then the file holds several plans.
func (r *reader) trailing(what string) error {
	if what == "plan" && r.dec.PeekKind() == '{' {
		return &SeveralPlansError{File: r.path}
	}
	_, err := r.dec.ReadToken()
	if err == io.EOF {
		return nil
	}
	off := r.dec.InputOffset()
	var syn *jsontext.SyntacticError
	if errors.As(err, &syn) {
		off = syn.ByteOffset
	}
	line := r.lineAt(off)
	msg := fmt.Sprintf("unexpected text after the %s JSON: %q", what, jsonread.Clip(line, 40))
	if strings.HasPrefix(line, "::") || strings.HasPrefix(line, "[command]") {
		msg += " (GitHub Actions log lines from the setup-terraform/setup-opentofu wrapper: set `terraform_wrapper: false` / `tofu_wrapper: false`)"
	}
	return r.errorAt(off, msg)
}

// lineAt reads the rest of the line at a byte offset of the file.
func (r *reader) lineAt(off int64) string {
	f, err := r.opts.Files.Open(r.path)
	if err != nil {
		return ""
	}
	defer f.Close()
	buf := make([]byte, 200)
	n, _ := f.ReadAt(buf, off)
	s := strings.TrimLeft(string(buf[:n]), " \t\r\n")
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		s = s[:i]
	}
	return s
}

func (r *reader) changes(section string, visit Visitor) error {
	if r.dec.PeekKind() == 'n' {
		_, err := r.dec.ReadToken()
		return err
	}
	if err := r.expect('[', section); err != nil {
		return err
	}
	r.skipValues = slices.Contains(r.opts.SkipValues, section)
	defer func() { r.skipValues = false }()
	var rc ResourceChange
	for r.dec.PeekKind() != ']' {
		start := r.dec.InputOffset()
		rc = ResourceChange{}
		if err := r.resourceChange(&rc); err != nil {
			return err
		}
		rc.Span = Span{Start: start, End: r.dec.InputOffset()}
		if _, err := ParseActions(rc.Change.Actions); err != nil {
			return r.errorAt(r.startOf(start), fmt.Sprintf("%s %s: %v", section, rc.Address, err))
		}
		if !r.opts.Lazy && !r.skipValues {
			if err := rc.Change.Decode(); err != nil {
				return err
			}
		}
		if visit != nil {
			if err := visit(section, &rc); err != nil {
				return err
			}
		}
	}
	_, err := r.dec.ReadToken()
	return err
}

// startOf skips the separator between array elements.
func (r *reader) startOf(off int64) int64 {
	f, err := r.opts.Files.Open(r.path)
	if err != nil {
		return off
	}
	defer f.Close()
	buf := make([]byte, 64)
	n, _ := f.ReadAt(buf, off)
	if rest := bytes.TrimLeft(buf[:n], ", \n\r\t"); len(rest) > 0 {
		return off + int64(n-len(rest))
	}
	return off
}

// resourceChangeStrings are the string members of a resource change.
var resourceChangeStrings = map[string]func(*ResourceChange) *string{
	"address": func(rc *ResourceChange) *string { return &rc.Address }, "previous_address": func(rc *ResourceChange) *string { return &rc.PreviousAddress },
	"module_address": func(rc *ResourceChange) *string { return &rc.ModuleAddress }, "mode": func(rc *ResourceChange) *string { return &rc.Mode },
	"type": func(rc *ResourceChange) *string { return &rc.Type }, "name": func(rc *ResourceChange) *string { return &rc.Name },
	"deposed": func(rc *ResourceChange) *string { return &rc.Deposed }, "provider_name": func(rc *ResourceChange) *string { return &rc.ProviderName },
	"action_reason": func(rc *ResourceChange) *string { return &rc.ActionReason },
}

// changeValues are the places of a change's five values, by name.
var changeValues = map[string]int{"before": 0, "after": 1, "after_unknown": 2, "before_sensitive": 3, "after_sensitive": 4}

// noRawValues is where a change that keeps no raw values points: nothing writes it.
var noRawValues rawValues

func (r *reader) resourceChange(rc *ResourceChange) error {
	return r.members("a resource change", func(key string) (err error) {
		switch field := resourceChangeStrings[key]; {
		case field != nil:
			*field(rc), err = r.str(key)
		case key == "index":
			rc.Index, err = jsonread.RawValue(r.dec)
		case key == "change":
			err = r.change(&rc.Change)
		default:
			err = r.dec.SkipValue()
		}
		return err
	})
}

// strings reads an array of strings (or null).
func (r *reader) strings(what string) ([]string, error) {
	if r.dec.PeekKind() == 'n' {
		_, err := r.dec.ReadToken()
		return nil, err
	}
	if err := r.expect('[', what); err != nil {
		return nil, err
	}
	var out []string
	for r.dec.PeekKind() != ']' {
		s, err := r.str(what)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	_, err := r.dec.ReadToken()
	return out, err
}

// paths reads replace_paths: an array of attribute paths.
func (r *reader) paths(dst *[][]any) error {
	start := r.dec.InputOffset()
	v, err := jsonread.DecodeAny(r.dec)
	if err != nil || v == nil {
		return err
	}
	list, ok := v.([]any)
	if !ok {
		return r.errorAt(start, "replace_paths must be an array of paths")
	}
	for _, p := range list {
		path, ok := p.([]any)
		if !ok {
			return r.errorAt(start, "replace_paths must be an array of paths")
		}
		*dst = append(*dst, path)
	}
	return nil
}

func (r *reader) str(what string) (string, error) {
	s, err := jsonread.ReadString(r.dec)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
		var syn *jsontext.SyntacticError
		if !errors.As(err, &syn) {
			return "", r.errorAt(r.dec.InputOffset(), fmt.Sprintf("invalid JSON for %s: %v", what, err))
		}
	}
	return s, err
}

func (r *reader) change(c *Change) error {
	if r.dec.PeekKind() == 'n' {
		_, err := r.dec.ReadToken()
		return err
	}
	raw := &noRawValues // nothing is kept, so nothing is written
	if r.opts.Lazy && !r.skipValues {
		raw = &rawValues{}
		c.raw = raw
	}
	return r.members("a change", func(key string) (err error) {
		if i, ok := changeValues[key]; ok {
			rawDst, dst, index := &raw.values[i], c.value(i), raw.index(i)
			start := r.dec.InputOffset()
			switch {
			case r.skipValues:
				// ReadValue checks a value as SkipValue does, but in one
				// pass over its bytes rather than token by token: faster
				// for these values of a few kilobytes.
				var v []byte
				if v, err = r.dec.ReadValue(); err == nil {
					err = r.checkDepth(v, start)
				}
			case r.opts.Lazy:
				if *rawDst, err = r.rawValue(index); err == nil {
					err = r.checkDepth(*rawDst, start)
				}
			default:
				*dst, err = r.decode()
			}
			return err
		}
		switch key {
		case "actions":
			c.Actions, err = r.strings(key)
		case "replace_paths":
			err = r.paths(&c.ReplacePaths)
		case "importing":
			err = r.small(&c.Importing, key)
		case "generated_config":
			c.GeneratedConfig, err = r.str(key)
		default:
			err = r.dec.SkipValue()
		}
		return err
	})
}

// decode decodes the next value.
func (r *reader) decode() (any, error) {
	if dec, ok := r.dec.(*jsontext.Decoder); ok {
		return jsonread.DecodeIn(dec, r.src)
	}
	return jsonread.DecodeAny(r.dec)
}

// rawValue reads the next value as its text: a copy of the decoder's
// bytes, which belongs to the change. When index is not nil, it gets
// where the value's own members begin (see jsonread.MemberOffsets).
func (r *reader) rawValue(index *[]uint32) ([]byte, error) {
	v, err := jsonread.RawValue(r.dec)
	if err == nil && index != nil {
		*index = jsonread.MemberOffsets(v)
	}
	return v, err
}

// checkPlanVersion accepts 0.x (Terraform 0.12 to 1.0, which lacks fields
// such as action_reason, replace_paths and relevant_attributes: they are
// simply absent) and 1.x, and refuses 2.0 and later.
func checkPlanVersion(v string) error {
	major, _, _ := strings.Cut(v, ".")
	if n, err := strconv.Atoi(major); err != nil || n < 0 || n > 1 {
		return fmt.Errorf("unsupported plan format_version %q: planpr reads 0.x (Terraform 0.12 to 1.0) and 1.x", v)
	}
	return nil
}

func checkIsPlan(path string, p *Plan) error {
	if p.FormatVersion == "" {
		switch {
		case p.Sections["plan_format_version"]:
			return &InputError{File: path, Msg: "a Terraform Cloud redacted plan (it has plan_format_version): not supported; render the plan JSON from `terraform show -json PLANFILE` instead"}
		case p.Sections["lineage"] || p.Sections["serial"]:
			return &InputError{File: path, Msg: "a raw state file (terraform.tfstate), not JSON that `tofu show` writes: run `tofu show -json` for the state, or `tofu show -json PLANFILE` for a plan"}
		}
		return &InputError{File: path, Msg: "no format_version: not the output of `tofu show -json PLANFILE`"}
	}
	planish := p.Sections["planned_values"] || p.Sections[SectionChanges] || p.Sections["output_changes"] ||
		p.Sections[SectionDrift] || p.Sections["prior_state"] || p.Sections["configuration"]
	switch {
	case planish:
		return nil
	case p.Sections["values"]:
		return &InputError{File: path, Msg: "this is a state, not a plan (it has \"values\" and no planned changes): render reads `tofu show -json PLANFILE`"}
	case p.Sections["provider_schemas"]:
		return &InputError{File: path, Msg: "this is provider schemas (`tofu providers schema -json`), not a plan: pass it with --schemas (the Action and the App take a schemas.json beside the plan)"}
	}
	if IsEmptyStateVersion(p.FormatVersion) && !slices.ContainsFunc(slices.Collect(maps.Keys(p.Sections)), func(k string) bool { return k != "format_version" && k != "terraform_version" }) {
		return &InputError{File: path, Msg: "an empty state ({\"format_version\":\"1.0\"} is what `tofu show -json` writes when there is no state), not a plan: render it on its own, or pass the plan JSON from `tofu show -json PLANFILE`"}
	}
	// OpenTofu writes a plan with nothing to do as {"format_version":…}
	// alone; anything else without a plan's sections is some other
	// document, and reading it as "no changes" would be the worst answer.
	for _, key := range slices.Sorted(maps.Keys(p.Sections)) { // the same key named every time
		if !planMembers[key] {
			return &InputError{File: path, Msg: fmt.Sprintf("not a plan: it has %q and none of planned_values, resource_changes, output_changes, prior_state or configuration; expected the output of `tofu show -json PLANFILE`", key)}
		}
	}
	return nil
}

// planMembers are the top-level members a plan JSON may have.
var planMembers = map[string]bool{
	"format_version": true, "terraform_version": true, "variables": true, "planned_values": true,
	SectionChanges: true, SectionDrift: true, "resource_deferred": true, "deferred_changes": true,
	"output_changes": true, "prior_state": true, "configuration": true, "relevant_attributes": true,
	"checks": true, "timestamp": true, "applyable": true, "complete": true, "errored": true, "action_invocations": true,
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

// checkDepth refuses raw, read at offset start, when it nests too deep.
func (r *reader) checkDepth(raw []byte, start int64) error {
	if jsonread.DepthWithin(raw, MaxValueDepth) {
		return nil
	}
	return r.errorAt(start, ErrTooDeep.Error())
}
