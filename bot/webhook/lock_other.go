//go:build !unix

package webhook

import "os"

// lockFile opens path; without flock, it does not keep a second process
// out (run one planpr serve per data directory).
func lockFile(path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, err
	}
	return func() { f.Close() }, nil
}
