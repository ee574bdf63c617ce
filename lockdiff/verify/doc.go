// Package verify is the registry client of lock-file review: it checks the
// hashes a lock file adds or changes against what the provider's registry
// signed (the provider registry protocol OpenTofu's and Terraform's
// registries speak), contacting only the public registries and the hosts
// the operator names, within a request and time budget, and keeping what
// signatures proved in a private cache. What it finds is set on the
// lockdiff model: each provider's Verification and findings.
package verify
