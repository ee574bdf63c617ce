package findings

import (
	"slices"
	"strings"
)

// Placed are a report's findings put on a plan's resources.
type Placed struct {
	// ByAddress holds the findings of each resource instance of the plan
	// (resource_changes, no-op ones too), in the report's order.
	ByAddress map[string][]Finding
	// Unmatched are the findings that name or sit in no resource the plan
	// has: listed apart, never dropped.
	Unmatched []Finding
}

// Place puts each finding on the plan's resource instances (addresses,
// the plan's resource_changes) as a Placer does, all at once.
func Place(found []Finding, ix *Index, addresses []string) *Placed {
	p := NewPlacer(found, ix)
	out := &Placed{ByAddress: map[string][]Finding{}}
	for _, a := range addresses {
		if fs := p.For(a); len(fs) > 0 {
			out.ByAddress[a] = fs
		}
	}
	out.Unmatched = p.Unmatched()
	return out
}

// A Placer puts findings on a plan's resource instances as the plan is
// read, one address at a time: the instance a finding names (a name
// without instance keys, every instance of that block), else, for a
// finding that names none, every instance of the configuration block the
// report places it in (its file and line in the Index: both calls of a
// module, every for_each key; a module block, every resource of that
// call). What no address takes is Unmatched.
type Placer struct {
	found  []Finding
	used   []bool
	exact  map[string][]int // a named instance → findings
	blocks map[string][]int // a configuration address → findings, named without keys or placed by line
	calls  []callFindings   // module blocks → findings placed on them
}

type callFindings struct {
	prefix string // module.a. (the call's resources start so)
	idx    int
}

// NewPlacer indexes found for placing; ix may be nil (by name only).
func NewPlacer(found []Finding, ix *Index) *Placer {
	p := &Placer{found: found, used: make([]bool, len(found)), exact: map[string][]int{}, blocks: map[string][]int{}}
	for i, f := range found {
		switch {
		case f.Address != "" && ConfigAddress(f.Address) == f.Address:
			p.blocks[f.Address] = append(p.blocks[f.Address], i)
		case f.Address != "":
			p.exact[f.Address] = append(p.exact[f.Address], i)
		case ix != nil && f.File != "" && f.Line > 0:
			for _, c := range ix.At(f.File, f.Line) {
				if parts := strings.Split(c, "."); len(parts) >= 2 && parts[len(parts)-2] == "module" {
					p.calls = append(p.calls, callFindings{c + ".", i})
				} else {
					p.blocks[c] = append(p.blocks[c], i)
				}
			}
		}
	}
	return p
}

// For is the findings on the resource instance at address, each once.
func (p *Placer) For(address string) []Finding {
	conf := ConfigAddress(address)
	var idx []int
	idx = append(idx, p.exact[address]...)
	idx = append(idx, p.blocks[conf]...)
	for _, c := range p.calls {
		if strings.HasPrefix(conf, c.prefix) {
			idx = append(idx, c.idx)
		}
	}
	if len(idx) == 0 {
		return nil // most resources: nothing found on them
	}
	slices.Sort(idx)
	idx = slices.Compact(idx) // each once, in the report's order
	out := make([]Finding, len(idx))
	for k, i := range idx {
		p.used[i], out[k] = true, p.found[i]
	}
	return out
}

// Unmatched are the findings no address asked for has taken, in order.
func (p *Placer) Unmatched() []Finding {
	var out []Finding
	for i, f := range p.found {
		if !p.used[i] {
			out = append(out, f)
		}
	}
	return out
}

// ConfigAddress is an instance address without its instance keys: the
// address of its block in the configuration (module.a["x"].aws_s3_bucket.b[0]
// is module.a.aws_s3_bucket.b). Keys are skipped whole, quotes and
// escapes within them too.
func ConfigAddress(addr string) string {
	var b strings.Builder
	for i := 0; i < len(addr); i++ {
		if addr[i] != '[' {
			b.WriteByte(addr[i])
			continue
		}
		// Skip to the matching ], past quoted strings.
		inQuote := false
		for i++; i < len(addr); i++ {
			c := addr[i]
			switch {
			case inQuote && c == '\\':
				i++
			case c == '"':
				inQuote = !inQuote
			case !inQuote && c == ']':
				goto next
			}
		}
	next:
	}
	return b.String()
}
