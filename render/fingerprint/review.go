package fingerprint

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"strconv"
)

// Review is what a review of a plan is bound to: the pull request's
// repository and number, the comment's key, the head commit reviewed and
// the plan's keyed fingerprint.
type Review struct {
	Repo   string // OWNER/NAME
	PR     int
	Key    string
	Head   string // the head commit the plan was made at
	Keyed  string // the plan's fingerprint keyed with the secret (Options.Key)
	Secret []byte
}

// MAC authenticates a review: an HMAC-SHA-256 with the secret of every
// part of it, so that a record copied from another pull request, key or
// commit, edited, or made without the secret does not verify.
func (r Review) MAC() string {
	m := hmac.New(sha256.New, r.Secret)
	for _, part := range []string{"planpr review v1", r.Repo, strconv.Itoa(r.PR), r.Key, r.Head, r.Keyed} {
		m.Write([]byte(part))
		m.Write([]byte{0})
	}
	return hex.EncodeToString(m.Sum(nil))
}

// Verify reports whether mac authenticates r, in constant time.
func (r Review) Verify(mac string) bool {
	got, err := hex.DecodeString(mac)
	if err != nil || len(r.Secret) == 0 {
		return false
	}
	want, _ := hex.DecodeString(r.MAC())
	return hmac.Equal(got, want)
}
