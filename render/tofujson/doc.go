// Package tofujson models the JSON documents OpenTofu writes: the plan from
// `tofu show -json PLANFILE` and the provider schemas from
// `tofu providers schema -json`. It decodes them, gates on their format
// versions and reports syntax problems with a file:line:column position. It
// knows nothing about diffs or output; of the project it imports only
// jsonread, the JSON mechanics beneath it.
//
// Values inside a plan (before, after, after_unknown, …) are decoded as
// generic JSON with numbers kept as json.Number, so they print exactly as
// written. A pass over a large plan may keep them raw (ReadOptions.Lazy) or
// skip them (ReadOptions.SkipValues); a ChangeReader then decodes a change
// again from its Span, on any goroutine. Every read goes through jsontext,
// which checks every byte.
package tofujson
