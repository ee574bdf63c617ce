// Package pack writes a matrix job's artifact layout — a directory a root,
// its plan, streams, schemas and a planpr.json naming the root — for the
// final job (or the App) to read, and says which expected roots sent
// nothing.
package pack

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Manifest is what a pack's planpr.json says (bot.Manifest reads it).
type Manifest struct {
	PR     int    `json:"pr,omitempty"`
	SHA    string `json:"sha,omitempty"`
	Mode   string `json:"mode,omitempty"`
	Flavor string `json:"flavor,omitempty"`
	Root   string `json:"root,omitempty"`
}

// Root is one root module a matrix job read: its name, its place in the
// repository, its plan and streams.
type Root struct {
	Name, Root, Path string
	Streams          []string
	// Findings are scanners' reports about the root (SARIF): packed
	// beside its plan as NAME.sarif, so that the final job finds them;
	// Costs its Infracost reports, as infracost-NAME.json.
	Findings, Costs []string
	// Policies are policy engines' verdicts over its plan, as
	// policy-NAME.json.
	Policies []string
}

// Write writes what a matrix job read into dir, one directory a root
// (its place in the repository, slashes as "__"): the plan, the streams,
// the schemas, the scanners' reports and a planpr.json naming the root, the commit and the pull
// request — the layout the final job (plan: artifacts/**/plan.json) and
// the App read. The job uploads dir as an artifact; nothing is posted.
func Write(dir string, plans []Root, schemas string, m Manifest, logf func(format string, args ...any)) error {
	for _, p := range plans {
		root := cmp.Or(p.Root, p.Name)
		if root == "" || root == "." {
			root = "."
		}
		sub := filepath.Join(dir, packDir(root))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			return err
		}
		var files []string
		if p.Path != "" {
			files = append(files, p.Path)
		}
		files = append(files, p.Streams...)
		if schemas != "" {
			files = append(files, schemas)
		}
		findings, costs := map[string]bool{}, map[string]bool{}
		for _, f := range p.Findings {
			files, findings[f] = append(files, f), true
		}
		for _, f := range p.Costs {
			files, costs[f] = append(files, f), true
		}
		policies := map[string]bool{}
		for _, f := range p.Policies {
			files, policies[f] = append(files, f), true
		}
		for _, f := range files {
			name := filepath.Base(f)
			switch {
			case f == schemas:
				name = "schemas.json"
			case findings[f] && !strings.HasSuffix(name, ".sarif"):
				name = strings.TrimSuffix(name, filepath.Ext(name)) + ".sarif"
			case costs[f] && !strings.HasPrefix(name, "infracost"):
				name = "infracost-" + name
			case policies[f] && !strings.HasPrefix(name, "policy"):
				name = "policy-" + name
			}
			if err := copyFile(f, filepath.Join(sub, name)); err != nil {
				return err
			}
		}
		mf := m
		if root != "." {
			mf.Root = path.Clean(root)
		}
		if mf.Root == ".." || strings.HasPrefix(mf.Root, "../") || path.IsAbs(mf.Root) {
			return fmt.Errorf("pack: root %q is outside the repository", mf.Root)
		}
		b, _ := json.MarshalIndent(mf, "", "  ")
		if err := os.WriteFile(filepath.Join(sub, "planpr.json"), append(b, '\n'), 0o644); err != nil {
			return err
		}
		logf("planpr: packed %s into %s (%d files): upload %s as an artifact", root, sub, len(files)+1, dir)
	}
	return nil
}

// packDir is a root's directory name in a pack.
func packDir(root string) string {
	if root == "." {
		return "_root"
	}
	return strings.ReplaceAll(path.Clean(root), "/", "__")
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
