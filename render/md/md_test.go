package md

import (
	"strings"
	"testing"
)

func TestMarkdownEscaping(t *testing.T) {
	hostile := "<script>x</script> </details> [link](http://x) ![i](y) @octocat #123 a|b `code` *em* \u202eevil\u200b"
	got := Text(hostile)
	for _, bad := range []string{"<script", "</details>", "[link]", "![i]", "@octocat", "#123", "a|b", "`code`", "*em*", "\u202e", "\u200b"} {
		if strings.Contains(got, bad) {
			t.Errorf("mdText left %q in %q", bad, got)
		}
	}
	if got := Message("run `tofu init` for <b>"); got != "run `tofu init` for &lt;b&gt;" {
		t.Errorf("mdMessage = %q", got)
	}
}

// Fences and code spans are longer than any backtick run inside, so no
// value can close them.
func TestFencesOutlastBackticks(t *testing.T) {
	body := "a ```` b\n```"
	if got := Fence(body, "diff"); !strings.HasPrefix(got, "`````diff\n") || !strings.HasSuffix(got, "\n`````\n") {
		t.Errorf("Fence = %q", got)
	}
	if got := Code("`x`"); got != "`` `x` ``" {
		t.Errorf("Code = %q", got)
	}
	if got := HTMLCode("</code><b>"); got != "<code>&lt;/code&gt;&lt;b&gt;</code>" {
		t.Errorf("HTMLCode = %q", got)
	}
	if got := Visible("a\x1b[31mb\u202e"); got != `a\u001b[31mb\u202e` {
		t.Errorf("Visible = %q", got)
	}
	if got := DiffBlock("  ~ a = 1 -> 2\n  + b = 1"); got != "```diff\n!   a = 1 -> 2\n+   b = 1\n```\n" {
		t.Errorf("DiffBlock = %q", got)
	}
}

func TestCollapseBlankLines(t *testing.T) {
	in := "# t\n\n\n\npara\n\n\n```diff\n  a\n\n\n\n+ b\n```\n\n\n\n~~~~\n\n\n```\n\n\n~~~~\nend\n"
	want := "# t\n\npara\n\n```diff\n  a\n\n\n\n+ b\n```\n\n~~~~\n\n\n```\n\n\n~~~~\nend\n"
	if got := CollapseBlankLines(in); got != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
}

// The ASCII fast path of Visible must find exactly what Invisible finds.
func TestPlainASCIIAgreesWithInvisible(t *testing.T) {
	for r := rune(0); r < 0x80; r++ {
		s := "a" + string(r) + "b"
		if got, want := plainASCII(s), strings.IndexFunc(s, Invisible) < 0; got != want {
			t.Errorf("plainASCII(%q) = %v, Invisible finds nothing: %v", s, got, want)
		}
	}
	if plainASCII("caf\u00e9") {
		t.Error("plainASCII passes non-ASCII text on")
	}
}
