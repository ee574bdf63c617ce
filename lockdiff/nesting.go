package lockdiff

import (
	"bytes"
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// MaxNesting is the deepest nesting planpr parses in HCL and JSON
// configuration: brackets, templates, and the operators and splats that
// make hcl's parser recurse. hcl recurses once per level, and Go cannot
// recover from a stack overflow, so a lock file nested 100,000 deep would
// kill `planpr serve`; real files stay under a few dozen.
const MaxNesting = 256

// MaxSourceSize bounds one configuration file, and MaxLockSize one lock
// file: the largest real ones are a few hundred and a few tens of
// kilobytes (a lock of 1,000 hashes, the most planpr reads, is 70 KB).
const (
	MaxSourceSize = 8 << 20
	MaxLockSize   = 1 << 20
)

// checkSource refuses what the parser must not be given, before it sees it:
// a file over limit bytes or nested deeper than MaxNesting. JSON sources
// are checked as JSON, with the templates in their strings as HCL.
func checkSource(src []byte, filename string, limit int, isJSON bool) *hcl.Diagnostic {
	if len(src) > limit {
		return &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "File too large",
			Detail:   fmt.Sprintf("%s is %d bytes; planpr reads such files up to %d KiB.", filename, len(src), limit>>10),
			Subject:  &hcl.Range{Filename: filename, Start: hcl.InitialPos, End: hcl.InitialPos},
		}
	}
	if isJSON {
		return checkJSONNesting(src, filename)
	}
	tokens, _ := hclsyntax.LexConfig(src, filename, hcl.InitialPos)
	return checkTokenNesting(tokens, 0)
}

// checkTokenNesting follows how deep hcl's parser would recurse through
// tokens. Brackets, quotes, heredocs and template sequences nest; within
// one expression, each conditional, unary operator and splat adds a level
// until the expression ends (a newline directly inside braces, or the
// close of the bracket it is in); %{if}/%{for} directives nest until their
// end.
func checkTokenNesting(tokens hclsyntax.Tokens, base int) *hcl.Diagnostic {
	type open struct {
		kind  hclsyntax.TokenType
		level int // the level when it opened
	}
	var stack []open
	level := base
	for i, tok := range tokens {
		switch tok.Type {
		case hclsyntax.TokenOBrace, hclsyntax.TokenOBrack, hclsyntax.TokenOParen,
			hclsyntax.TokenOQuote, hclsyntax.TokenOHeredoc, hclsyntax.TokenTemplateInterp, hclsyntax.TokenTemplateControl:
			stack = append(stack, open{tok.Type, level})
			level++
			if tok.Type == hclsyntax.TokenTemplateControl && i+1 < len(tokens) && tokens[i+1].Type == hclsyntax.TokenIdent {
				switch string(tokens[i+1].Bytes) {
				case "if", "for":
					level++ // the directive's body nests until its end
					stack[len(stack)-1].level++
				case "endif", "endfor":
					if level > base+1 {
						level--
						stack[len(stack)-1].level--
					}
				}
			}
		case hclsyntax.TokenCBrace, hclsyntax.TokenCBrack, hclsyntax.TokenCParen,
			hclsyntax.TokenCQuote, hclsyntax.TokenCHeredoc, hclsyntax.TokenTemplateSeqEnd:
			if len(stack) > 0 {
				level = stack[len(stack)-1].level
				stack = stack[:len(stack)-1]
			}
			if tok.Type == hclsyntax.TokenCBrack && i >= 2 && tokens[i-1].Type == hclsyntax.TokenStar && tokens[i-2].Type == hclsyntax.TokenOBrack {
				level++ // a [*] splat: what follows it nests inside it
			}
		case hclsyntax.TokenQuestion, hclsyntax.TokenMinus, hclsyntax.TokenBang, hclsyntax.TokenStar:
			level++
		case hclsyntax.TokenNewline:
			if len(stack) == 0 {
				level = base
			} else if top := stack[len(stack)-1]; top.kind == hclsyntax.TokenOBrace {
				level = top.level + 1
			}
		}
		if level > MaxNesting {
			return tooDeep(tok.Range)
		}
	}
	return nil
}

func tooDeep(rng hcl.Range) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Nested too deeply",
		Detail:   fmt.Sprintf("Brackets, templates or operators here nest more than %d levels deep; planpr refuses such files rather than risk its stack. No real configuration or lock file nests this deep.", MaxNesting),
		Subject:  rng.Ptr(),
	}
}

// checkJSONNesting checks a JSON file's nesting without recursing, and
// lexes each string holding a template sequence as HCL does when it
// evaluates it.
func checkJSONNesting(src []byte, filename string) *hcl.Diagnostic {
	depth := 0
	pos := hcl.InitialPos
	advance := func(b []byte) {
		for _, c := range b {
			pos.Byte++
			if c == '\n' {
				pos.Line++
				pos.Column = 1
			} else if c < 0x80 || c >= 0xC0 {
				pos.Column++
			}
		}
	}
	for i := 0; i < len(src); {
		c := src[i]
		switch c {
		case '[', '{':
			depth++
			if depth > MaxNesting {
				return tooDeep(hcl.Range{Filename: filename, Start: pos, End: pos})
			}
		case ']', '}':
			depth--
		case '"':
			end := i + 1
			for end < len(src) && src[end] != '"' {
				if src[end] == '\\' {
					end++
				}
				end++
			}
			end = min(end+1, len(src))
			str := src[i:end]
			if bytes.Contains(str, []byte("${")) || bytes.Contains(str, []byte("%{")) {
				tokens, _ := hclsyntax.LexTemplate(str[1:max(1, len(str)-1)], filename, pos)
				if d := checkTokenNesting(tokens, depth); d != nil {
					return d
				}
			}
			advance(str)
			i = end
			continue
		}
		advance(src[i : i+1])
		i++
	}
	return nil
}
