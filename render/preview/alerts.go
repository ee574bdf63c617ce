package preview

import (
	"bytes"
	"regexp"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// alertKinds are GitHub's alerts: a blockquote whose first line is
// [!KIND] is drawn as a coloured box with the kind as its title.
var alertKinds = map[string]string{"NOTE": "Note", "TIP": "Tip", "IMPORTANT": "Important", "WARNING": "Warning", "CAUTION": "Caution"}

var alertMarker = regexp.MustCompile(`^\[!([A-Z]+)\]\s*$`)

// alerts turns GitHub alert blockquotes into alert boxes, as GitHub draws
// them: the preview must not look calmer than the comment will.
type alerts struct{}

func (alerts) Transform(doc *ast.Document, reader text.Reader, _ parser.Context) {
	source := reader.Source()
	var quotes []*ast.Blockquote
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if q, ok := n.(*ast.Blockquote); ok && entering {
			quotes = append(quotes, q)
		}
		return ast.WalkContinue, nil
	})
	for _, q := range quotes {
		p, ok := q.FirstChild().(*ast.Paragraph)
		if !ok || p.Lines().Len() == 0 {
			continue
		}
		first := p.Lines().At(0)
		m := alertMarker.FindSubmatch(bytes.TrimSpace(first.Value(source)))
		if m == nil || alertKinds[string(m[1])] == "" {
			continue
		}
		kind := string(m[1])
		// Drop the marker's inline nodes (the first line) and the break
		// after it; an empty paragraph goes.
		for c := p.FirstChild(); c != nil; {
			next := c.NextSibling()
			t, isText := c.(*ast.Text)
			if !isText || t.Segment.Start >= first.Stop {
				break
			}
			p.RemoveChild(p, c)
			c = next
		}
		if p.ChildCount() == 0 {
			q.RemoveChild(q, p)
		}
		title := ast.NewParagraph()
		title.SetAttributeString("class", []byte("markdown-alert-title"))
		title.AppendChild(title, ast.NewString([]byte(alertKinds[kind])))
		q.InsertBefore(q, q.FirstChild(), title)
		q.SetAttributeString("class", []byte("markdown-alert markdown-alert-"+strings.ToLower(kind)))
	}
}
