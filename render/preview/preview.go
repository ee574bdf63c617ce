// Package preview owns the --html preview: a comment's Markdown rendered
// as GitHub would, sanitised, on a page that can load and run nothing.
package preview

import (
	"bytes"
	"html"
	"io"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	gmhtml "github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/util"
)

// HTML writes a self-contained page showing a comment as GitHub
// would: GitHub-flavoured Markdown (tables, strikethrough, autolinks, task
// lists) rendered with goldmark, styled like a GitHub comment, with
// GitHub's alert boxes ([!CAUTION] …) and coloured diff lines. The HTML is
// sanitised to the elements a comment uses (no links, images, forms,
// meta refreshes), and a Content-Security-Policy forbids loading,
// running, submitting and framing anything.
func HTML(w io.Writer, title, markdown string) error {
	md := goldmark.New(
		goldmark.WithExtensions(extension.GFM),
		goldmark.WithParserOptions(parser.WithASTTransformers(util.Prioritized(alerts{}, 100))),
		// The comment's own HTML (<details>, <summary>, <code>) must pass;
		// untrusted text in it is already escaped, and the CSP below
		// stops anything that would still try to run.
		goldmark.WithRendererOptions(gmhtml.WithUnsafe()),
	)
	var rendered bytes.Buffer
	if err := md.Convert([]byte(markdown), &rendered); err != nil {
		return err
	}
	body := bytes.NewBuffer(colourDiffs(sanitizeHTML(rendered.Bytes())))
	_, err := io.WriteString(w, `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="`+previewCSP+`">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>`+html.EscapeString(title)+`</title>
<style>`+previewCSS+`</style>
</head>
<body>
<div class="timeline-comment">
<div class="comment-header"><strong>planpr</strong> <span class="muted">commented (preview)</span></div>
<div class="comment-body markdown-body">
`+body.String()+`</div>
</div>
</body>
</html>
`)
	return err
}

// previewCSP lets the page load, run, submit and frame nothing: styles
// are inline, and the sanitised body has no links, forms or refreshes.
const previewCSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'none'; base-uri 'none'; frame-src 'none'; frame-ancestors 'none'; object-src 'none'"

// previewCSS approximates GitHub's comment styling.
const previewCSS = `
body { background: #f6f8fa; margin: 0; padding: 24px; font-family: -apple-system, BlinkMacSystemFont, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif; color: #1f2328; }
.timeline-comment { max-width: 880px; margin: 0 auto; background: #fff; border: 1px solid #d0d7de; border-radius: 6px; }
.comment-header { padding: 8px 16px; background: #f6f8fa; border-bottom: 1px solid #d0d7de; border-radius: 6px 6px 0 0; font-size: 14px; }
.muted { color: #656d76; }
.markdown-body { padding: 16px; font-size: 14px; line-height: 1.5; word-wrap: break-word; }
.markdown-body h2 { font-size: 1.5em; border-bottom: 1px solid #d8dee4; padding-bottom: .3em; margin: 0 0 16px; }
.markdown-body h3 { font-size: 1.25em; margin: 24px 0 16px; }
.markdown-body h4 { font-size: 1em; margin: 24px 0 16px; }
.markdown-body table { border-collapse: collapse; margin: 0 0 16px; display: block; overflow: auto; }
.markdown-body th, .markdown-body td { border: 1px solid #d0d7de; padding: 6px 13px; }
.markdown-body tr:nth-child(2n) { background: #f6f8fa; }
.markdown-body code { font-family: ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, monospace; font-size: 85%; background: rgba(175,184,193,.2); padding: .2em .4em; border-radius: 6px; }
.markdown-body pre { background: #f6f8fa; padding: 16px; overflow: auto; border-radius: 6px; line-height: 1.45; }
.markdown-body pre code { background: transparent; padding: 0; font-size: 85%; }
.markdown-body blockquote { margin: 0 0 16px; padding: 0 1em; color: #59636e; border-left: .25em solid #d0d7de; }
.markdown-body details { margin: 0 0 8px; }
.markdown-body summary { cursor: pointer; }
.markdown-body hr { border: 0; border-top: 1px solid #d0d7de; margin: 24px 0; }
.markdown-body blockquote.markdown-alert { padding: .5rem 1rem; margin: 0 0 16px; color: inherit; border-left: .25em solid #d0d7de; }
.markdown-alert > :last-child { margin-bottom: 0; }
.markdown-alert-title { display: flex; font-weight: 500; align-items: center; line-height: 1; margin: 0 0 8px; }
.markdown-body blockquote.markdown-alert-note { border-left-color: #0969da; } .markdown-alert-note .markdown-alert-title { color: #0969da; }
.markdown-body blockquote.markdown-alert-tip { border-left-color: #1a7f37; } .markdown-alert-tip .markdown-alert-title { color: #1a7f37; }
.markdown-body blockquote.markdown-alert-important { border-left-color: #8250df; } .markdown-alert-important .markdown-alert-title { color: #8250df; }
.markdown-body blockquote.markdown-alert-warning { border-left-color: #9a6700; } .markdown-alert-warning .markdown-alert-title { color: #9a6700; }
.markdown-body blockquote.markdown-alert-caution { border-left-color: #d1242f; } .markdown-alert-caution .markdown-alert-title { color: #d1242f; }
.markdown-body .diff-add { display: inline-block; min-width: 100%; color: #116329; background: #dafbe1; }
.markdown-body .diff-del { display: inline-block; min-width: 100%; color: #82071e; background: #ffebe9; }
.markdown-body .diff-change { display: inline-block; min-width: 100%; color: #953800; background: #fff1e5; }
`
