// Package jsonread owns the JSON mechanics under planpr's models: values
// decoded as generic Go values (Object keeps members in written order,
// numbers stay json.Number so they print as written), fast from memory
// and token by token with jsontext; where an object's members begin
// (MemberOffsets); the Decoder for text a checking pass has already read
// (no validation, strings taken in place, an update's after sharing what
// its before writes the same); the sensitive strings a mirror marks; the
// depth limit; memory reuse (slabs, boxes). It knows no plan, state or
// stream, and imports nothing from the project.
package jsonread
