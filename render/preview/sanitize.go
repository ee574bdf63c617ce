package preview

import (
	"bytes"
	"io"
	"slices"
	"strings"

	"golang.org/x/net/html"
)

// allowedTags are the elements a comment's Markdown renders to, and the
// attributes each may keep. Everything else — <meta http-equiv=refresh>,
// <form>, <base>, <iframe>, links, images — is dropped (a link or a
// dropped element's text stays as text), so the preview can neither
// navigate nor submit anything, whatever raw HTML reached it.
var allowedTags = map[string][]string{
	"p": {"class"}, "br": nil, "hr": nil, "b": nil, "strong": nil, "em": nil, "i": nil, "del": nil, "sub": nil, "sup": nil,
	"h1": nil, "h2": nil, "h3": nil, "h4": nil, "h5": nil, "h6": nil, "ul": nil, "ol": {"start"}, "li": nil,
	"blockquote": {"class"}, "pre": nil, "code": {"class"}, "span": {"class"}, "div": {"class"},
	"details": {"open"}, "summary": nil, "table": nil, "thead": nil, "tbody": nil, "tr": nil, "th": {"align", "style"}, "td": {"align", "style"},
	"input": {"type", "checked", "disabled"},
}

// droppedWithContent are elements whose content is no text to show.
var droppedWithContent = map[string]bool{"script": true, "style": true, "template": true, "title": true, "textarea": true, "select": true, "noscript": true, "iframe": true, "object": true}

// sanitizeHTML keeps only the allowed elements and attributes of
// rendered Markdown.
func sanitizeHTML(in []byte) []byte {
	z := html.NewTokenizer(bytes.NewReader(in))
	var out bytes.Buffer
	skip := 0 // inside an element dropped with its content
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			if z.Err() == io.EOF {
				return out.Bytes()
			}
			return out.Bytes()
		}
		tok := z.Token()
		switch tt {
		case html.TextToken:
			if skip == 0 {
				out.WriteString(html.EscapeString(tok.Data))
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			if droppedWithContent[tok.Data] {
				if tt == html.StartTagToken {
					skip++
				}
				continue
			}
			attrs, ok := allowedTags[tok.Data]
			if !ok || skip > 0 {
				continue
			}
			out.WriteString("<" + tok.Data)
			for _, a := range tok.Attr {
				if a.Namespace == "" && slices.Contains(attrs, a.Key) && safeAttr(a.Key, a.Val) {
					out.WriteString(" " + a.Key + `="` + html.EscapeString(a.Val) + `"`)
				}
			}
			if tt == html.SelfClosingTagToken {
				out.WriteString(" /")
			}
			out.WriteString(">")
		case html.EndTagToken:
			if droppedWithContent[tok.Data] {
				skip = max(0, skip-1)
				continue
			}
			if _, ok := allowedTags[tok.Data]; ok && skip == 0 {
				out.WriteString("</" + tok.Data + ">")
			}
		}
	}
}

// safeAttr refuses attribute values that could load or run anything.
func safeAttr(key, val string) bool {
	switch key {
	case "style":
		return strings.HasPrefix(val, "text-align:") && !strings.ContainsAny(val, "();\\")
	case "type":
		return val == "checkbox"
	}
	return !strings.Contains(strings.ToLower(val), "javascript:")
}
