// Package mapping owns a plan file mapped into memory: mapping it
// read-only, giving its pages back as a read passes them, undoing it, and
// a fault in its memory (the file cut short meanwhile) made an error
// rather than a crash.
package mapping
