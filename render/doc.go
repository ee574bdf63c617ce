// Package render owns every byte planpr prints: the OpenTofu-identical
// text of a plan, and the formats built on it. Renderers walk the diff tree
// from package diff; they never look at raw plan JSON values.
package render
