package review

import (
	"encoding/json"
	"github.com/planpr/planpr/flavor"
	"regexp"

	"github.com/planpr/planpr/render/tofujson"
	"github.com/zclconf/go-cty/cty"
)

// Without provider schemas OpenTofu cannot render a plan at all. planpr
// infers a schema from the values instead: every attribute is "dynamic"
// (rendered from the shape of its JSON), and nested blocks are recognised
// where the plan's configuration section writes them as blocks.

// ConfigIndex maps a resource's configuration address (module path without
// instance keys, then mode, type and name) to its "expressions".
type ConfigIndex struct {
	expressions map[string]map[string]any
}

type configModule struct {
	Resources []struct {
		Address     string         `json:"address"`
		Expressions map[string]any `json:"expressions"`
	} `json:"resources"`
	ModuleCalls map[string]struct {
		Module *configModule `json:"module"`
	} `json:"module_calls"`
}

func IndexConfiguration(raw json.RawMessage) *ConfigIndex {
	idx := &ConfigIndex{expressions: map[string]map[string]any{}}
	if len(raw) == 0 {
		return idx
	}
	var cfg struct {
		RootModule *configModule `json:"root_module"`
	}
	if json.Unmarshal(raw, &cfg) != nil || cfg.RootModule == nil {
		return idx
	}
	var walk func(prefix string, m *configModule)
	walk = func(prefix string, m *configModule) {
		for _, r := range m.Resources {
			idx.expressions[prefix+r.Address] = r.Expressions
		}
		for name, call := range m.ModuleCalls {
			if call.Module != nil {
				walk(prefix+"module."+name+".", call.Module)
			}
		}
	}
	walk("", cfg.RootModule)
	return idx
}

var instanceKey = regexp.MustCompile(`\[[^\]]*\]`)

func (c *ConfigIndex) lookup(rc *tofujson.ResourceChange) map[string]any {
	if c == nil {
		return nil
	}
	addr := rc.Type + "." + rc.Name
	if rc.Mode == "data" {
		addr = "data." + addr
	}
	if rc.ModuleAddress != "" {
		addr = instanceKey.ReplaceAllString(rc.ModuleAddress, "") + "." + addr
	}
	return c.expressions[addr]
}

func InferBlock(rc *tofujson.ResourceChange, config *ConfigIndex) *tofujson.Block {
	b := inferFrom([]any{rc.Change.Before, rc.Change.After}, config.lookup(rc))
	// Attributes unknown until apply appear only in after_unknown.
	if unknown, ok := rc.Change.AfterUnknown.(tofujson.Object); ok {
		for _, m := range unknown {
			key := m.Name
			if b.Attributes[key] == nil && b.BlockTypes[key] == nil {
				b.Attributes[key] = &tofujson.Attribute{Type: cty.DynamicPseudoType}
			}
		}
	}
	return b
}

// inferFrom builds a block schema covering every key of the given object
// values; exprs marks which keys are nested blocks.
func inferFrom(values []any, exprs map[string]any) *tofujson.Block {
	b := &tofujson.Block{Attributes: map[string]*tofujson.Attribute{}, BlockTypes: map[string]*tofujson.BlockType{}}
	for _, v := range values {
		for _, m := range tofujson.AsObject(v) {
			key, child := m.Name, m.Value
			if _, done := b.Attributes[key]; done {
				continue
			}
			if _, done := b.BlockTypes[key]; done {
				continue
			}
			blockExprs, isBlock := exprs[key].([]any)
			if !isBlock || !blockShaped(values, key) {
				b.Attributes[key] = &tofujson.Attribute{Type: inferType(valuesOf(values, key))}
				continue
			}
			mode := tofujson.NestingList
			if _, single := child.(tofujson.Object); single {
				mode = tofujson.NestingSingle
			}
			var nestedExprs map[string]any
			if len(blockExprs) > 0 {
				nestedExprs, _ = blockExprs[0].(map[string]any)
			}
			b.BlockTypes[key] = &tofujson.BlockType{NestingMode: mode, Block: inferFrom(elementsOf(values, key), nestedExprs)}
		}
	}
	return b
}

// blockShaped reports whether every value of key is null, an object, or a
// list of objects: the shapes a nested block can have in plan JSON.
func blockShaped(values []any, key string) bool {
	for _, v := range values {
		switch c := tofujson.AsObject(v).Value(key).(type) {
		case nil, tofujson.Object:
		case []any:
			for _, e := range c {
				if _, ok := e.(tofujson.Object); !ok {
					return false
				}
			}
		default:
			return false
		}
	}
	return true
}

func elementsOf(values []any, key string) []any {
	var out []any
	for _, v := range values {
		switch c := tofujson.AsObject(v).Value(key).(type) {
		case tofujson.Object:
			out = append(out, c)
		case []any:
			out = append(out, c...)
		}
	}
	return out
}

// ApproximateNote is the first line of text rendered without schemas, in
// f's words.
func ApproximateNote(f flavor.Flavor) string {
	return f.Say("# planpr: rendered without provider schemas (pass --schemas FILE from `tofu providers schema -json`); nested blocks and attribute types are inferred, so this may differ from `tofu show`.")
}

func valuesOf(values []any, key string) []any {
	var out []any
	for _, v := range values {
		if m, ok := v.(tofujson.Object); ok {
			out = append(out, m.Value(key))
		}
	}
	return out
}

// inferType guesses an attribute's type from its values. Objects whose
// values are all of one primitive kind are taken for maps (tags, labels);
// other objects for objects, whose null attributes OpenTofu hides. Where
// the values disagree the type is dynamic and the JSON's shape decides.
func inferType(values []any) cty.Type {
	var kind tofujson.ValueKind
	var elems []any
	var objects []tofujson.Object
	for _, v := range values {
		k := tofujson.KindOf(v)
		if k == tofujson.KindNull {
			continue
		}
		if kind != tofujson.KindNull && k != kind {
			return cty.DynamicPseudoType
		}
		kind = k
		switch c := v.(type) {
		case []any:
			elems = append(elems, c...)
		case tofujson.Object:
			objects = append(objects, c)
		}
	}
	switch kind {
	case tofujson.KindString:
		return cty.String
	case tofujson.KindNumber:
		return cty.Number
	case tofujson.KindBool:
		return cty.Bool
	case tofujson.KindArray:
		return cty.List(inferType(elems))
	case tofujson.KindObject:
		var all []any
		keys := map[string][]any{}
		for _, o := range objects {
			for _, m := range o {
				keys[m.Name] = append(keys[m.Name], m.Value)
				all = append(all, m.Value)
			}
		}
		if et := inferType(all); et.IsPrimitiveType() {
			return cty.Map(et)
		}
		attrs := make(map[string]cty.Type, len(keys))
		for k, vs := range keys {
			attrs[k] = inferType(vs)
		}
		return cty.Object(attrs)
	}
	return cty.DynamicPseudoType
}
