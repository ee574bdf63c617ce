package fingerprint

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"slices"

	"github.com/planpr/planpr/render/internal/beside"
	"github.com/planpr/planpr/render/mask"
	"github.com/planpr/planpr/render/tofujson"
)

// visit returns what fn makes of every entry of the plan at path, until
// ctx ends — the
// resource instances, then the root outputs — fn given the entry's values
// as decoded and their marks beside them (Before and After unset). The
// changes are decoded and fn runs beside the read (package beside): on
// two goroutines at once.
func visit[R any](ctx context.Context, files *tofujson.Files, path string, fn func(e Entry, before, after marked) R) ([]R, error) {
	w := beside.Start(func(rc tofujson.ResourceChange) (R, error) { return entry(&rc, fn) })
	var entries []R
	opts := tofujson.ReadOptions{Sections: []string{tofujson.SectionChanges}, Lazy: true, Files: files}
	seen := 0
	plan, err := tofujson.ReadPlan(path, opts, func(section string, rc *tofujson.ResourceChange) error {
		if seen++; seen%64 == 0 && ctx.Err() != nil {
			return ctx.Err() // the job's time is up
		}
		if section != tofujson.SectionChanges {
			return nil
		}
		if a, err := tofujson.ParseActions(rc.Change.Actions); err != nil || a == tofujson.NoOp && !rc.Moved() && !rc.Importing() {
			return err // nothing to do, or no actions the reader knows
		}
		return w.Add(*rc)
	})
	entries, werr := w.Wait() // the changes handed on are all visited
	if err == nil {
		err = werr
	}
	if err != nil {
		return nil, err
	}
	for _, name := range slices.Sorted(maps.Keys(plan.OutputChanges)) {
		oc := plan.OutputChanges[name]
		if a, err := tofujson.ParseActions(oc.Actions); err != nil || a == tofujson.NoOp {
			continue
		}
		before, after := marksOf(oc)
		entries = append(entries, fn(entryOf("output."+name, oc), before, after))
	}
	cfg := configurationOf(plan.Configuration)
	// The root module's input variables: what a provider reads of them
	// (an account, a region) changes what is done without a resource
	// showing it.
	for _, name := range slices.Sorted(maps.Keys(plan.Variables)) {
		sensitive := cfg.RootModule.Variables[name].Sensitive || mask.CredentialName(name)
		entries = append(entries, fn(Entry{Address: "var." + name, Actions: "input"}, marked{}, marked{value: plan.Variables[name].Value, sensitive: sensitive}))
	}
	// The providers' configuration: where each resource's provider points.
	for _, name := range slices.Sorted(maps.Keys(cfg.ProviderConfig)) {
		v := cfg.ProviderConfig[name]
		entries = append(entries, fn(Entry{Address: "provider_config." + name, Actions: "configure"}, marked{}, marked{value: v, sensitive: credentialMirror(v)}))
	}
	return entries, nil
}

// configuration is what a fingerprint reads of a plan's "configuration":
// the providers' configuration and which root variables are sensitive.
type configuration struct {
	ProviderConfig map[string]any `json:"provider_config"`
	RootModule     struct {
		Variables map[string]struct {
			Sensitive bool `json:"sensitive"`
		} `json:"variables"`
	} `json:"root_module"`
}

// configurationOf decodes what a fingerprint reads of a plan's
// configuration; a section it cannot read counts as empty (the reader
// has checked its syntax).
func configurationOf(raw []byte) configuration {
	var c configuration
	if len(raw) == 0 {
		return c
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	_ = d.Decode(&c)
	return c
}

// credentialMirror marks, in a provider's configuration, the members
// whose names read as a credential's (a password written in a provider
// block): sensitive, as the provider would have them.
func credentialMirror(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, val := range x {
			if mask.CredentialName(k) {
				out[k] = true
			} else if m := credentialMirror(val); m != nil {
				out[k] = m
			}
		}
		if len(out) == 0 {
			return nil
		}
		return out
	case []any:
		out := make([]any, len(x))
		found := false
		for i, val := range x {
			if out[i] = credentialMirror(val); out[i] != nil {
				found = true
			}
		}
		if !found {
			return nil
		}
		return out
	}
	return nil
}

// entry decodes a resource change and gives fn its entry.
func entry[R any](rc *tofujson.ResourceChange, fn func(e Entry, before, after marked) R) (R, error) {
	if err := rc.Change.Decode(); err != nil {
		var none R
		return none, err
	}
	e := entryOf(rc.Address, rc.Change)
	e.Provider = rc.ProviderName
	e.Reason = rc.ActionReason
	if rc.Moved() {
		e.Previous = rc.PreviousAddress
	}
	if rc.Deposed != "" {
		e.Address += " (deposed " + rc.Deposed + ")"
	}
	before, after := marksOf(rc.Change)
	return fn(e, before, after), nil
}
