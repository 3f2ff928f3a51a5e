package result

import (
	"errors"

	"rfhandoff/strictjson"
)

type value = *strictjson.Node

type members = *strictjson.Members[value]

// walk reads data as one JSON object, keeping alignment and its reasons.
func walk(data []byte, p *problems) (members, bool) {
	n, err := strictjson.Parse(data, strictjson.Shape{Keep: 3})
	var je *strictjson.Error
	switch {
	case err == nil:
		return n.Members, true
	case errors.Is(err, strictjson.ErrEmpty):
		p.add("", ruleSyntax, "is empty; expected one JSON object")
	case errors.As(err, &je) && je.Kind == strictjson.NotObject:
		p.add("", ruleSyntax, "must be one JSON object, got %s at the top level", je.Got.Describe())
	case errors.As(err, &je) && je.Kind == strictjson.TrailingData:
		p.add("", ruleSyntax, "has data after the JSON object, which ends at byte %d; only whitespace may follow", je.End)
	default: // kind Syntax
		p.add("", ruleSyntax, "is not valid JSON: %s", err)
	}
	return nil, false
}
