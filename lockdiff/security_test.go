package lockdiff

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/hashicorp/go-version"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// deepShapes are the nesting shapes that overflowed Go's stack in hcl's
// parser, each as the tail of an expression.
func deepShapes(n int) map[string]string {
	return map[string]string{
		"brackets":          strings.Repeat("[", n) + strings.Repeat("]", n),
		"brackets-unclosed": strings.Repeat("[", n),
		"braces":            strings.Repeat("{a=", n) + "1" + strings.Repeat("}", n),
		"parens":            strings.Repeat("(", n) + "1" + strings.Repeat(")", n),
		"calls":             strings.Repeat("f(", n) + "1" + strings.Repeat(")", n),
		"template":          strings.Repeat(`"${`, n) + "1" + strings.Repeat(`}"`, n),
		"template-if":       `"` + strings.Repeat("%{if x}", n) + strings.Repeat("%{endif}", n) + `"`,
		"minus":             strings.Repeat("-", n*10) + "1",
		"bang":              strings.Repeat("!", n*10) + "true",
		"conditional":       strings.Repeat("x ? 1 : ", n) + "1",
		"splat":             "x" + strings.Repeat("[*]", n),
		"attr-splat":        "x" + strings.Repeat(".*", n),
		"for":               strings.Repeat("[for x in ", n) + "y" + strings.Repeat(": x]", n),
		"heredoc-template":  "<<EOT\n" + strings.Repeat("${", n) + "1" + strings.Repeat("}", n) + "\nEOT\n",
	}
}

// TestDeepNestingLockFile: a lock file nested 100,000 deep (200 KB of
// "[") is refused with one located error instead of killing the process;
// every shape at the most a lock file under MaxLockSize can hold.
func TestDeepNestingLockFile(t *testing.T) {
	for name, tail := range deepShapes(50000) {
		t.Run(name, func(t *testing.T) {
			src := "provider \"registry.opentofu.org/hashicorp/aws\" {\n  version = \"5.0.0\"\n  hashes = " + tail + "\n}\n"
			start := time.Now()
			_, diags := Parse([]byte(src), "deep.hcl")
			if !diags.HasErrors() || !refusedAsAmplifying(diags[0].Summary) || diags[0].Subject == nil || diags[0].Subject.Start.Line < 3 {
				t.Fatalf("want one located 'Nested too deeply' from line 3 on, got %v", diags)
			}
			if len(diags) != 1 {
				t.Errorf("want one error, got %d", len(diags))
			}
			t.Logf("refused in %v", time.Since(start))
		})
	}
}

// TestDeepNestingConfig: the same for .tf and .tf.json configuration
// read by lockdiff --config and the App.
func TestDeepNestingConfig(t *testing.T) {
	for name, tail := range deepShapes(100000) {
		t.Run(name, func(t *testing.T) {
			fsys := fstest.MapFS{"main.tf": {Data: []byte("locals {\n  a = " + tail + "\n}\n")}}
			_, diags := LoadConfigFS(fsys, "root")
			if !diags.HasErrors() || !refusedAsAmplifying(diags[0].Summary) {
				t.Fatalf("want 'Nested too deeply', got %v", diags)
			}
		})
	}
	for name, src := range map[string]string{
		"json-arrays":   `{"locals": {"a": ` + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + `}}`,
		"json-objects":  `{"locals": {"a": ` + strings.Repeat(`{"a":`, 100000) + "1" + strings.Repeat("}", 100000) + `}}`,
		"json-template": `{"terraform": {"required_providers": {"aws": {"source": "` + strings.Repeat("${", 100000) + "1" + strings.Repeat("}", 100000) + `"}}}}`,
	} {
		t.Run(name, func(t *testing.T) {
			_, diags := LoadConfigFS(fstest.MapFS{"main.tf.json": {Data: []byte(src)}}, "root")
			if !diags.HasErrors() || !refusedAsAmplifying(diags[0].Summary) {
				t.Fatalf("want 'Nested too deeply', got %v", diags)
			}
		})
	}
}

// TestOrdinaryNestingParses: the limit leaves real shapes alone — many
// conditionals and unary operators in one block, each in its own
// attribute, and nesting well below the limit.
func TestOrdinaryNestingParses(t *testing.T) {
	var b strings.Builder
	b.WriteString("locals {\n")
	for i := range 2 * MaxNesting {
		fmt.Fprintf(&b, "  a%d = x ? -1 : !y ? [for v in z : v[*].id] : \"${a}-%%{if b}c%%{endif}\"\n", i)
	}
	b.WriteString("  deep = " + strings.Repeat("[", 50) + strings.Repeat("]", 50) + "\n}\n")
	b.WriteString("terraform {\n  required_providers {\n    aws = { source = \"hashicorp/aws\", version = \"~> 5.0\" }\n  }\n}\n")
	cfg, diags := LoadConfigFS(fstest.MapFS{"main.tf": {Data: []byte(b.String())}}, "root")
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if len(cfg.Requirements) != 1 {
		t.Fatalf("requirements: %v", cfg.Requirements)
	}
}

// TestLargeConfigFile: a 48 MB main.tf is refused at once, not parsed
// for seconds into gigabytes.
func TestLargeConfigFile(t *testing.T) {
	big := []byte("locals {\n" + strings.Repeat("  a = \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"\n", 48<<20/72) + "}\n")
	start := time.Now()
	_, diags := LoadConfigFS(fstest.MapFS{"main.tf": {Data: big}}, "root")
	if !diags.HasErrors() || diags[0].Summary != "File too large" {
		t.Fatalf("want 'File too large', got %v", diags)
	}
	t.Logf("refused in %v", time.Since(start))
}

// TestManyLockHashes: a lock of 100,000 hashes took 134 s to compare.
// It is refused from its size at once; a lock under the size limit with
// more than MaxHashes hashes is refused at the list, located; and
// comparing many hashes is linear.
func TestManyLockHashes(t *testing.T) {
	lock := func(n int) []byte {
		var b strings.Builder
		b.WriteString("provider \"registry.opentofu.org/hashicorp/aws\" {\n  version = \"5.0.0\"\n  hashes = [\n")
		for i := range n {
			fmt.Fprintf(&b, "    \"zh:%064d\",\n", i)
		}
		b.WriteString("  ]\n}\n")
		return []byte(b.String())
	}
	if _, diags := Parse(lock(100000), "huge.hcl"); !diags.HasErrors() || diags[0].Summary != "File too large" {
		t.Errorf("want 'File too large', got %v", diags)
	}
	if _, diags := Parse(lock(MaxHashes+1), "many.hcl"); !diags.HasErrors() || diags[0].Summary != "Too many hashes" || diags[0].Subject.Start.Line != 3 {
		t.Errorf("want 'Too many hashes' at line 3, got %v", diags)
	}
}

func BenchmarkCompareHashes(b *testing.B) {
	mk := func(prefix string) *LockFile {
		l := &Lock{Address: Address{Host: HostOpenTofu, Namespace: "hashicorp", Type: "aws"}, RawVersion: "5.0.0"}
		l.Version, _ = version.NewVersion("5.0.0")
		for i := range MaxHashes {
			l.Hashes = append(l.Hashes, fmt.Sprintf("zh:%s%060d", prefix, i))
		}
		return &LockFile{Providers: []*Lock{l}}
	}
	before, after := mk("a"), mk("b")
	for b.Loop() {
		Compare("x", before, after)
	}
}

// TestControlCharactersInLockStrings: a raw NUL (or any control
// character) in a lock file's strings was accepted.
func TestControlCharactersInLockStrings(t *testing.T) {
	for name, src := range map[string]string{
		"hash":        "provider \"registry.opentofu.org/hashicorp/aws\" {\n  version = \"5.0.0\"\n  hashes = [\"h1:a\x00b\"]\n}\n",
		"constraints": "provider \"registry.opentofu.org/hashicorp/aws\" {\n  version = \"5.0.0\"\n  constraints = \"~> 5.0\x1b[31m\"\n  hashes = [\"h1:ab\"]\n}\n",
	} {
		t.Run(name, func(t *testing.T) {
			_, diags := Parse([]byte(src), "ctl.hcl")
			if !diags.HasErrors() || diags[0].Subject == nil || diags[0].Subject.Start.Line != 3 || !strings.Contains(diags[0].Detail, "control character") {
				t.Errorf("want a located control-character error, got %v", diags)
			}
		})
	}
}

// refusedAsAmplifying: a file that would make the parser recurse too deep
// or lex too much is refused before the parser sees it, as one or the
// other (the token budget often comes first).
func refusedAsAmplifying(summary string) bool {
	return summary == "Nested too deeply" || summary == "Too many tokens"
}

// TestConfigAmplification: 8 MiB of "[" cost 27–36 s and 2.2 GB, 3 MB
// of "[{(" 32 s and 741 MB, and a pull request of three such files 72 s:
// each is refused now, located, by a pass that allocates nothing, before
// the lexer; a flat file of a million tokens is refused by the token
// budget; parsing stops when its context ends.
func TestConfigAmplification(t *testing.T) {
	files := map[string]string{
		"brackets.tf":  strings.Repeat("[", 8<<20),
		"mixed.tf":     "locals {\n  a = " + strings.Repeat("[{(", 1<<20) + "\n}\n",
		"flat.tf":      "locals {\n  a = [" + strings.Repeat("1,", 1<<20) + "]\n}\n",
		"flat.tf.json": `{"locals": {"a": [` + strings.Repeat("1,", 1<<20) + `1]}}`,
	}
	var m runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m)
	before := m.TotalAlloc
	fsys := fstest.MapFS{}
	for name, src := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(src)}
	}
	runtime.ReadMemStats(&m)
	before = m.TotalAlloc
	_, diags := LoadConfigFS(fsys, "root")
	runtime.ReadMemStats(&m)
	if used := m.TotalAlloc - before; used > 64<<20 {
		t.Errorf("refusing the files allocated %d MB", used>>20)
	}
	if len(diags) != len(files) {
		t.Fatalf("want one diagnostic per file, got %v", diags)
	}
	for _, d := range diags {
		if !refusedAsAmplifying(d.Summary) || d.Subject == nil || d.Subject.Filename == "" {
			t.Errorf("%v", d)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, diags = LoadConfigFSContext(ctx, fstest.MapFS{"main.tf": {Data: []byte("terraform {}\n")}}, "root")
	if !diags.HasErrors() || diags[0].Summary != "Configuration not read" {
		t.Errorf("a cancelled read: %v", diags)
	}
}

// FuzzScanBudget: whatever the bytes, the budget pass never panics, and a
// file it lets through lexes within the token budget.
func FuzzScanBudget(f *testing.F) {
	f.Add([]byte("terraform {\n  required_providers {\n    aws = { source = \"hashicorp/aws\" }\n  }\n}\n"), false)
	f.Add([]byte("a = <<EOT\n[[[[\nEOT\nb = \"${x}[\" # [[[\n/* ((( */\n"), false)
	f.Add([]byte(`{"a": [[["x"]]]}`), true)
	f.Fuzz(func(t *testing.T, src []byte, isJSON bool) {
		if scanBudget(src, "f.tf", isJSON) != nil || isJSON {
			return
		}
		tokens, _ := hclsyntax.LexConfig(src, "f.tf", hcl.InitialPos)
		if len(tokens) > 3*MaxTokens {
			t.Fatalf("%d tokens let through", len(tokens))
		}
	})
}
