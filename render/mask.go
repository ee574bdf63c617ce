package render

import (
	"hash/maphash"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/planpr/planpr/render/tofujson"
)

// Masked is what a hidden value reads, as in OpenTofu.
const Masked = "(sensitive value)"

// Masker hides secrets in text that leaves planpr, in layers:
//
//  1. values the plan marks sensitive are already "(sensitive value)" in
//     the diff;
//  2. a string the plan marks sensitive anywhere is hidden everywhere (a
//     sensitive variable's value can show through an unmarked attribute);
//  3. values of root variables declared sensitive, which the plan's
//     "variables" section holds in clear;
//  4. credential-shaped strings, marked or not.
//
// It counts what it hides.
type Masker struct {
	// patterns holds what to hide: each secret quoted as a value, and
	// long secrets raw; lengths lists their distinct lengths, longest
	// first, so a scan can try the longest match at each position.
	patterns map[uint64]struct{} // hashes: a collision only masks more
	seed     maphash.Seed
	lengths  []int
	lenSeen  map[int]bool
	// prefixes marks the first two bytes of every pattern, so most
	// positions of a text are passed over without hashing.
	prefixes [1 << 16 / 64]uint64
	dirty    bool
	Count    int
}

// NewMasker returns a masker with no known secrets.
func NewMasker() *Masker {
	return &Masker{patterns: map[uint64]struct{}{}, seed: maphash.MakeSeed(), lenSeen: map[int]bool{}}
}

// minRawSecret is the shortest secret hidden wherever it appears; shorter
// ones ("x", "on") are hidden only as whole quoted values, or the masking
// would eat ordinary words.
const minRawSecret = 5

// Add records a secret string.
func (m *Masker) Add(s string) {
	if s == "" {
		return
	}
	m.add(strconv.Quote(s))
	if len(s) >= minRawSecret {
		m.add(s)
	}
}

func prefix2(s string) uint16 { return uint16(s[0])<<8 | uint16(s[1]) }

func (m *Masker) add(p string) {
	m.patterns[maphash.String(m.seed, p)] = struct{}{}
	k := prefix2(p) // every pattern has at least 3 bytes
	m.prefixes[k/64] |= 1 << (k % 64)
	if !m.lenSeen[len(p)] {
		m.lenSeen[len(p)] = true
		m.lengths = append(m.lengths, len(p))
		m.dirty = true
	}
}

func (m *Masker) sortedLengths() []int {
	if m.dirty {
		sort.Sort(sort.Reverse(sort.IntSlice(m.lengths)))
		m.dirty = false
	}
	return m.lengths
}

// Secrets is how many strings the masker hides (quoted and raw forms).
func (m *Masker) Secrets() int { return len(m.patterns) }

// AddValue records every string inside a JSON value.
func (m *Masker) AddValue(v any) { tofujson.Strings(v, m.Add) }

// AddMarked records the strings of value that the sensitivity mirror marks
// sensitive (true at a node marks everything below it).
func (m *Masker) AddMarked(value, sensitive any) { tofujson.CollectMarked(value, sensitive, m.Add) }

// credentialPatterns find credential-shaped strings; each runs only on
// text containing one of its hints, since regular expressions are slow.
var credentialPatterns = []struct {
	hints []string
	re    *regexp.Regexp
}{
	{[]string{"PRIVATE KEY"}, regexp.MustCompile(`-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|$)`)},
	{[]string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_"}, regexp.MustCompile(`\bgh[pousr]_[A-Za-z0-9]{30,255}\b`)},
	{[]string{"github_pat_"}, regexp.MustCompile(`\bgithub_pat_[A-Za-z0-9_]{22,255}\b`)},
	{[]string{"xox"}, regexp.MustCompile(`\bxox[abposr]-[A-Za-z0-9-]{10,}`)},
	{[]string{"AKIA", "ASIA", "AGPA", "AIDA", "AROA", "ANPA", "ANVA", "AIPA"}, regexp.MustCompile(`\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[A-Z0-9]{16}\b`)},
	{[]string{"eyJ"}, regexp.MustCompile(`\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`)},
}

// Mask hides every known secret and credential-shaped string in text. It
// scans text once, trying at each position the secrets' lengths, longest
// first: time grows with the text and the number of distinct lengths, not
// with the number of secrets.
func (m *Masker) Mask(text string) string {
	before := strings.Count(text, Masked)
	if len(m.patterns) > 0 {
		text = m.replaceSecrets(text)
	}
	for _, p := range credentialPatterns {
		for _, h := range p.hints {
			if strings.Contains(text, h) {
				text = p.re.ReplaceAllString(text, Masked)
				break
			}
		}
	}
	m.Count += strings.Count(text, Masked) - before
	return text
}

func (m *Masker) replaceSecrets(text string) string {
	lengths := m.sortedLengths()
	var b strings.Builder
	last := 0
	for i := 0; i < len(text); {
		if i+1 >= len(text) {
			break
		}
		if k := prefix2(text[i:]); m.prefixes[k/64]&(1<<(k%64)) == 0 {
			i++
			continue
		}
		matched := 0
		for _, l := range lengths {
			if i+l > len(text) {
				continue
			}
			if _, ok := m.patterns[maphash.String(m.seed, text[i:i+l])]; ok {
				matched = l
				break
			}
		}
		if matched == 0 {
			i++
			continue
		}
		b.WriteString(text[last:i])
		b.WriteString(Masked)
		i += matched
		last = i
	}
	if last == 0 {
		return text
	}
	b.WriteString(text[last:])
	return b.String()
}
