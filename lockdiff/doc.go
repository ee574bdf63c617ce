// Package lockdiff reads OpenTofu dependency lock files
// (.terraform.lock.hcl) and root-module configuration with hcl/v2, compares
// two lock files provider by provider, and explains each change as findings
// a reviewer can act on. Every input problem is an hcl.Diagnostic with a
// source range. It formats nothing: package render prints the report.
package lockdiff
