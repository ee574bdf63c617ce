package render

import (
	"encoding/json"
	"regexp"

	"github.com/planpr/planpr/render/tofujson"
	"github.com/zclconf/go-cty/cty"
)

// Without provider schemas OpenTofu cannot render a plan at all. planpr
// infers a schema from the values instead: every attribute is "dynamic"
// (rendered from the shape of its JSON), and nested blocks are recognised
// where the plan's configuration section writes them as blocks.

// configIndex maps a resource's configuration address (module path without
// instance keys, then mode, type and name) to its "expressions".
type configIndex struct {
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

func indexConfiguration(raw json.RawMessage) *configIndex {
	idx := &configIndex{expressions: map[string]map[string]any{}}
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

func (c *configIndex) lookup(rc *tofujson.ResourceChange) map[string]any {
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

func inferBlock(rc *tofujson.ResourceChange, config *configIndex) *tofujson.Block {
	return inferFrom([]any{rc.Change.Before, rc.Change.After}, config.lookup(rc))
}

// inferFrom builds a block schema covering every key of the given object
// values; exprs marks which keys are nested blocks.
func inferFrom(values []any, exprs map[string]any) *tofujson.Block {
	b := &tofujson.Block{Attributes: map[string]*tofujson.Attribute{}, BlockTypes: map[string]*tofujson.BlockType{}}
	for _, v := range values {
		m, _ := v.(map[string]any)
		for key, child := range m {
			if _, done := b.Attributes[key]; done {
				continue
			}
			if _, done := b.BlockTypes[key]; done {
				continue
			}
			blockExprs, isBlock := exprs[key].([]any)
			if !isBlock || !blockShaped(values, key) {
				b.Attributes[key] = &tofujson.Attribute{Type: cty.DynamicPseudoType}
				continue
			}
			mode := tofujson.NestingList
			if _, single := child.(map[string]any); single {
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
		m, _ := v.(map[string]any)
		switch c := m[key].(type) {
		case nil, map[string]any:
		case []any:
			for _, e := range c {
				if _, ok := e.(map[string]any); !ok {
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
		m, _ := v.(map[string]any)
		switch c := m[key].(type) {
		case map[string]any:
			out = append(out, c)
		case []any:
			out = append(out, c...)
		}
	}
	return out
}

// approximateNote is the first line of text rendered without schemas.
const approximateNote = "# planpr: rendered without provider schemas (pass --schemas FILE from `tofu providers schema -json`); nested blocks and attribute types are inferred, so this may differ from `tofu show`."
