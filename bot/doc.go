// Package bot owns planpr's runners on GitHub: the Action (its inputs, the
// pull request it belongs to, its job summary and outputs, a log no value
// can issue workflow commands in), the App's handlers (lock reviews on pull
// requests, plan comments from workflow runs' artifacts), the convergent
// upsert of planpr's own comments, labels and manifests. The GitHub calls
// it needs are narrow interfaces (github.go) implemented by bot/gh; the
// App's intake is bot/webhook; artifacts are unpacked by bot/artifact. It
// renders through package render and never formats plan text itself.
package bot
