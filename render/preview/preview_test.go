package preview

import (
	"bytes"
	"strings"
	"testing"
)

// TestPreviewForbidsRefreshFormsAndNavigation: the --html preview carried
// a raw <meta http-equiv=refresh> and a <form>, which its CSP allowed.
func TestPreviewForbidsRefreshFormsAndNavigation(t *testing.T) {
	md := "<meta http-equiv=\"refresh\" content=\"0;url=https://evil.example\">\n\n" +
		"<form action=\"https://evil.example\"><input name=q><button>go</button></form>\n\n" +
		"<base href=\"https://evil.example/\"><iframe src=\"https://evil.example\"></iframe>\n\n" +
		"[a link](https://evil.example) ![img](https://evil.example/x.png) <a href=\"javascript:alert(1)\">js</a>\n\n" +
		"<details><summary><code>x</code> will be <b>destroyed</b></summary>\n\n```diff\n- a\n```\n\n</details>\n"
	var b bytes.Buffer
	if err := HTML(&b, "t", md); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	body := page[strings.Index(page, "<body>"):]
	for _, bad := range []string{"<meta", "<form", "<input name", "<button", "<base", "<iframe", "<a ", "<img", "evil.example", "javascript:"} {
		if strings.Contains(body, bad) {
			t.Errorf("the preview's body has %q", bad)
		}
	}
	for _, want := range []string{"form-action 'none'", "base-uri 'none'", "frame-src 'none'", "default-src 'none'"} {
		if !strings.Contains(page, want) {
			t.Errorf("the CSP lacks %q", want)
		}
	}
	for _, want := range []string{"<details>", "<summary><code>x</code> will be <b>destroyed</b></summary>", `<code class="language-diff">`, "a link"} {
		if !strings.Contains(body, want) {
			t.Errorf("the preview lost %q:\n%s", want, body)
		}
	}
}

// GitHub draws alerts as coloured boxes with a title, and colours diff
// lines: so does the preview.
func TestPreviewDrawsAlertsAndDiffsAsGitHub(t *testing.T) {
	md := "> [!CAUTION]\n> - `x` will be **destroyed**\n\n> [!NOTE]\n> Shortened to fit.\n\n> [!SHOUTING]\n> not an alert\n\n> plain\n\n" +
		"```diff\n  # x\n! resource \"a\" \"b\" {\n-     old = 1\n+     new = 2\n  }\n```\n"
	var b bytes.Buffer
	if err := HTML(&b, "t", md); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{
		`<blockquote class="markdown-alert markdown-alert-caution"><p class="markdown-alert-title">Caution</p>`,
		`<blockquote class="markdown-alert markdown-alert-note"><p class="markdown-alert-title">Note</p>` + "\n<p>Shortened to fit.</p>",
		"<p>[!SHOUTING]\nnot an alert</p>",
		"<blockquote>\n<p>plain</p>",
		`<span class="diff-change">! resource &#34;a&#34; &#34;b&#34; {</span>`,
		`<span class="diff-del">-     old = 1</span>`,
		`<span class="diff-add">+     new = 2</span>`,
		"\n  }\n</code>",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if strings.Contains(page, "[!CAUTION]") || strings.Contains(page, "[!NOTE]") {
		t.Error("an alert's marker is shown as text")
	}
}
