// Command planpr reviews OpenTofu and Terraform changes on pull requests.
package main

import (
	"os"
	"runtime/debug"
)

func main() {
	tuneGC()
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// tuneGC trades a little memory for speed: planpr allocates many
// short-lived values per resource, so collecting less often saves time,
// while a soft limit keeps the heap of the largest plans bounded. Either
// is left alone when set in the environment.
func tuneGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(96 << 20)
	}
}
