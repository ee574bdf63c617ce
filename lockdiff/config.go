package lockdiff

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/go-version"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/zclconf/go-cty/cty"
)

// Config is what a root module's configuration says about providers.
type Config struct {
	Dir          string
	Requirements []*Requirement // sorted by address
}

// Requirement is one provider the root module needs, from
// required_providers or implied by a resource, data source or provider
// block.
type Requirement struct {
	LocalName   string
	Address     Address
	Implied     bool
	HostGiven   bool // the source named a registry host
	Constraints []Constraint
	DeclRange   hcl.Range
}

// Constraint is one version constraint and where it is written.
type Constraint struct {
	Expr  string
	Range hcl.Range
}

// ConfigFiles lists the configuration files at the top of fsys, as
// OpenTofu reads a module's: .tf, .tofu, .tf.json and .tofu.json, where a
// .tofu file shadows the .tf file of the same name; sorted.
func ConfigFiles(fsys fs.FS) ([]string, error) {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, err
	}
	names := map[string]bool{}
	for _, e := range entries {
		if !e.IsDir() {
			names[e.Name()] = true
		}
	}
	var files []string
	for name := range names {
		switch {
		case strings.HasSuffix(name, ".tofu"), strings.HasSuffix(name, ".tofu.json"):
			files = append(files, name)
		case strings.HasSuffix(name, ".tf"):
			if !names[strings.TrimSuffix(name, ".tf")+".tofu"] {
				files = append(files, name)
			}
		case strings.HasSuffix(name, ".tf.json"):
			if !names[strings.TrimSuffix(name, ".tf.json")+".tofu.json"] {
				files = append(files, name)
			}
		}
	}
	sort.Strings(files)
	return files, nil
}

var (
	fileSchema = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{
		{Type: "terraform"},
		{Type: "resource", LabelNames: []string{"type", "name"}},
		{Type: "data", LabelNames: []string{"type", "name"}},
		{Type: "ephemeral", LabelNames: []string{"type", "name"}},
		{Type: "provider", LabelNames: []string{"name"}},
	}}
	terraformSchema = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "required_providers"}}}
)

// LoadConfig reads the provider requirements of the root module in dir.
func LoadConfig(dir string) (*Config, hcl.Diagnostics) {
	return LoadConfigFS(os.DirFS(dir), dir)
}

// LoadConfigFS reads the provider requirements of the root module whose
// files are at the top of fsys; dir names it in messages (file:line).
func LoadConfigFS(fsys fs.FS, dir string) (*Config, hcl.Diagnostics) {
	return LoadConfigFSContext(context.Background(), fsys, dir)
}

// LoadConfigFSContext is LoadConfigFS stopped by ctx between files: a job
// whose time is up does not go on parsing.
func LoadConfigFSContext(ctx context.Context, fsys fs.FS, dir string) (*Config, hcl.Diagnostics) {
	names, err := ConfigFiles(fsys)
	if err != nil {
		return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Cannot read configuration directory", Detail: err.Error()}}
	}
	parser := hclparse.NewParser()
	var diags hcl.Diagnostics
	explicit := map[string]*Requirement{} // by local name
	type use struct {
		name string
		rng  hcl.Range
	}
	var uses []use
	for _, name := range names {
		if err := ctx.Err(); err != nil {
			return nil, append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Configuration not read",
				Detail: fmt.Sprintf("Reading %s stopped before %s: %v.", dir, name, context.Cause(ctx))})
		}
		src, err := fs.ReadFile(fsys, name)
		if err != nil {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Cannot read configuration file", Detail: err.Error()})
			continue
		}
		path := filepath.Join(dir, name)
		if d := checkSource(src, path, MaxSourceSize, strings.HasSuffix(name, ".json")); d != nil {
			diags = append(diags, d)
			continue
		}
		var f *hcl.File
		var d hcl.Diagnostics
		if strings.HasSuffix(name, ".json") {
			f, d = parser.ParseJSON(src, path)
		} else {
			f, d = parser.ParseHCL(src, path)
		}
		diags = append(diags, d...)
		if f == nil || d.HasErrors() {
			continue
		}
		content, _, d := f.Body.PartialContent(fileSchema)
		diags = append(diags, d...)
		for _, block := range content.Blocks {
			switch block.Type {
			case "terraform":
				diags = append(diags, readRequiredProviders(block, explicit)...)
			case "provider":
				uses = append(uses, use{block.Labels[0], block.DefRange})
			default:
				uses = append(uses, use{impliedLocalName(block.Labels[0]), block.DefRange})
			}
		}
	}
	cfg := &Config{Dir: dir}
	for _, r := range explicit {
		cfg.Requirements = append(cfg.Requirements, r)
	}
	for _, u := range uses {
		if explicit[u.name] != nil || u.name == "" || u.name == "terraform" {
			continue
		}
		explicit[u.name] = &Requirement{LocalName: u.name, Implied: true, DeclRange: u.rng,
			Address: Address{Host: HostOpenTofu, Namespace: "hashicorp", Type: u.name}}
		cfg.Requirements = append(cfg.Requirements, explicit[u.name])
	}
	sort.Slice(cfg.Requirements, func(i, j int) bool {
		return cfg.Requirements[i].Address.String() < cfg.Requirements[j].Address.String()
	})
	return cfg, diags
}

// impliedLocalName is the provider a resource type belongs to when the
// configuration does not say: the type's prefix before the first "_".
func impliedLocalName(resourceType string) string {
	name, _, _ := strings.Cut(resourceType, "_")
	return name
}

func readRequiredProviders(tf *hcl.Block, reqs map[string]*Requirement) hcl.Diagnostics {
	content, _, diags := tf.Body.PartialContent(terraformSchema)
	for _, rp := range content.Blocks {
		attrs, d := rp.Body.JustAttributes()
		diags = append(diags, d...)
		names := make([]string, 0, len(attrs))
		for name := range attrs {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			if name == "//" { // a comment property in JSON syntax
				continue
			}
			attr := attrs[name]
			r, d := readRequirement(name, attr)
			diags = append(diags, d...)
			if r == nil {
				continue
			}
			if prev := reqs[name]; prev != nil {
				prev.Constraints = append(prev.Constraints, r.Constraints...)
				continue
			}
			reqs[name] = r
		}
	}
	return diags
}

func readRequirement(name string, attr *hcl.Attribute) (*Requirement, hcl.Diagnostics) {
	v, diags := attr.Expr.Value(nil)
	if diags.HasErrors() {
		return nil, diags
	}
	r := &Requirement{LocalName: name, DeclRange: attr.Range,
		Address: Address{Host: HostOpenTofu, Namespace: "hashicorp", Type: name}}
	bad := func(detail string) (*Requirement, hcl.Diagnostics) {
		return nil, append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid required_providers entry",
			Detail: detail, Subject: attr.Expr.Range().Ptr()})
	}
	switch {
	case v.Type() == cty.String:
		// The legacy form: name = "version constraint".
		r.Constraints = []Constraint{{Expr: v.AsString(), Range: attr.Expr.Range()}}
	case v.Type().IsObjectType():
		if v.Type().HasAttribute("source") {
			src := v.GetAttr("source")
			if src.Type() != cty.String || src.IsNull() {
				return bad(fmt.Sprintf("The source of %q must be a string.", name))
			}
			a, err := ParseAddress(src.AsString(), HostOpenTofu)
			if err != nil {
				return bad(err.Error())
			}
			r.Address = a.canonical()
			r.HostGiven = strings.Count(src.AsString(), "/") == 2
		}
		if v.Type().HasAttribute("version") {
			ver := v.GetAttr("version")
			if ver.Type() != cty.String || ver.IsNull() {
				return bad(fmt.Sprintf("The version of %q must be a string.", name))
			}
			r.Constraints = []Constraint{{Expr: ver.AsString(), Range: attr.Expr.Range()}}
		}
	default:
		return bad(fmt.Sprintf("%q must be an object with source and version, or a version string.", name))
	}
	return r, diags
}

// matches reports whether a lock is for this requirement. A source without
// a host means the default registry, which Terraform-made locks name
// registry.terraform.io.
func (r *Requirement) matches(a Address) bool {
	if a == r.Address {
		return true
	}
	return !r.HostGiven && a.Short() == r.Address.Short() && (a.Host == HostOpenTofu || a.Host == HostTerraform)
}

// CrossCheck adds findings comparing the after lock file with the root
// module's configuration.
func CrossCheck(fd *FileDiff, after *LockFile, cfg *Config) {
	matched := map[Address]bool{}
	byAddr := map[Address]*ProviderDiff{}
	for _, p := range fd.Providers {
		byAddr[p.Address] = p
	}
	for _, r := range cfg.Requirements {
		var lock *Lock
		for _, l := range after.Providers {
			if r.matches(l.Address) {
				lock = l
				break
			}
		}
		where := rangeString(r.DeclRange)
		if lock == nil {
			how := "required"
			if r.Implied {
				how = "used (implied by the resource type)"
			}
			fd.Findings = append(fd.Findings, Finding{Kind: "required-not-locked", Severity: Warning, Message: fmt.Sprintf(
				"%s is %s at %s but not in the lock file: the change probably forgot to commit what `tofu init` wrote; run `tofu init` (or %s) and commit %s.",
				r.Address.Short(), how, where, LockCommand(fd.platforms, r.Address), filepath.Base(fd.Path))})
			continue
		}
		matched[lock.Address] = true
		pd := byAddr[lock.Address]
		var exprs, places []string
		ok := true
		for _, c := range r.Constraints {
			exprs = append(exprs, c.Expr)
			places = append(places, rangeString(c.Range))
			cs, err := version.NewConstraint(c.Expr)
			if err != nil {
				pd.Findings = append(pd.Findings, Finding{Kind: "invalid-constraint", Severity: Error, Message: fmt.Sprintf(
					"The version constraint %q at %s is not valid: %v.", c.Expr, rangeString(c.Range), err)})
				ok = false
				continue
			}
			if !cs.Check(lock.Version) {
				pd.Findings = append(pd.Findings, Finding{Kind: "version-rejected", Severity: Error, Message: fmt.Sprintf(
					"The locked version %s of %s does not satisfy the constraint %q at %s: `tofu init` will fail. Run `tofu init -upgrade` and commit the lock file, or relax the constraint.",
					lock.RawVersion, lock.Address, c.Expr, rangeString(c.Range))})
				ok = false
			}
		}
		if len(exprs) == 0 {
			continue
		}
		joined := strings.Join(exprs, ", ")
		if ok {
			pd.Findings = append(pd.Findings, Finding{Kind: "constraint-source", Severity: Info, Message: fmt.Sprintf(
				"The constraint %q on %s comes from %s.", joined, lock.Address.Short(), strings.Join(places, ", "))})
		}
		if lock.Constraints != "" && normalizeConstraints(lock.Constraints) != normalizeConstraints(joined) {
			pd.Findings = append(pd.Findings, Finding{Kind: "stale-constraints", Severity: Info, Message: fmt.Sprintf(
				"The lock file records constraints %q for %s but the configuration now says %q (%s); `tofu init` does not rewrite a stale constraints line on its own, only when it changes the lock for another reason.",
				lock.Constraints, lock.Address.Short(), joined, strings.Join(places, ", "))})
		}
	}
	for _, l := range after.Providers {
		if matched[l.Address] {
			continue
		}
		byAddr[l.Address].Findings = append(byAddr[l.Address].Findings, Finding{Kind: "locked-not-required", Severity: Info, Message: fmt.Sprintf(
			"%s is locked but the root module in %s neither requires nor uses it: a stale entry (`tofu init` keeps it), unless a child module needs it.",
			l.Address, cfg.Dir)})
	}
}

func normalizeConstraints(s string) string {
	parts := strings.Split(s, ",")
	for i, p := range parts {
		parts[i] = strings.Join(strings.Fields(p), "")
	}
	sort.Strings(parts)
	return strings.Join(parts, ",")
}

func rangeString(r hcl.Range) string {
	return fmt.Sprintf("%s:%d", r.Filename, r.Start.Line)
}
