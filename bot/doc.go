// Package bot owns everything GitHub: the few API calls planpr makes
// (a narrow interface, implemented on go-github), the convergent comment
// upsert, labels, the job summary, the Action runner and the App server.
// It renders through package render and never formats plan text itself.
package bot
