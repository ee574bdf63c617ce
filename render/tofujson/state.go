package tofujson

import (
	"encoding/json"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/planpr/planpr/render/tofujson/internal/jsonread"
)

// State is the document-wide part of `tofu show -json STATEFILE`. Its
// resources are streamed to a visitor by ReadStateFile.
type State struct {
	FormatVersion    string
	TerraformVersion string
	Outputs          map[string]StateOutput
	Resources        int // how many were visited
	ChildModules     int
}

// StateOutput is a root output in the state.
type StateOutput struct {
	Value     any             `json:"value"`
	Type      json.RawMessage `json:"type"`
	Sensitive bool            `json:"sensitive"`
}

// NewerThanRenderer reports whether the state's format_version is newer
// than the 1.0 OpenTofu's renderer was written for.
func (s *State) NewerThanRenderer() bool { return versionAbove(s.FormatVersion, 1.0) }

// StateResource is one resource instance object in the state.
type StateResource struct {
	Address         string          `json:"address"`
	Mode            string          `json:"mode"`
	Type            string          `json:"type"`
	Name            string          `json:"name"`
	Index           json.RawMessage `json:"index"`
	ProviderName    string          `json:"provider_name"`
	SchemaVersion   int             `json:"schema_version"`
	Values          any             `json:"values"`
	SensitiveValues any             `json:"sensitive_values"`
	DeposedKey      string          `json:"deposed_key"`
	Tainted         bool            `json:"tainted"`
}

// StateVisitor receives the state in OpenTofu's display order: a module's
// resources, then its child modules depth first, each module between
// Enter and Leave.
type StateVisitor struct {
	Enter, Leave func()
	Resource     func(r *StateResource) error
}

// DocumentKind tells a plan ("plan") from a state ("state"), provider
// schemas ("schemas"), a scanner's SARIF log ("findings"), an Infracost
// report ("cost") and a policy engine's verdicts ("policy": conftest's
// or opa eval's JSON) by the top-level names of a JSON document. It stops at the first name that
// decides, so it reads little of a large file.
func DocumentKind(path string) (string, error) { return (*Files)(nil).DocumentKind(path) }

// DocumentKind is DocumentKind for one of the run's files.
func (fs *Files) DocumentKind(path string) (string, error) {
	f, br, err := fs.openJSONOf(path, true)
	if err != nil {
		return "", err
	}
	defer f.Close()
	dec := jsontext.NewDecoder(br, jsontext.AllowDuplicateNames(true))
	r := &reader{path: path, dec: dec, opts: ReadOptions{Files: fs}}
	first, err := dec.ReadToken()
	if err != nil {
		return "", r.fail(err)
	}
	if first.Kind() == '[' { // conftest's output: an array of its results
		if dec.PeekKind() == '{' {
			if _, err := dec.ReadToken(); err != nil {
				return "", r.fail(err)
			}
			for dec.PeekKind() == '"' {
				tok, err := dec.ReadToken()
				if err != nil {
					return "", r.fail(err)
				}
				switch tok.String() {
				case "filename", "namespace", "successes", "failures", "warnings", "exceptions":
					return "policy", nil
				}
				if err := dec.SkipValue(); err != nil {
					return "", r.fail(err)
				}
			}
		}
		return "plan", nil // and its reader says what it is not
	}
	var version string
	onlyVersions := true
	for dec.PeekKind() == '"' {
		tok, err := dec.ReadToken()
		if err != nil {
			return "", r.fail(err)
		}
		switch key := tok.String(); key {
		case "planned_values", SectionChanges, SectionDrift, "output_changes", "prior_state", "configuration", "relevant_attributes":
			return "plan", nil
		case "values":
			return "state", nil
		case "provider_schemas":
			return "schemas", nil
		case "runs": // a SARIF log: a scanner's findings
			return "findings", nil
		case "projects", "currency": // an Infracost report
			return "cost", nil
		case "result": // opa eval --format json
			return "policy", nil
		case "format_version":
			if dec.PeekKind() == '"' {
				v, err := dec.ReadToken()
				if err != nil {
					return "", r.fail(err)
				}
				version = v.String()
				continue
			}
		case "terraform_version":
		default:
			onlyVersions = false
		}
		if err := dec.SkipValue(); err != nil {
			return "", r.fail(err)
		}
	}
	if onlyVersions && IsEmptyStateVersion(version) {
		return "state", nil
	}
	return "plan", nil
}

// IsEmptyStateVersion reports whether a document holding nothing but a
// format_version of v is an empty state: `show -json` without a state
// writes {"format_version":"1.0"}, while a plan with nothing to do is
// written with its plan format (1.2 today), and its sections.
func IsEmptyStateVersion(v string) bool { return v == "1.0" }

// ReadStateFile reads a state document, streaming its resources.
func ReadStateFile(path string, visit *StateVisitor) (*State, error) {
	return (*Files)(nil).ReadState(path, visit)
}

// ReadState is ReadStateFile for one of the run's files.
func (fs *Files) ReadState(path string, visit *StateVisitor) (*State, error) {
	f, br, err := fs.openJSON(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := &reader{path: path, dec: jsontext.NewDecoder(br, jsontext.AllowDuplicateNames(true)), opts: ReadOptions{Files: fs}}
	s, err := r.state(visit)
	if err != nil {
		return nil, r.fail(err)
	}
	if s.FormatVersion == "" {
		return nil, &InputError{File: path, Msg: "no format_version: not the output of `tofu show -json`"}
	}
	return s, nil
}

func (r *reader) state(visit *StateVisitor) (*State, error) {
	s := &State{}
	seen := map[string]bool{}
	err := r.members("a state", func(key string) (err error) {
		keyOffset := r.dec.InputOffset()
		if seen[key] {
			return duplicateMember(r.path, keyOffset, key, "a state")
		}
		seen[key] = true
		switch key {
		case "format_version":
			if s.FormatVersion, err = r.str(key); err == nil {
				if verr := checkPlanVersion(s.FormatVersion); verr != nil {
					return ErrorAt(r.path, keyOffset+1, strings.Replace(verr.Error(), "plan format_version", "state format_version", 1))
				}
			}
		case "terraform_version":
			s.TerraformVersion, err = r.str(key)
		case "values":
			if r.dec.PeekKind() == 'n' {
				_, err = r.dec.ReadToken()
				return err
			}
			err = r.members("values", func(key string) error {
				switch key {
				case "outputs":
					return r.small(&s.Outputs, "outputs")
				case "root_module":
					return r.module(s, visit)
				}
				return r.dec.SkipValue()
			})
		default:
			err = r.dec.SkipValue()
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return s, r.trailing("state")
}

// module streams a module's resources, then its child modules, depth
// first. tofu writes "resources" before "child_modules", so the children
// stream too; a document the other way round is read all the same, its
// children held until the resources are seen.
func (r *reader) module(s *State, visit *StateVisitor) error {
	if visit != nil && visit.Enter != nil {
		visit.Enter()
	}
	var held [][]byte
	seenResources := false
	err := r.members("a module", func(key string) (err error) {
		switch key {
		case "resources":
			seenResources = true
			return r.resources(s, visit)
		case "child_modules":
			if r.dec.PeekKind() == 'n' {
				_, err = r.dec.ReadToken()
				return err
			}
			if err = r.expect('[', "child_modules"); err != nil {
				return err
			}
			for r.dec.PeekKind() != ']' {
				s.ChildModules++
				if seenResources {
					if err := r.module(s, visit); err != nil {
						return err
					}
					continue
				}
				raw, rerr := jsonread.RawValue(r.dec)
				if rerr != nil {
					return rerr
				}
				held = append(held, raw)
			}
			_, err = r.dec.ReadToken()
			return err
		}
		return r.dec.SkipValue()
	})
	if err != nil {
		return err
	}
	for _, raw := range held {
		sub := &reader{path: r.path, dec: jsontext.NewDecoder(strings.NewReader(string(raw)), jsontext.AllowDuplicateNames(true))}
		if err := sub.module(s, visit); err != nil {
			return err
		}
	}
	if visit != nil && visit.Leave != nil {
		visit.Leave()
	}
	return nil
}

func (r *reader) resources(s *State, visit *StateVisitor) error {
	if r.dec.PeekKind() == 'n' {
		_, err := r.dec.ReadToken()
		return err
	}
	if err := r.expect('[', "resources"); err != nil {
		return err
	}
	for r.dec.PeekKind() != ']' {
		var res StateResource
		if err := r.small(&res, "a state resource"); err != nil {
			return err
		}
		s.Resources++
		if visit != nil && visit.Resource != nil {
			if err := visit.Resource(&res); err != nil {
				return err
			}
		}
	}
	_, err := r.dec.ReadToken()
	return err
}
