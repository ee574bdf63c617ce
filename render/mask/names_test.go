package mask

import "testing"

// TestCredentialNameReadsNamesAsPeopleWriteThem: names of credentials in
// every case and separator style are found; names about a key's identity
// or a secret's location are not.
func TestCredentialNameReadsNamesAsPeopleWriteThem(t *testing.T) {
	for _, n := range []string{"password", "DB_PASSWORD", "dbPassword", "API_KEY", "apiKey", "x-auth-token", "client_secret", "GITHUB_TOKEN",
		"private_key", "access_key", "AWS_SECRET_ACCESS_KEY", "connection_string", "key", "Authorization", "SENTRY_DSN", "passphrase"} {
		if !CredentialName(n) {
			t.Errorf("%q is not read as a credential's name", n)
		}
	}
	for _, n := range []string{"", "name", "bucket", "key_name", "kms_key_id", "public_key", "region", "author", "secret_name", "secretKeyRef",
		"password_policy", "token_url", "auth_type", "keys", "monkey"} {
		if CredentialName(n) {
			t.Errorf("%q is read as a credential's name", n)
		}
	}
}
