package findings

import (
	"fmt"
	"github.com/planpr/planpr/lockdiff"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// Limits on the configuration an Index reads: a module tree deeper or
// larger than this is read as far as the limits and said so.
const (
	maxModuleDepth = 16
	maxModuleCalls = 1000
	maxConfigFiles = 500
	maxFileBytes   = 4 << 20
)

// Index is where a configuration's blocks are: each resource, data and
// module block of the root module and of every local module it calls
// (source "./…" or "../…"), by file and lines, with the addresses that
// block has in the configuration — a module called twice gives each of
// its blocks two (module.a.terraform_data.logs, module.b.…).
type Index struct {
	// files maps a file, as a slash path from the root module's
	// directory, to its blocks.
	files map[string][]block
	// Problems are what could not be read (a file, a module out of
	// reach): located diagnostics, never fatal to the rest.
	Problems hcl.Diagnostics
}

type block struct {
	start, end int      // lines, from 1, inclusive
	addrs      []string // in the configuration: module.a.TYPE.NAME, without instance keys
}

// NewIndex reads the configuration whose root module is the top of fsys:
// .tf and .tofu files in HCL's native syntax, .tf.json and .tofu.json in
// its JSON syntax (a .tofu file shadowing the .tf of its name, as
// OpenTofu reads them).
func NewIndex(fsys fs.FS) *Index {
	ix := &Index{files: map[string][]block{}}
	r := &indexReader{ix: ix, fsys: fsys, parser: hclparse.NewParser()}
	r.module(".", "", 0)
	for f := range ix.files {
		sort.Slice(ix.files[f], func(i, j int) bool { return ix.files[f][i].start < ix.files[f][j].start })
	}
	return ix
}

type indexReader struct {
	ix     *Index
	fsys   fs.FS
	parser *hclparse.Parser
	files  int
	called int // module calls read
}

var (
	moduleSchema = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{
		{Type: "resource", LabelNames: []string{"type", "name"}},
		{Type: "data", LabelNames: []string{"type", "name"}},
		{Type: "ephemeral", LabelNames: []string{"type", "name"}},
		{Type: "module", LabelNames: []string{"name"}},
	}}
	callSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "source"}}}
)

// module reads the module in dir (a slash path from the root), whose
// blocks have the address prefix at (module.a.module.b., or "" for the
// root), and the local modules it calls.
func (r *indexReader) module(dir, at string, depth int) {
	if depth > maxModuleDepth {
		r.ix.Problems = append(r.ix.Problems, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Module tree too deep",
			Detail: fmt.Sprintf("%s calls modules more than %d deep: the deeper ones are not read.", strings.TrimSuffix(at, "."), maxModuleDepth)})
		return
	}
	names, err := moduleFiles(r.fsys, dir)
	if err != nil {
		r.ix.Problems = append(r.ix.Problems, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Module not read", Detail: fmt.Sprintf("%s: %v", dir, err)})
		return
	}
	type call struct{ name, source string }
	var calls []call
	for _, name := range names {
		file := path.Join(dir, name)
		if r.files++; r.files > maxConfigFiles {
			r.ix.Problems = append(r.ix.Problems, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Too many configuration files",
				Detail: fmt.Sprintf("More than %d configuration files: %s and the rest are not read.", maxConfigFiles, file)})
			return
		}
		f := r.parse(file)
		if f == nil {
			continue
		}
		content, _, diags := f.Body.PartialContent(moduleSchema)
		r.ix.Problems = append(r.ix.Problems, errorsOnly(diags)...)
		for _, b := range content.Blocks {
			start, end := blockLines(b)
			var local string
			switch b.Type {
			case "module":
				local = "module." + b.Labels[0]
				attrs, _, _ := b.Body.PartialContent(callSchema)
				if src, ok := attrs.Attributes["source"]; ok {
					if v, d := src.Expr.Value(nil); !d.HasErrors() && v.Type() == cty.String && v.IsKnown() && !v.IsNull() {
						calls = append(calls, call{b.Labels[0], v.AsString()})
					}
				}
			case "data":
				local = "data." + b.Labels[0] + "." + b.Labels[1]
			case "ephemeral":
				local = "ephemeral." + b.Labels[0] + "." + b.Labels[1]
			default:
				local = b.Labels[0] + "." + b.Labels[1]
			}
			r.add(file, start, end, at+local)
		}
	}
	for _, c := range calls {
		if !strings.HasPrefix(c.source, "./") && !strings.HasPrefix(c.source, "../") {
			continue // a registry or remote module: not in this checkout
		}
		if r.called++; r.called > maxModuleCalls {
			r.ix.Problems = append(r.ix.Problems, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Too many module calls",
				Detail: fmt.Sprintf("More than %d module calls: %s%s and the rest are not read.", maxModuleCalls, at, "module."+c.name)})
			return
		}
		sub := path.Clean(path.Join(dir, c.source))
		if sub == ".." || strings.HasPrefix(sub, "../") {
			r.ix.Problems = append(r.ix.Problems, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Module outside the configuration",
				Detail: fmt.Sprintf("module %q's source %q is outside the directory read: its findings are matched by name only.", c.name, c.source)})
			continue
		}
		r.module(sub, at+"module."+c.name+".", depth+1)
	}
}

// add records a block at lines start–end of file under addr.
func (r *indexReader) add(file string, start, end int, addr string) {
	blocks := r.ix.files[file]
	for i := range blocks {
		if blocks[i].start == start && blocks[i].end == end {
			if !slices.Contains(blocks[i].addrs, addr) {
				blocks[i].addrs = append(blocks[i].addrs, addr)
			}
			return
		}
	}
	r.ix.files[file] = append(blocks, block{start: start, end: end, addrs: []string{addr}})
}

// parse reads one configuration file; a file parsed before (a module
// called twice) is the parser's.
func (r *indexReader) parse(file string) *hcl.File {
	if f, ok := r.parser.Files()[file]; ok {
		return f
	}
	src, err := fs.ReadFile(r.fsys, file)
	if err != nil {
		r.ix.Problems = append(r.ix.Problems, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Configuration file not read", Detail: fmt.Sprintf("%s: %v", file, err)})
		return nil
	}
	if len(src) > maxFileBytes {
		r.ix.Problems = append(r.ix.Problems, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Configuration file too large",
			Detail: fmt.Sprintf("%s is %d bytes, over %d: not read.", file, len(src), maxFileBytes)})
		return nil
	}
	var f *hcl.File
	var diags hcl.Diagnostics
	if strings.HasSuffix(file, ".json") {
		f, diags = r.parser.ParseJSON(src, file)
	} else {
		f, diags = r.parser.ParseHCL(src, file)
	}
	r.ix.Problems = append(r.ix.Problems, errorsOnly(diags)...)
	if diags.HasErrors() {
		return nil
	}
	return f
}

// blockLines are the lines a block spans: from its header (native
// syntax) or its object's opening brace (JSON syntax) to its closing
// brace.
func blockLines(b *hcl.Block) (start, end int) {
	start, end = b.DefRange.Start.Line, b.DefRange.End.Line
	switch body := b.Body.(type) {
	case *hclsyntax.Body:
		end = body.SrcRange.End.Line
	default: // JSON: the object's closing brace
		end = max(end, b.Body.MissingItemRange().End.Line)
	}
	return start, max(start, end)
}

// errorsOnly are the errors of diags: warnings do not stop the index.
func errorsOnly(diags hcl.Diagnostics) hcl.Diagnostics {
	var out hcl.Diagnostics
	for _, d := range diags {
		if d.Severity == hcl.DiagError {
			out = append(out, d)
		}
	}
	return out
}

// moduleFiles lists a module directory's configuration files as
// OpenTofu reads them (lockdiff.ConfigFiles).
func moduleFiles(fsys fs.FS, dir string) ([]string, error) {
	sub, err := fs.Sub(fsys, dir)
	if err != nil {
		return nil, err
	}
	return lockdiff.ConfigFiles(sub)
}

// At is the configuration addresses of the innermost block that holds
// line of file (a slash path from the root module's directory): one for
// a block of the root module, one per call of the module it is in. None
// when no resource, data or module block holds it.
func (ix *Index) At(file string, line int) []string {
	file = path.Clean(strings.TrimPrefix(file, "./"))
	var best *block
	for i, b := range ix.files[file] {
		if b.start <= line && line <= b.end && (best == nil || b.end-b.start < best.end-best.start) {
			best = &ix.files[file][i]
		}
	}
	if best == nil {
		return nil
	}
	return slices.Clone(best.addrs)
}
