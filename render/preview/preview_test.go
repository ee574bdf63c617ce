package preview

import (
	"bytes"
	"strings"
	"testing"
)

// TestH3PreviewForbidsRefreshFormsAndNavigation: the --html preview carried
// a raw <meta http-equiv=refresh> and a <form>, which its CSP allowed.
func TestH3PreviewForbidsRefreshFormsAndNavigation(t *testing.T) {
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
