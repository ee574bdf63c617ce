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
// the plan's resource_changes): the instance the finding names, when the
// plan has it; else every instance of the configuration block the report
// places it in (its file and line in ix; nil ix: by name only) — every
// instance of a for_each resource, in every call of its module.
func Place(found []Finding, ix *Index, addresses []string) *Placed {
	p := &Placed{ByAddress: map[string][]Finding{}}
	byConfig := map[string][]string{} // configuration address → the plan's instances of it
	have := map[string]bool{}
	for _, a := range addresses {
		have[a] = true
		c := ConfigAddress(a)
		byConfig[c] = append(byConfig[c], a)
	}
	add := func(addr string, f Finding) {
		if !slices.Contains(p.ByAddress[addr], f) {
			p.ByAddress[addr] = append(p.ByAddress[addr], f)
		}
	}
	for _, f := range found {
		var targets []string
		switch {
		case f.Address != "" && have[f.Address]:
			targets = []string{f.Address}
		case f.Address != "" && len(byConfig[ConfigAddress(f.Address)]) > 0 && ConfigAddress(f.Address) == f.Address:
			targets = byConfig[f.Address] // a block named without its keys: every instance
		case ix != nil && f.File != "" && f.Line > 0:
			for _, c := range ix.At(f.File, f.Line) {
				targets = append(targets, byConfig[c]...)
				// A module block: every resource of that call.
				if parts := strings.Split(c, "."); len(parts) >= 2 && parts[len(parts)-2] == "module" {
					for conf, instances := range byConfig {
						if strings.HasPrefix(conf, c+".") {
							targets = append(targets, instances...)
						}
					}
				}
			}
		}
		if len(targets) == 0 {
			p.Unmatched = append(p.Unmatched, f)
			continue
		}
		slices.Sort(targets)
		for _, a := range slices.Compact(targets) {
			add(a, f)
		}
	}
	return p
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
