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
	if d := scanBudget(src, filename, isJSON); d != nil {
		return d
	}
	if isJSON {
		return checkJSONNesting(src, filename)
	}
	tokens, _ := hclsyntax.LexConfig(src, filename, hcl.InitialPos)
	return checkTokenNesting(tokens, 0)
}

// MaxTokens bounds the tokens of one file planpr lexes: hcl's lexer keeps
// every token (about 500 bytes each with the nesting check), so 8 MiB of
// "[" cost 4.4 GB and 10 s before this bound. A real file of 100,000
// tokens is half a megabyte of configuration.
const MaxTokens = 100_000

// scanBudget is a pass over the bytes that allocates nothing, before the
// lexer: brackets outside strings, comments and heredocs nested deeper
// than MaxNesting, more than MaxTokens tokens, or a large file denser in
// tokens than any a person writes (one every other byte) are refused,
// located. What it lets through is checked exactly after lexing.
func scanBudget(src []byte, filename string, isJSON bool) *hcl.Diagnostic {
	pos := hcl.InitialPos
	depth, tokens := 0, 0
	inWord := false
	for i := 0; i < len(src); i++ {
		c := src[i]
		word := c == '_' || c == '-' && !isJSON || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
		switch {
		case word:
			if !inWord {
				tokens++
			}
		case c == '"':
			tokens++
			end := skipString(src, i)
			advancePos(&pos, src[i:end])
			i = end - 1
			inWord = false
			continue
		case !isJSON && (c == '#' || c == '/' && i+1 < len(src) && (src[i+1] == '/' || src[i+1] == '*')):
			end := skipComment(src, i)
			advancePos(&pos, src[i:end])
			i = end - 1
			inWord = false
			continue
		case !isJSON && c == '<' && i+1 < len(src) && src[i+1] == '<':
			if end := skipHeredoc(src, i); end > i {
				tokens += 2
				advancePos(&pos, src[i:end])
				i = end - 1
				inWord = false
				continue
			}
			tokens++
		case c == '(' || c == '[' || c == '{':
			tokens++
			if depth++; depth > MaxNesting {
				return tooDeep(hcl.Range{Filename: filename, Start: pos, End: pos})
			}
		case c == ')' || c == ']' || c == '}':
			tokens++
			depth = max(depth-1, 0)
		case c == ' ' || c == '\t' || c == '\r':
		default:
			tokens++
		}
		inWord = word
		if tokens > MaxTokens {
			return tooManyTokens(filename, pos, fmt.Sprintf("more than %d tokens", MaxTokens))
		}
		advancePos(&pos, src[i:i+1])
	}
	if len(src) > 64<<10 && tokens > len(src)/2 {
		return tooManyTokens(filename, hcl.InitialPos, fmt.Sprintf("%d tokens in %d bytes", tokens, len(src)))
	}
	return nil
}

func tooManyTokens(filename string, pos hcl.Pos, what string) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Too many tokens",
		Detail:   fmt.Sprintf("%s has %s; planpr reads configuration and lock files up to %d tokens, and no denser than one token every other byte, so that no file can cost it minutes and gigabytes.", filename, what, MaxTokens),
		Subject:  &hcl.Range{Filename: filename, Start: pos, End: pos},
	}
}

func advancePos(pos *hcl.Pos, b []byte) {
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

// skipString is the index after the string opening at i (its escapes
// skipped), or the end of src.
func skipString(src []byte, i int) int {
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(src)
}

// skipComment is the index after the comment opening at i.
func skipComment(src []byte, i int) int {
	if src[i] == '/' && src[i+1] == '*' {
		if end := bytes.Index(src[i+2:], []byte("*/")); end >= 0 {
			return i + 2 + end + 2
		}
		return len(src)
	}
	if end := bytes.IndexByte(src[i:], '\n'); end >= 0 {
		return i + end
	}
	return len(src)
}

// skipHeredoc is the index after the heredoc opening at i (<<ID or <<-ID
// and a newline, up to a line that is ID alone), or i when none opens.
func skipHeredoc(src []byte, i int) int {
	j := i + 2
	if j < len(src) && src[j] == '-' {
		j++
	}
	start := j
	for j < len(src) && (src[j] == '_' || src[j] >= 'a' && src[j] <= 'z' || src[j] >= 'A' && src[j] <= 'Z' || src[j] >= '0' && src[j] <= '9') {
		j++
	}
	if j == start || j >= len(src) || src[j] != '\n' && src[j] != '\r' {
		return i
	}
	id := src[start:j]
	for line := j; line < len(src); {
		next := bytes.IndexByte(src[line+1:], '\n')
		end := len(src)
		if next >= 0 {
			end = line + 1 + next
		}
		if bytes.Equal(bytes.TrimSpace(src[line+1:end]), id) {
			return end
		}
		if next < 0 {
			break
		}
		line = end
	}
	return len(src)
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
	advance := func(b []byte) { advancePos(&pos, b) }
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
			end := min(skipString(src, i), len(src))
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
