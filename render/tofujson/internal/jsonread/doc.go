// Package jsonread owns the JSON mechanics under planpr's models, all of
// them over jsontext, which checks every byte it reads: values decoded as
// generic Go values (Object, sorted by name; numbers kept as json.Number
// so they print as written), from a decoder or from memory, strings that
// need no unescaping taken as substrings of the text; where an object's
// members begin (MemberOffsets) and the strings a sensitivity mirror
// marks, found by walking only the marked members; the depth limit;
// where each of several documents begins. It knows no plan, state or
// stream, and imports nothing from the project.
package jsonread
