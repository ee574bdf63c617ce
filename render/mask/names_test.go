package mask

import (
	"slices"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/planpr/planpr/render/tofujson"
)

// TestCredentialNameReadsNamesAsPeopleWriteThem: names of credentials in
// every case and separator style are found; names about a key's identity
// or a secret's location are not.
func TestCredentialNameReadsNamesAsPeopleWriteThem(t *testing.T) {
	for _, n := range []string{"password", "DB_PASSWORD", "dbPassword", "API_KEY", "apiKey", "x-auth-token", "client_secret", "GITHUB_TOKEN",
		"private_key", "access_key", "AWS_SECRET_ACCESS_KEY", "connection_string", "Authorization", "SENTRY_DSN", "passphrase"} {
		if !CredentialName(n) {
			t.Errorf("%q is not read as a credential's name", n)
		}
	}
	for _, n := range []string{"", "name", "bucket", "key_name", "kms_key_id", "public_key", "region", "author", "secret_name", "secretKeyRef",
		"password_policy", "token_url", "auth_type", "keys", "monkey", "key",
		"token_type", "authorization_scopes", "api_key_id", "secret_arn", "client_secret_expires_at", "password_length"} {
		if CredentialName(n) {
			t.Errorf("%q is read as a credential's name", n)
		}
	}
}

// TestNameKeyedFindsSecretsByTheirNames: the values named as credentials
// in each shape are found, and nothing else is.
func TestNameKeyedFindsSecretsByTheirNames(t *testing.T) {
	v, err := tofujson.DecodeValue([]byte(`{
		"container_definitions": "[{\"name\":\"web\",\"environment\":[{\"name\":\"DB_PASSWORD\",\"value\":\"in-json-string\"},{\"name\":\"LOG\",\"value\":\"info\"}]}]",
		"env": [{"Name": "api_key", "Value": "pair-value"}, {"name": "REGION", "value": "eu"}],
		"labels": {"x-auth-token": "label-value", "team": "core"},
		"password_length": 16,
		"environment": [{"variables": {"GITHUB_TOKEN": "map-value", "STAGE": "prod"}}]
	}`))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	nameKeyed(v, 0, func(s string) { got = append(got, s) })
	slices.Sort(got)
	if want := []string{"in-json-string", "label-value", "map-value", "pair-value"}; !slices.Equal(got, want) {
		t.Errorf("found %q, want %q", got, want)
	}
}

// TestNamedValuesThatAreNoSecretsStayVisible: an enumeration's constant
// or a short word beside a credential-like name is not masked (it would
// be hidden wherever it appears); a credential is.
func TestNamedValuesThatAreNoSecretsStayVisible(t *testing.T) {
	m := NewMasker()
	m.AddNameKeyed(tofujson.Object{{Name: "authorization", Value: "NONE"}, {Name: "auth", Value: "AWS_IAM"}, {Name: "password", Value: "short"},
		{Name: "client_secret", Value: "Zk3-f9Qx_2mLp"}})
	got := m.Mask(`authorization = "NONE", auth = "AWS_IAM", password = "short", client_secret = "Zk3-f9Qx_2mLp"`)
	if want := `authorization = "NONE", auth = "AWS_IAM", password = "short", client_secret = (sensitive value)`; got != want {
		t.Errorf("masked %q\nwant   %q", got, want)
	}
}

// FuzzNameKeyed: any JSON value is walked without a panic, however deep
// its strings nest JSON.
func FuzzNameKeyed(f *testing.F) {
	f.Add(`{"env":[{"name":"TOKEN","value":"x"}]}`)
	f.Add(`"[{\"name\":\"PASSWORD\",\"value\":\"[{\\\"name\\\":\\\"KEY\\\"}]\"}]"`)
	f.Add(`[[[[[[{"secret":{"a":["b"]}}]]]]]]`)
	f.Fuzz(func(t *testing.T, doc string) {
		m := NewMasker()
		_ = m.AddNameKeyedRaw([]byte(doc), nil)
	})
}

// FuzzNameKeyedScanIsTheWalk: scanning a raw value records what walking
// it decoded records, for any JSON value.
func FuzzNameKeyedScanIsTheWalk(f *testing.F) {
	f.Add(`{"env":[{"name":"TOKEN","value":"x"},{"value":"y","Name":"api_key"}],"db_password":{"a":["b",1]}}`)
	f.Add(`{"container_definitions":"[{\"name\":\"x\",\"environment\":[{\"name\":\"PASSWORD\",\"value\":\"in\"}]}]"}`)
	f.Add(`[{"labels":{"auth-token":"t"}},"plain",{"name":"secret","value":{"nested":"obj"}}]`)
	f.Fuzz(func(t *testing.T, doc string) {
		v, err := tofujson.DecodeValue([]byte(doc))
		if err != nil || !jsontext.Value(doc).IsValid() {
			return // the plan's reader has checked every raw value; a decoded object keeps one of a name
		}
		var walked, scanned []string
		nameKeyed(v, 0, func(s string) { walked = append(walked, s) })
		if err := scanNameKeyed([]byte(doc), 0, func(s string) { scanned = append(scanned, s) }); err != nil {
			t.Fatalf("scan: %v", err)
		}
		slices.Sort(walked)
		slices.Sort(scanned)
		if !slices.Equal(walked, scanned) {
			t.Errorf("walked %q, scanned %q", walked, scanned)
		}
	})
}

// TestNameKeyedSkipsOnlyWhatTheMirrorMarks: a value is passed over only
// when every credential-named member is marked sensitive as often as it
// appears; an unmarked one, a {name, value} pair or JSON in a string is
// scanned.
func TestNameKeyedSkipsOnlyWhatTheMirrorMarks(t *testing.T) {
	for _, tc := range []struct {
		raw, mirror string
		skip        bool
	}{
		{`{"password":"p","private_ip":"10.0.0.1"}`, `{"password":true}`, true},
		{`{"password":"p"}`, `{}`, false},
		{`{"password":"p","inner":{"password":"leak"}}`, `{"password":true}`, false},
		{`{"env":[{"name":"API_KEY","value":"v"}]}`, `{"env":[{}]}`, false},
		{`{"defs":"[{\"name\":\"TOKEN\",\"value\":\"v\"}]","password":"p"}`, `{"password":true}`, false},
		{`{"kms_key_id":"k","private_ip":"10.0.0.1"}`, `{}`, true},
		{`{"policy":"{\"Action\":\"s3:GetObject\"}","password":"p"}`, `{"password":true}`, true},
		{`{"policy":"{\"secret\":\"s\"}","password":"p"}`, `{"password":true}`, false},
		{`{"user_data":"` + strings.Repeat("echo set the password; ", 10) + `","password":"p"}`, `{"password":true}`, true},
		{`{"password":"p"}`, ``, false},
	} {
		if got := allMarked([]byte(tc.raw), []byte(tc.mirror)); got != tc.skip {
			t.Errorf("%s beside %s: skipped %v, want %v", tc.raw, tc.mirror, got, tc.skip)
		}
	}
}
