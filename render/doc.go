// Package render owns the formats planpr posts and prints over a review:
// the pull-request comment (levels, budget, warnings first), the JSON
// summary, the lock-file report, the state inventory, UI-stream results,
// the HTML preview and the comment's marker. The facts come from
// render/review, the OpenTofu text from render/text; every untrusted value
// reaches Markdown masked (render/mask), then escaped (render/md), in
// safe.go.
package render
