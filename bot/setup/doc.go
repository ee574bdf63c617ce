// Package setup is `planpr serve` before it has a GitHub App: the one-click
// setup through GitHub's App manifest flow (a state bound to the browser,
// the first completed setup kept, pages rate-limited per client) and the
// App's credentials kept in the data directory.
package setup
