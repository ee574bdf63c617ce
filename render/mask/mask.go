// Package mask owns secrets: what the plan marks sensitive, found anywhere
// in every form it takes in the output, and credential-shaped strings.
// Masking works on values (a diff's text, an address, a message) before
// they are escaped and laid out. It imports only the models.
package mask

import (
	"bytes"
	"encoding/json"
	"math/bits"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/planpr/planpr/internal/lazyre"
	"github.com/planpr/planpr/render/tofujson"
)

// Masked is what a hidden value reads, as in OpenTofu.
const Masked = "(sensitive value)"

// Masker hides secrets in the values planpr shows, in layers:
//
//  1. values the plan marks sensitive are already "(sensitive value)" in
//     the diff;
//  2. a string the plan marks sensitive anywhere is hidden everywhere (a
//     sensitive variable's value can show through an unmarked attribute),
//     in every form it takes in the output: as is, quoted and escaped as
//     the text and JSON write it, line by line where it spans lines, a
//     marked map's keys where they are quoted, marked numbers as whole
//     numbers;
//  3. values of root variables declared sensitive, which the plan's
//     "variables" section holds in clear;
//  4. credential-shaped strings, marked or not.
//
// It masks values — a resource's text, an address, a message — before
// they are escaped, fenced or laid out, so no secret can change planpr's
// own markup. It counts what it hides.
type Masker struct {
	// long holds the patterns of indexLen bytes or more, and lengths
	// and longer their lengths by their first indexLen bytes: secrets
	// may share their first bytes by the thousand (PEM keys all begin
	// "-----BEGIN"), and a text is matched against a few lengths, not
	// against each of them. lengths has bit l set for a pattern of l
	// bytes, under 64 (most secrets: adding one is one map operation),
	// and bit 0 when longer lists lengths of 64 bytes or more, longest
	// first once sorted. short holds the shorter patterns by length.
	long    map[string]struct{}
	lengths map[uint64]uint64 // by prefix8
	longer  map[uint64][]int
	short   [indexLen]map[string]struct{}
	numbers map[string]struct{}
	keys    map[string]struct{} // a marked map's keys, for attribute paths
	// prefixes marks the first two bytes of every pattern, so most
	// positions of a text are passed over without a lookup.
	prefixes [1 << 16 / 64]uint64
	unsorted bool
	patterns int
	Count    int
}

// indexLen is how many leading bytes index the long patterns: a position
// costs one lookup for every long pattern, whatever their number and
// lengths, plus one per short length.
const indexLen = 8

// NewMasker returns a masker with no known secrets.
func NewMasker() *Masker {
	m := &Masker{long: map[string]struct{}{}, lengths: map[uint64]uint64{}, longer: map[uint64][]int{}, numbers: map[string]struct{}{}, keys: map[string]struct{}{}}
	for i := range m.short {
		m.short[i] = map[string]struct{}{}
	}
	return m
}

// MinRawSecret is the shortest secret hidden wherever it appears; shorter
// ones ("x", "on") are hidden only as whole quoted values, or the masking
// would eat ordinary words.
const MinRawSecret = 5

// minSecretNumber is the fewest characters of a number hidden as a secret:
// hiding every "1" would hide the counts.
const minSecretNumber = 3

// Add records a secret string.
func (m *Masker) Add(s string) { m.AddSecret(s, tofujson.SecretString) }

// AddSecret records one secret piece of a value: a string, a number, or a
// marked map's key.
func (m *Masker) AddSecret(s string, kind tofujson.SecretKind) {
	if s == "" {
		return
	}
	switch kind {
	case tofujson.SecretNumber:
		if len(s) >= minSecretNumber {
			m.numbers[s] = struct{}{}
			m.mark(s)
		}
		return
	case tofujson.SecretKey:
		m.add(strconv.Quote(s)) // keys show quoted: tags["key"], "key" = …
		m.keys[s] = struct{}{}  // and as steps of attribute paths
		return
	}
	escapes := needsEscape(s)
	quoted := `"` + s + `"` // as strconv.Quote writes a string with nothing to escape
	if escapes {
		quoted = strconv.Quote(s)
	}
	m.add(quoted)
	if len(s) < MinRawSecret {
		return
	}
	m.add(s)
	// Inside a longer string the text and the JSON escape what they quote.
	if escapes {
		if inner := quoted[1 : len(quoted)-1]; inner != s {
			m.add(inner)
		}
		for _, escapeHTML := range []bool{false, true} {
			if inner := jsonInner(s, escapeHTML); inner != s {
				m.add(inner)
			}
		}
	}
	// A heredoc shows each line on its own.
	if strings.ContainsAny(s, "\n") {
		for line := range strings.SplitSeq(s, "\n") {
			if line = strings.TrimSpace(line); len(line) >= MinRawSecret {
				m.add(line)
			}
		}
	}
}

// needsEscape reports a byte that Go's or JSON's quoting escapes.
func needsEscape(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return true
		}
	}
	return false
}

func jsonInner(s string, escapeHTML bool) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(escapeHTML)
	enc.Encode(s)
	out := strings.TrimSuffix(b.String(), "\n")
	return out[1 : len(out)-1]
}

func prefix2(s string) uint16 { return uint16(s[0])<<8 | uint16(s[1]) }

func (m *Masker) mark(p string) {
	k := prefix2(p)
	m.prefixes[k/64] |= 1 << (k % 64)
}

func (m *Masker) add(p string) {
	if len(p) < 2 {
		return
	}
	// A set that did not grow had the pattern already: one lookup, not two.
	if len(p) < indexLen {
		if short := m.short[len(p)]; len(short) < addTo(short, p) {
			m.patterns++
		}
	} else {
		if n := len(m.long); addTo(m.long, p) == n {
			return
		}
		if k := prefix8(p); len(p) < 64 {
			m.lengths[k] |= 1 << len(p)
		} else {
			m.lengths[k] |= hasLonger
			m.longer[k] = append(m.longer[k], len(p))
			m.unsorted = true
		}
		m.patterns++
	}
	m.mark(p)
}

// addTo adds p to set and returns the set's size.
func addTo(set map[string]struct{}, p string) int {
	set[p] = struct{}{}
	return len(set)
}

// Secrets is how many patterns the masker hides (each secret's forms).
func (m *Masker) Secrets() int { return m.patterns + len(m.numbers) }

// AddValue records every secret inside a JSON value.
func (m *Masker) AddValue(v any) { tofujson.Strings(v, m.AddSecret) }

// AddMarked records the secrets of value that the sensitivity mirror marks
// sensitive (true at a node marks everything below it).
func (m *Masker) AddMarked(value, sensitive any) {
	tofujson.CollectMarked(value, sensitive, m.AddSecret)
}

// credential is a credential shape: group is the submatch to hide (0 for
// all of it), keep a further check of what matched.
type credential struct {
	hints []string
	pre   func(string) bool     // a quicker test than hints, when there are none
	re    func() *regexp.Regexp // compiled when first needed
	group int
	keep  func(string) bool
}

// credentialPatterns find credential-shaped strings; each runs only on
// text containing one of its hints, since regular expressions are slow.
// Every pattern is bounded: an unterminated private key hides the rest of
// its line and the base64 lines that follow, not the rest of the text.
var credentialPatterns = []credential{
	{hints: []string{"PRIVATE KEY"}, re: lazyre.New(`-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----(?:[\s\S]*?-----END [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----|[^\n]*(?:\n[ \t+~!-]*(?:[A-Za-z0-9+/=]+|[A-Za-z][A-Za-z-]*: [^\n]*)[ \t]*){0,100})`)},
	{hints: []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_"}, re: lazyre.New(`gh[pousr]_[A-Za-z0-9]{30,255}`)},
	{hints: []string{"github_pat_"}, re: lazyre.New(`github_pat_[A-Za-z0-9_]{22,255}`)},
	{hints: []string{"xox"}, re: lazyre.New(`xox[abposr]-[A-Za-z0-9-]{10,255}`)},
	{hints: []string{"AKIA", "ASIA", "AGPA", "AIDA", "AROA", "ANPA", "ANVA", "AIPA"}, re: lazyre.New(`(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[A-Z0-9]{16}`)},
	{hints: []string{"eyJ"}, re: lazyre.New(`eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`)},
	// Passwords in URLs: scheme://user:PASSWORD@host, the user possibly
	// empty (redis://:PASSWORD@host) and the password possibly holding a
	// slash, as people write them unencoded; host:PORT/path@… is a port.
	{hints: []string{"://"}, re: lazyre.New(`[A-Za-z][A-Za-z0-9+.-]{0,20}://[^\s/:@"'<>]{0,200}:([^\s@"'<>]{1,200})@`), group: 1, keep: notAPort},
	// AWS secret access keys: 40 characters of base64 next to their name,
	// or alone with the mixed case, digits and / or + of a random key.
	{hints: []string{"ecret", "ECRET"}, re: lazyre.New(`(?i)secret_?access_?key[^A-Za-z0-9/+=\n]{1,10}([A-Za-z0-9/+]{40})(?:[^A-Za-z0-9/+=]|$)`), group: 1},
	{re: lazyre.New(`(?:^|[^A-Za-z0-9/+=])([A-Za-z0-9/+]{40})(?:[^A-Za-z0-9/+=]|$)`), group: 1, keep: randomKeyShaped, pre: hasBase64Run},
}

// notAPort tells a URL's password from a host's port and path
// (https://host:8080/path@v1): digits up to a slash are a port.
func notAPort(password string) bool {
	digits := len(password) - len(strings.TrimLeft(password, "0123456789"))
	return digits == 0 || digits == len(password) && digits > 5 || digits < len(password) && password[digits] != '/'
}

// hasBase64Run reports a run of 40 base64 characters, without which no
// bare secret access key can be there.
func hasBase64Run(s string) bool {
	run := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '/' || c == '+' {
			if run++; run >= 40 {
				return true
			}
		} else {
			run = 0
		}
	}
	return false
}

// randomKeyShaped tells a random base64 key from a word or a hex digest:
// upper and lower case, digits, and a / or +.
func randomKeyShaped(s string) bool {
	return strings.ContainsAny(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") && strings.ContainsAny(s, "abcdefghijklmnopqrstuvwxyz") &&
		strings.ContainsAny(s, "0123456789") && strings.ContainsAny(s, "/+")
}

// Mask hides every known secret and credential-shaped string in one value
// (a text, an address, a message). It scans the value once: time grows
// with its length, not with the number of secrets (a position that begins
// like some costs a lookup per length of those).
func (m *Masker) Mask(text string) string {
	out, n := m.mask(text)
	m.Count += n
	return out
}

// Quiet masks without counting: for values laid out several times while
// a comment is fitted to its budget. A nil masker hides credential shapes
// only.
func (m *Masker) Quiet(text string) string {
	out, _ := m.mask(text)
	return out
}

func (m *Masker) mask(text string) (string, int) {
	n := 0
	if m != nil && m.patterns+len(m.numbers) > 0 {
		text, n = m.replaceSecrets(text)
	}
	for _, p := range credentialPatterns {
		if p.hints != nil && !containsAny(text, p.hints) || p.pre != nil && !p.pre(text) {
			continue
		}
		var k int
		text, k = replaceCredential(text, p)
		n += k
	}
	return text, n
}

func containsAny(s string, subs []string) bool {
	for _, h := range subs {
		if strings.Contains(s, h) {
			return true
		}
	}
	return false
}

func replaceCredential(text string, p credential) (string, int) {
	matches := p.re().FindAllStringSubmatchIndex(text, -1)
	if matches == nil {
		return text, 0
	}
	var b strings.Builder
	last, n := 0, 0
	for _, loc := range matches {
		start, end := loc[2*p.group], loc[2*p.group+1]
		if start < 0 || start < last || (p.keep != nil && !p.keep(text[start:end])) {
			continue
		}
		b.WriteString(text[last:start])
		b.WriteString(Masked)
		last = end
		n++
	}
	if n == 0 {
		return text, 0
	}
	b.WriteString(text[last:])
	return b.String(), n
}

func (m *Masker) sortLong() {
	if !m.unsorted {
		return
	}
	for k, ls := range m.longer {
		slices.SortFunc(ls, func(a, b int) int { return b - a })
		m.longer[k] = slices.Compact(ls)
	}
	m.unsorted = false
}

// match is the length of the longest secret at the start of s, or 0.
func (m *Masker) match(s string, prev byte) int {
	if len(s) >= indexLen {
		if l := m.matchLong(s); l > 0 {
			return l
		}
	}
	for l := min(len(s), indexLen-1); l >= 2; l-- {
		if _, ok := m.short[l][s[:l]]; ok {
			return l
		}
	}
	if len(m.numbers) > 0 && isNumberStart(s[0]) && !isNumberByte(prev) && !isWordByte(prev) {
		end := 1
		for end < len(s) && isNumberByte(s[end]) {
			end++
		}
		if end == len(s) || !isWordByte(s[end]) {
			if _, ok := m.numbers[s[:end]]; ok {
				return end
			}
		}
	}
	return 0
}

// prefix8 is the first indexLen (8) bytes of s as a number, Masker's
// lengths' key: a map keyed by numbers neither hashes nor compares
// strings.
func prefix8(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// hasLonger is the bit of Masker.lengths saying that Masker.longer has
// lengths too: no pattern is empty.
const hasLonger = 1

// matchLong is the length of the longest pattern of indexLen bytes or
// more at the start of s, or 0.
func (m *Masker) matchLong(s string) int {
	k := prefix8(s)
	lengths := m.lengths[k]
	if lengths&hasLonger != 0 {
		for _, l := range m.longer[k] {
			if l <= len(s) {
				if _, ok := m.long[s[:l]]; ok {
					return l
				}
			}
		}
	}
	if len(s) < 63 {
		lengths &= 1<<(len(s)+1) - 1 // no longer than s
	}
	lengths &^= hasLonger
	for lengths != 0 { // longest first
		l := 63 - bits.LeadingZeros64(lengths)
		if _, ok := m.long[s[:l]]; ok {
			return l
		}
		lengths &^= 1 << l
	}
	return 0
}

func isNumberStart(c byte) bool { return c == '-' || c >= '0' && c <= '9' }
func isNumberByte(c byte) bool {
	return c >= '0' && c <= '9' || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-'
}
func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

func (m *Masker) replaceSecrets(text string) (string, int) {
	m.sortLong()
	var b strings.Builder
	last, n := 0, 0
	var prev byte
	for i := 0; i+1 < len(text); {
		if text[i] == '(' && strings.HasPrefix(text[i:], Masked) {
			i += len(Masked) // already masked: masking twice changes nothing
			prev = ')'
			continue
		}
		if k := prefix2(text[i:]); m.prefixes[k/64]&(1<<(k%64)) == 0 {
			prev = text[i]
			i++
			continue
		}
		l := m.match(text[i:], prev)
		if l == 0 {
			prev = text[i]
			i++
			continue
		}
		b.WriteString(text[last:i])
		b.WriteString(Masked)
		i += l
		last = i
		prev = text[i-1]
		n++
	}
	if n == 0 {
		return text, 0
	}
	b.WriteString(text[last:])
	return b.String(), n
}

// IsKey reports whether s is a key of a map marked sensitive: attribute
// paths (replace_paths) name such keys as steps.
func (m *Masker) IsKey(s string) bool {
	if m == nil {
		return false
	}
	_, ok := m.keys[s]
	return ok
}

// MaskCredentials hides credential-shaped strings in a message planpr
// prints or logs (an error quoting an address or a file), where the plan's
// own secrets may not be known.
func MaskCredentials(s string) string {
	out, _ := (*Masker)(nil).mask(s)
	return out
}
