package tofujson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/planpr/planpr/render/tofujson/internal/jsonread"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// Schemas is the output of `tofu providers schema -json`.
type Schemas struct {
	FormatVersion string               `json:"format_version"`
	Providers     map[string]*Provider `json:"provider_schemas"`
}

// Provider holds the schemas of one provider's resources and data sources.
type Provider struct {
	ResourceSchemas   map[string]*Schema `json:"resource_schemas"`
	DataSourceSchemas map[string]*Schema `json:"data_source_schemas"`
}

// Schema is one resource type's schema.
type Schema struct {
	Version uint64 `json:"version"`
	Block   *Block `json:"block"`
}

// Block is a configuration block: attributes and nested block types.
type Block struct {
	Attributes map[string]*Attribute `json:"attributes"`
	BlockTypes map[string]*BlockType `json:"block_types"`

	orderOnce sync.Once
	order     []NamedAttribute
}

// NamedAttribute is an attribute of a block with its name.
type NamedAttribute struct {
	Name string
	*Attribute
}

// AttributeOrder is the order a block's attributes are diffed in: by name,
// write-only attributes last (they take the block's action, so the others
// must be known first). It is computed once; the block must not change
// afterwards.
func (b *Block) AttributeOrder() []NamedAttribute {
	b.orderOnce.Do(func() {
		var names, writeOnly []NamedAttribute
		for name, a := range b.Attributes {
			if a.WriteOnly {
				writeOnly = append(writeOnly, NamedAttribute{name, a})
			} else {
				names = append(names, NamedAttribute{name, a})
			}
		}
		byName := func(a, b NamedAttribute) int { return strings.Compare(a.Name, b.Name) }
		slices.SortFunc(names, byName)
		slices.SortFunc(writeOnly, byName)
		b.order = append(names, writeOnly...)
	})
	return b.order
}

// Nesting modes of nested blocks and nested attribute types.
const (
	NestingSingle = "single"
	NestingGroup  = "group"
	NestingList   = "list"
	NestingSet    = "set"
	NestingMap    = "map"
)

// BlockType is a nested block type and how its blocks nest.
type BlockType struct {
	NestingMode string `json:"nesting_mode"`
	Block       *Block `json:"block"`
}

// Attribute is one attribute: either Type (a cty type) or NestedType.
type Attribute struct {
	Type       cty.Type        `json:"-"`
	RawType    json.RawMessage `json:"type"`
	NestedType *NestedType     `json:"nested_type"`
	Sensitive  bool            `json:"sensitive"`
	WriteOnly  bool            `json:"write_only"`
}

// NestedType is the structure of a nested attribute.
type NestedType struct {
	Attributes  map[string]*Attribute `json:"attributes"`
	NestingMode string                `json:"nesting_mode"`
}

// ReadSchemasFile decodes a provider schemas document and checks every type
// and nesting mode in it, so the differ never meets a malformed schema.
func ReadSchemasFile(path string) (*Schemas, error) { return (*Files)(nil).ReadSchemas(path) }

// ReadSchemas is ReadSchemasFile for one of the run's files.
func (fs *Files) ReadSchemas(path string) (*Schemas, error) {
	data, err := fs.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return DecodeSchemas(path, data)
}

// DecodeSchemas decodes a provider schemas document held in memory.
func DecodeSchemas(path string, data []byte) (*Schemas, error) {
	var s Schemas
	dec := json.NewDecoder(strings.NewReader(string(data)))
	if len(strings.TrimSpace(string(data))) == 0 {
		return nil, &InputError{File: path, Msg: "the file is empty: expected the output of `tofu providers schema -json`"}
	}
	if err := dec.Decode(&s); err != nil {
		return nil, wrapJSONErrorBytes(path, data, err)
	}
	if s.FormatVersion == "" {
		return nil, &InputError{File: path, Msg: "not a provider schemas document: expected the output of `tofu providers schema -json`"}
	}
	major, _, _ := strings.Cut(s.FormatVersion, ".")
	if major != "1" {
		return nil, &InputError{File: path, Msg: fmt.Sprintf("unsupported provider schemas format_version %q: planpr reads 1.x", s.FormatVersion)}
	}
	for pname, p := range s.Providers {
		if p == nil {
			continue
		}
		for kind, set := range map[string]map[string]*Schema{"resource": p.ResourceSchemas, "data source": p.DataSourceSchemas} {
			for tname, sch := range set {
				where := fmt.Sprintf("provider %q, %s %q", pname, kind, tname)
				if sch == nil || sch.Block == nil {
					return nil, &InputError{File: path, Msg: where + ": schema has no block"}
				}
				if err := sch.Block.prepare(where); err != nil {
					return nil, &InputError{File: path, Msg: err.Error()}
				}
			}
		}
	}
	return &s, nil
}

// NewerThanRenderer reports whether the schemas' format_version is newer
// than the 1.0 OpenTofu's renderer was written for.
func (s *Schemas) NewerThanRenderer() bool { return versionAbove(s.FormatVersion, 1.0) }

// Lookup finds the schema for a resource's provider, mode and type.
func (s *Schemas) Lookup(provider, mode, typ string) (*Schema, bool) {
	p := s.Providers[provider]
	if p == nil {
		return nil, false
	}
	var sch *Schema
	if mode == "managed" {
		sch = p.ResourceSchemas[typ]
	} else {
		sch = p.DataSourceSchemas[typ]
	}
	return sch, sch != nil
}

func (b *Block) prepare(where string) error {
	for name, a := range b.Attributes {
		if err := a.prepare(where + ", attribute " + strconv.Quote(name)); err != nil {
			return err
		}
	}
	for name, bt := range b.BlockTypes {
		if bt == nil || bt.Block == nil {
			return fmt.Errorf("%s, block %q: no block schema", where, name)
		}
		if !validNesting(bt.NestingMode, true) {
			return fmt.Errorf("%s, block %q: unknown nesting_mode %q", where, name, bt.NestingMode)
		}
		if err := bt.Block.prepare(where + ", block " + name); err != nil {
			return err
		}
	}
	return nil
}

func (a *Attribute) prepare(where string) error {
	if a == nil {
		return fmt.Errorf("%s: null attribute", where)
	}
	if a.NestedType != nil {
		if !validNesting(a.NestedType.NestingMode, false) {
			return fmt.Errorf("%s: unknown nesting_mode %q", where, a.NestedType.NestingMode)
		}
		for name, c := range a.NestedType.Attributes {
			if err := c.prepare(where + "." + name); err != nil {
				return err
			}
		}
		return nil
	}
	if len(a.RawType) == 0 {
		if a.WriteOnly {
			a.Type = cty.DynamicPseudoType
			return nil
		}
		return fmt.Errorf("%s: neither type nor nested_type", where)
	}
	t, err := ctyjson.UnmarshalType(a.RawType)
	if err != nil {
		return fmt.Errorf("%s: bad type %s: %w", where, a.RawType, err)
	}
	a.Type = t
	return nil
}

func validNesting(mode string, block bool) bool {
	switch mode {
	case NestingSingle, NestingList, NestingSet, NestingMap:
		return true
	case NestingGroup:
		return block
	}
	return false
}

func wrapJSONErrorBytes(path string, data []byte, err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	off := int64(len(data))
	switch {
	case errors.As(err, &syn):
		if o, serr := firstSyntaxError(bytes.NewReader(data)); serr != nil {
			off, err = o, serr
		}
	case errors.As(err, &typ):
		off = typ.Offset
	}
	line, col := jsonread.LineCol(data, off)
	msg := err.Error()
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		msg = "truncated JSON: the file ends in the middle of the document"
	} else {
		msg = "invalid JSON: " + msg
	}
	return &InputError{File: path, Line: line, Column: col, Msg: msg}
}
