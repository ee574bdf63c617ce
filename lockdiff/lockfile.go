package lockdiff

import (
	"fmt"
	"strings"

	"github.com/hashicorp/go-version"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// LockFile is a parsed .terraform.lock.hcl.
type LockFile struct {
	Filename  string
	Providers []*Lock // in file order
}

// Lock is one provider block.
type Lock struct {
	Address     Address
	Version     *version.Version
	RawVersion  string
	Constraints string // "" when absent
	Hashes      []string
	DeclRange   hcl.Range
}

// MaxHashes is the most hashes one provider's lock may list: two per
// platform (h1: and zh:), and no provider is built for hundreds.
const MaxHashes = 1000

// Lookup finds the lock for an address.
func (f *LockFile) Lookup(a Address) *Lock {
	for _, p := range f.Providers {
		if p.Address == a {
			return p
		}
	}
	return nil
}

var rootSchema = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{
	{Type: "provider", LabelNames: []string{"source_addr"}},
	{Type: "module", LabelNames: []string{"path"}},
}}

var providerSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "version", Required: true},
	{Name: "constraints"},
	{Name: "hashes"},
}}

// Parse reads a lock file the way OpenTofu does. An empty source means no
// providers (a lock file created or deleted). Problems come back as
// diagnostics with source ranges; warnings do not stop the parse.
func Parse(src []byte, filename string) (*LockFile, hcl.Diagnostics) {
	lf := &LockFile{Filename: filename}
	if len(strings.TrimSpace(string(src))) == 0 {
		return lf, nil
	}
	if d := checkSource(src, filename, MaxLockSize, false); d != nil {
		return lf, hcl.Diagnostics{d}
	}
	f, diags := hclsyntax.ParseConfig(src, filename, hcl.Pos{Line: 1, Column: 1, Byte: 0})
	if diags.HasErrors() {
		return lf, diags
	}
	content, moreDiags := f.Body.Content(rootSchema)
	diags = append(diags, moreDiags...)
	seen := map[Address]*Lock{}
	for _, block := range content.Blocks {
		if block.Type == "module" {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagWarning,
				Summary:  "Module lock blocks are not used",
				Detail:   "OpenTofu does not lock module versions in this file; the block is ignored. Remove it, or pin the module's version in its module block.",
				Subject:  block.DefRange.Ptr(),
			})
			continue
		}
		lock, blockDiags := parseProvider(block)
		diags = append(diags, blockDiags...)
		if lock == nil {
			continue
		}
		if prev, dup := seen[lock.Address]; dup {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Duplicate provider lock",
				Detail:   fmt.Sprintf("This file already has a lock for %s at line %d; keep one block per provider.", lock.Address, prev.DeclRange.Start.Line),
				Subject:  block.LabelRanges[0].Ptr(),
			})
			continue
		}
		seen[lock.Address] = lock
		lf.Providers = append(lf.Providers, lock)
	}
	return lf, diags
}

func parseProvider(block *hcl.Block) (*Lock, hcl.Diagnostics) {
	raw := block.Labels[0]
	addr, err := ParseAddress(raw, "")
	var diags hcl.Diagnostics
	labelRange := block.LabelRanges[0].Ptr()
	if err != nil || addr.Host == "" {
		detail := "Lock blocks name providers by their full source address, HOST/NAMESPACE/TYPE, as `tofu init` writes them."
		if err != nil {
			detail = err.Error() + ". " + detail
		}
		return nil, append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid provider source address", Detail: detail, Subject: labelRange})
	}
	if canon := addr.canonical(); canon != addr {
		return nil, append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError, Summary: "Non-normalized provider source address",
			Detail:  fmt.Sprintf("Lock blocks must use the normalized address %q.", canon.String()),
			Subject: labelRange,
		})
	}
	content, moreDiags := block.Body.Content(providerSchema)
	diags = append(diags, moreDiags...)
	lock := &Lock{Address: addr, DeclRange: block.DefRange}

	if attr, ok := content.Attributes["version"]; ok {
		s, d := stringValue(attr, "version")
		diags = append(diags, d...)
		if !d.HasErrors() {
			v, err := version.NewVersion(s)
			switch {
			case err != nil:
				diags = append(diags, attrError(attr, "Invalid provider version number", fmt.Sprintf("%q is not a version number: %v.", s, err)))
			case v.String() != s || strings.Count(strings.SplitN(s, "-", 2)[0], ".") != 2:
				diags = append(diags, attrError(attr, "Non-canonical provider version number",
					fmt.Sprintf("%q must be written as %q, as `tofu init` writes it.", s, v.String())))
			default:
				lock.Version, lock.RawVersion = v, s
			}
		}
	}
	if attr, ok := content.Attributes["constraints"]; ok {
		s, d := stringValue(attr, "constraints")
		diags = append(diags, d...)
		if !d.HasErrors() {
			if _, err := version.NewConstraint(s); err != nil && strings.TrimSpace(s) != "" {
				diags = append(diags, attrError(attr, "Invalid provider version constraints", fmt.Sprintf("%q: %v.", s, err)))
			}
			lock.Constraints = s
		}
	}
	if attr, ok := content.Attributes["hashes"]; ok {
		hashes, d := parseHashes(attr)
		diags = append(diags, d...)
		lock.Hashes = hashes
	}
	if diags.HasErrors() {
		return nil, diags
	}
	return lock, diags
}

func stringValue(attr *hcl.Attribute, name string) (string, hcl.Diagnostics) {
	v, diags := attr.Expr.Value(nil)
	if diags.HasErrors() {
		return "", diags
	}
	if v.IsNull() || !v.IsKnown() || v.Type() != cty.String {
		return "", hcl.Diagnostics{attrError(attr, "Invalid "+name, "The "+name+" must be a string.")}
	}
	if s := v.AsString(); hasControl(s) {
		return "", hcl.Diagnostics{attrError(attr, "Invalid "+name, fmt.Sprintf("The %s %q holds a control character; `tofu init` never writes one.", name, s))}
	}
	return v.AsString(), nil
}

func parseHashes(attr *hcl.Attribute) ([]string, hcl.Diagnostics) {
	exprs, diags := hcl.ExprList(attr.Expr)
	if diags.HasErrors() {
		return nil, diags
	}
	if len(exprs) == 0 {
		return nil, hcl.Diagnostics{attrError(attr, "Empty hashes list",
			"A lock must list at least one hash of the provider package; run `tofu providers lock` to record them.")}
	}
	if len(exprs) > MaxHashes {
		return nil, hcl.Diagnostics{attrError(attr, "Too many hashes",
			fmt.Sprintf("This lock lists %d hashes; a provider has two per platform it is released for, and planpr reads at most %d.", len(exprs), MaxHashes))}
	}
	var hashes []string
	for _, e := range exprs {
		v, d := e.Value(nil)
		diags = append(diags, d...)
		if d.HasErrors() {
			continue
		}
		if v.IsNull() || v.Type() != cty.String {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid provider hash", Detail: "Each hash must be a string.", Subject: e.Range().Ptr()})
			continue
		}
		h := v.AsString()
		if hasControl(h) {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid provider hash",
				Detail: fmt.Sprintf("%q holds a control character; hashes are letters, digits and + / = _ -.", h), Subject: e.Range().Ptr()})
			continue
		}
		scheme, val, ok := strings.Cut(h, ":")
		if !ok || scheme == "" || val == "" {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid provider hash",
				Detail: fmt.Sprintf("%q is not of the form SCHEME:VALUE (h1:… or zh:…).", h), Subject: e.Range().Ptr()})
			continue
		}
		hashes = append(hashes, h)
	}
	return hashes, diags
}

func attrError(attr *hcl.Attribute, summary, detail string) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail, Subject: attr.Expr.Range().Ptr()}
}

// hasControl reports a control character, which no lock file value holds.
func hasControl(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) }) >= 0
}
