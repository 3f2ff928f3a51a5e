package txwatch

import (
	"errors"
	"fmt"

	"rfhandoff/strictjson"
)

// The record parser walks JSON tokens (package strictjson), because
// encoding/json would fold key case, keep the last of duplicate keys,
// ignore null and read 1.0 into an int.
type jvalue = *strictjson.Node

type jobject = strictjson.Members[jvalue]

// maxJSONDepth bounds nesting: a record is an object holding one object.
const maxJSONDepth = 4

// parseJSONObject reads data as exactly one JSON object.
func parseJSONObject(data []byte) (*jobject, error) {
	n, err := strictjson.Parse(data, strictjson.Shape{MaxDepth: maxJSONDepth})
	var je *strictjson.Error
	if errors.As(err, &je) && je.Kind == strictjson.TrailingData {
		return nil, fmt.Errorf("has data after the JSON object, which ends at byte %d", je.End)
	}
	if err != nil {
		return nil, recordSyntaxErr(err)
	}
	return n.Members, nil
}

func recordSyntaxErr(err error) error {
	var je *strictjson.Error
	switch {
	case errors.Is(err, strictjson.ErrEmpty):
		return errors.New("is empty; expected one JSON object")
	case !errors.As(err, &je): // not strictjson's own: worded below
	case je.Kind == strictjson.NotObject:
		return errors.New("must be one JSON object")
	case je.Kind == strictjson.Depth:
		return err
	case je.Truncated():
		return fmt.Errorf("is not valid JSON: unexpected end at byte %d", je.Offset)
	}
	return fmt.Errorf("is not valid JSON: %v", err)
}
