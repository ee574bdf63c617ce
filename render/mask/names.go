package mask

import (
	"bytes"
	"slices"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/planpr/planpr/render/tofujson"
)

// credentialWords are what a name holding a credential says: an
// attribute, a map key, or an environment variable's name beside its
// value ("DB_PASSWORD", "api_key", "github-token").
var credentialWords = []string{"password", "passwd", "passphrase", "secret", "token", "apikey", "privatekey", "accesskey",
	"credential", "auth", "sessionkey", "signingkey", "encryptionkey", "masterkey", "clientkey", "connectionstring", "pwd", "dsn"}

// CredentialName reports whether a name reads as a credential's, whatever
// its case and separators: "API_KEY", "dbPassword", "x-auth-token",
// "client_secret". Names that only mention a key's identity
// ("key_name", "kms_key_id", "public_key") do not.
func CredentialName(name string) bool {
	n := strings.Map(func(r rune) rune {
		switch {
		case r >= 'A' && r <= 'Z':
			return r + 'a' - 'A'
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			return r
		}
		return -1
	}, name)
	if n == "" || n == "author" || n == "authors" {
		return false
	}
	// A name that ends in one of these describes a credential (its kind,
	// where it is, how long it lives) rather than holding it.
	for _, suffix := range []string{"type", "mode", "method", "policy", "length", "ttl", "expiry", "expiration", "expiresat",
		"enabled", "required", "version", "arn", "name", "id", "ids", "ref", "url", "uri", "endpoint", "path", "file",
		"location", "rotation", "count", "scope", "scopes", "header", "format", "algorithm", "provider", "source"} {
		if strings.HasSuffix(n, suffix) {
			return false
		}
	}
	for _, harmless := range []string{"tokenurl", "tokenendpoint", "authtype", "authmode", "authmethod", "authority", "secretname", "secretarn", "secretid", "passwordpolicy", "passwordlength", "secretversion", "secretref", "secretkeyref", "tokenttl", "authenticationtype"} {
		if strings.Contains(n, harmless) {
			return false
		}
	}
	for _, w := range credentialWords {
		if strings.Contains(n, w) {
			return true
		}
	}
	// "key" alone names a key's name as often as a key (a Kubernetes
	// secret_key_ref's "key" is the name of an entry): not a credential.
	return strings.HasSuffix(n, "secretkey") || strings.HasSuffix(n, "apikey")
}

// AddNameKeyed records the secrets a value holds by name rather than by
// the provider's sensitive mark — what shape-based masking misses:
//   - a member whose name reads as a credential's (CredentialName):
//     {"db_password": "…"}, a Lambda's environment variables, tags and
//     labels named "token";
//   - the value beside a name that reads as one: {"name": "API_KEY",
//     "value": "…"} — ECS container definitions, Cloud Run and Kubernetes
//     env entries — whatever the case of "name"/"key" and "value";
//   - the same inside a string that holds JSON (a container definition
//     written with jsonencode).
//
// Only strings are recorded: a number or a flag beside such a name is no
// secret (a password's length, a token's time to live).
func (m *Masker) AddNameKeyed(v any) { nameKeyed(v, 0, m.addNamed) }

// AddNameKeyedRaw is AddNameKeyed of a raw JSON value, scanned token by
// token (never decoded), beside its raw sensitivity mirror (nil when it
// has none). A value that holds no credential-like name, or whose every
// credential-named member the mirror marks sensitive (the usual case: a
// provider marks its passwords), holds nothing more to find and is not
// scanned.
func (m *Masker) AddNameKeyedRaw(raw, mirror []byte) error {
	if allMarked(raw, mirror) { // true too when no hint is there
		return nil
	}
	return scanNameKeyed(raw, 0, m.addNamed)
}

// allMarked reports whether every credential-like word in raw is the
// name of members that mirror marks sensitive as many times as raw holds
// them. Anything else — such a word as a value (a {name, value} pair), a
// string holding JSON (escaped quotes), a member the mirror does not
// mark — says no, and the value is scanned. (A string holding JSON is
// passed over only when no credential-like word is in it.)
func allMarked(raw, mirror []byte) bool {
	// Outside strings a JSON text holds no letter but those of true, false
	// and null: only strings are looked at, found quote to quote. Each
	// credential-like name is counted as it is met.
	var keys []namedKey
	for i := 0; i < len(raw); {
		q := bytes.IndexByte(raw[i:], '"')
		if q < 0 {
			break
		}
		start := i + q
		end, holdsJSON := tofujson.StringEnd(raw, start+1)
		if end >= len(raw) {
			return false // not the JSON the reader checked: scan it
		}
		body := raw[start+1 : end]
		i = end + 1
		switch {
		case len(body) > maxNameLen && !holdsJSON:
			continue // a long plain string is no name, and holds none
		case !hasCredentialHint(body):
			continue
		case holdsJSON:
			return false // a string holding JSON that may name a credential
		case !CredentialName(string(body)):
			continue
		case end+1 >= len(raw) || raw[end+1] != ':':
			return false // such a word as a value (a name/value pair)
		}
		if len(mirror) == 0 {
			return false
		}
		key := raw[start : end+2] // "password":
		at := slices.IndexFunc(keys, func(k namedKey) bool { return bytes.Equal(k.key, key) })
		if at < 0 {
			keys = append(keys, namedKey{key: key})
			at = len(keys) - 1
		}
		keys[at].n++
	}
	for _, k := range keys {
		if k.n > bytes.Count(mirror, append(bytes.Clone(k.key), "true"...)) {
			return false
		}
	}
	return true
}

// namedKey is a credential-like member name as raw JSON ("password":)
// and how many times a value holds it.
type namedKey struct {
	key []byte
	n   int
}

// maxNameLen bounds the strings allMarked reads for names: longer ones
// (scripts, certificates) are passed over unless they hold JSON.
const maxNameLen = 128

// minNamedSecret is the shortest value taken as a secret by its name
// alone: a name can mislead ("authorization": "NONE", an
// "authorization_scopes" list of "email"), and masking a short common
// word would hide it wherever it appears.
const minNamedSecret = 6

// addNamed records a value found by its name, unless it reads as an
// enumeration's constant (NONE, AWS_IAM, COGNITO_USER_POOLS) or is too
// short to be a credential worth the damage of masking it.
func (m *Masker) addNamed(s string) {
	if len(s) < minNamedSecret || enumConstant(s) {
		return
	}
	m.Add(s)
}

// enumConstant reports an upper-case word of letters, digits and
// underscores: what APIs use for modes and types, never a credential
// (generated secrets mix cases).
func enumConstant(s string) bool {
	letter := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 'A' && c <= 'Z':
			letter = true
		case c >= '0' && c <= '9', c == '_':
		default:
			return false
		}
	}
	return letter
}

// maxNameKeyedDepth bounds the walk (values nest JSON in strings).
const maxNameKeyedDepth = 64

// maxEmbeddedJSON bounds a string read as JSON.
const maxEmbeddedJSON = 1 << 20

func nameKeyed(v any, depth int, add func(string)) {
	if depth > maxNameKeyedDepth {
		return
	}
	switch x := v.(type) {
	case tofujson.Object:
		get := func(names ...string) (any, bool) {
			for _, n := range names {
				if v, ok := x.Get(n); ok {
					return v, true
				}
			}
			return nil, false
		}
		named(get, add)
		for _, mem := range x {
			if CredentialName(mem.Name) {
				stringsOf(mem.Value, add)
				continue
			}
			nameKeyed(mem.Value, depth+1, add)
		}
	case map[string]any:
		get := func(names ...string) (any, bool) {
			for _, n := range names {
				if v, ok := x[n]; ok {
					return v, true
				}
			}
			return nil, false
		}
		named(get, add)
		for k, val := range x {
			if CredentialName(k) {
				stringsOf(val, add)
				continue
			}
			nameKeyed(val, depth+1, add)
		}
	case []any:
		for _, e := range x {
			nameKeyed(e, depth+1, add)
		}
	case string:
		if t := strings.TrimSpace(x); len(t) <= maxEmbeddedJSON && (strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[")) && hasCredentialHint([]byte(t)) &&
			jsontext.Value(t).IsValid(jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true)) { // what the scan reads
			if inner, err := tofujson.DecodeValue([]byte(t)); err == nil {
				nameKeyed(inner, depth+1, add)
			}
		}
	}
}

// named records the value of a {name, value} pair whose name reads as a
// credential's.
func named(get func(names ...string) (any, bool), add func(string)) {
	name, ok := get("name", "Name", "NAME", "key", "Key", "KEY")
	s, isString := name.(string)
	if !ok || !isString || !CredentialName(s) {
		return
	}
	if val, ok := get("value", "Value", "VALUE"); ok {
		if s, ok := val.(string); ok { // an env entry's value is a string
			add(s)
		}
	}
}

// stringsOf records every string inside a value.
func stringsOf(v any, add func(string)) {
	tofujson.Strings(v, func(s string, kind tofujson.SecretKind) {
		if kind == tofujson.SecretString {
			add(s)
		}
	})
}

// credentialHints are the words CredentialName looks for, in any case:
// a value without any of them names no credential.
var credentialHints = []string{"pass", "secret", "token", "key", "auth", "cred", "pwd", "dsn", "private", "connection"}

// hintPairs marks the first two letters of each hint, lower-cased: one
// lookup a byte finds where a hint may begin.
var hintPairs = func() (t [1 << 16]bool) {
	for _, w := range credentialHints {
		t[uint16(w[0])<<8|uint16(w[1])] = true
	}
	return t
}()

// hintFirst marks the bytes a hint may begin with, in either case: most
// bytes are passed over with one lookup in a small table.
var hintFirst = func() (t [256]bool) {
	for _, w := range credentialHints {
		t[w[0]], t[w[0]-'a'+'A'] = true, true
	}
	return t
}()

// nextHint is where the first credential hint at or after from begins in
// b, and its length; -1 when there is none.
func nextHint(b []byte, from int) (int, int) {
	for i := from; i+1 < len(b); i++ {
		if !hintFirst[b[i]] || !hintPairs[uint16(b[i]|0x20)<<8|uint16(b[i+1]|0x20)] {
			continue
		}
		for _, w := range credentialHints {
			if len(b)-i >= len(w) && prefixFold(b[i:], w) {
				return i, len(w)
			}
		}
	}
	return -1, 0
}

// prefixFold reports whether b starts with the lower-case ASCII word w,
// in any case.
func prefixFold(b []byte, w string) bool {
	for j := 0; j < len(w); j++ {
		if b[j]|0x20 != w[j] {
			return false
		}
	}
	return true
}

func hasCredentialHint(b []byte) bool {
	i, _ := nextHint(b, 0)
	return i >= 0
}
