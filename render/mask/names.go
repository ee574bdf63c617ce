package mask

import "strings"

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
	return n == "key" || strings.HasSuffix(n, "secretkey") || strings.HasSuffix(n, "apikey")
}
