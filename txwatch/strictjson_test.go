package txwatch

import (
	"errors"
	"testing"
)

// parseJSONObject words each way strictjson refuses a record exactly as
// the protocol's messages have it.
func TestParseJSONObjectWording(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{``, "is empty; expected one JSON object"},
		{" \n", "is empty; expected one JSON object"},
		{`[1]`, "must be one JSON object"},
		{`"x"`, "must be one JSON object"},
		{`{"a":{"b":{"c":{"d":{}}}}}`, "nests deeper than 4 levels"},
		{`{"a":1`, "is not valid JSON: unexpected end at byte 6"},
		{`{"a":}`, "is not valid JSON: invalid character '}' looking for beginning of value at byte 5"},
		{`{} x`, "has data after the JSON object, which ends at byte 2"},
		{`{"a":1} {"b":2}`, "has data after the JSON object, which ends at byte 7"},
	} {
		_, err := parseJSONObject([]byte(tt.in))
		if err == nil || err.Error() != tt.want {
			t.Errorf("parseJSONObject(%q) = %v, want %q", tt.in, err, tt.want)
		}
	}
	if o, err := parseJSONObject([]byte(`{"a":{"b":{"c":{}}}}`)); err != nil || len(o.Order) != 1 {
		t.Errorf("four levels: %v", err)
	}
	if got := recordSyntaxErr(errors.New("other")).Error(); got != "is not valid JSON: other" {
		t.Errorf("a foreign error is worded %q", got)
	}
}
