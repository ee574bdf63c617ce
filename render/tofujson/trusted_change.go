package tofujson

import (
	"encoding/json"
	"strings"

	"github.com/planpr/planpr/render/tofujson/internal/jsonread"
)

// changeDecoder decodes a resource change with jsonread's decoder, from
// text a first pass has checked (see ChangeReader).
type changeDecoder struct{ *jsonread.Decoder }

// resourceChange decodes a resource change as reader.resourceChange does,
// values and all.
func (t changeDecoder) resourceChange(rc *ResourceChange) error {
	return t.Members(func(key string) (err error) {
		switch field := resourceChangeStrings[key]; {
		case field != nil:
			*field(rc), err = t.StringOrNull()
		case key == "index":
			var raw string
			raw, err = t.Raw()
			rc.Index = json.RawMessage(raw)
		case key == "change":
			err = t.change(&rc.Change)
		default:
			err = t.Skip()
		}
		return err
	})
}

func (t changeDecoder) change(c *Change) error {
	if t.Peek() == 'n' {
		return t.Literal("null")
	}
	return t.Members(func(key string) (err error) {
		switch key { // the five values of changeValues, then the rest
		case "before":
			c.Before, err = t.Before()
		case "after":
			c.After, err = t.After(c.Before)
		case "after_unknown":
			c.AfterUnknown, err = t.Value()
		case "before_sensitive":
			c.BeforeSensitive, err = t.Value()
		case "after_sensitive":
			c.AfterSensitive, err = t.Value()
		case "actions":
			c.Actions, err = t.strings()
		case "replace_paths":
			var v any
			if v, err = t.Value(); err == nil && v != nil {
				list, ok := v.([]any)
				if !ok {
					return jsonread.ErrUnchecked
				}
				for _, p := range list {
					path, ok := p.([]any)
					if !ok {
						return jsonread.ErrUnchecked
					}
					c.ReplacePaths = append(c.ReplacePaths, path)
				}
			}
		case "importing":
			err = t.importing(&c.Importing)
		case "generated_config":
			c.GeneratedConfig, err = t.StringOrNull()
		default:
			err = t.Skip()
		}
		return err
	})
}

func (t changeDecoder) strings() ([]string, error) {
	if t.Peek() == 'n' {
		return nil, t.Literal("null")
	}
	if !t.Consume('[') {
		return nil, jsonread.ErrUnchecked
	}
	var out []string
	if t.Consume(']') {
		return out, nil
	}
	for {
		s, err := t.StringOrNull()
		if err != nil {
			return nil, err
		}
		out = append(out, s)
		if t.Consume(',') {
			continue
		}
		if t.Consume(']') {
			return out, nil
		}
		return nil, jsonread.ErrUnchecked
	}
}

// importing decodes "importing" as encoding/json fills *Importing.
func (t changeDecoder) importing(dst **Importing) error {
	if t.Peek() == 'n' {
		return t.Literal("null")
	}
	imp := &Importing{}
	err := t.Members(func(key string) (err error) {
		// encoding/json, which reads this in the first pass, matches
		// names regardless of case.
		switch {
		case strings.EqualFold(key, "id"):
			imp.ID, err = t.StringOrNull()
		case strings.EqualFold(key, "identity"):
			var raw string
			raw, err = t.Raw()
			imp.Identity = json.RawMessage(raw)
		default:
			err = t.Skip()
		}
		return err
	})
	*dst = imp
	return err
}
