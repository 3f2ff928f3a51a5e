package strictjson

import (
	"reflect"
	"testing"
)

type fieldsSample struct {
	Name string
	Size int
}

var sampleFields = []Field[fieldsSample]{
	{Key: "name", Check: func(d *fieldsSample, v *Node) string {
		if v.Kind != String {
			return "must be a string, got " + v.Describe()
		}
		d.Name = v.Text
		return ""
	}},
	{Key: "size", Check: func(d *fieldsSample, v *Node) string {
		if v.Kind != Number || v.Text != "3" {
			return "must be 3, got " + v.Describe()
		}
		d.Size = 3
		return ""
	}},
	{Key: "note", Optional: true, Check: func(*fieldsSample, *Node) string { return "" }},
	{Key: "must", Check: func(*fieldsSample, *Node) string { return "" }},
}

// Fields reports every problem at once, key-name problems in document
// order before the table's, and stores only what its checks accepted.
func TestFieldsReportsEveryProblem(t *testing.T) {
	n, err := Parse([]byte(`{"Size":1,"name":7,"extra":{"a":1},"size":3,"size":3,"other":1,"other":2,"later":1,"later":2}`), Shape{Keep: 1})
	if err != nil {
		t.Fatal(err)
	}
	var d fieldsSample
	good, problems := Fields(n.Members, sampleFields, &d, "later")
	want := []Problem{
		{Key: "Size", Kind: UnknownKey, Reason: `unknown key (keys are case-sensitive; did you mean "size"?)`},
		{Key: "extra", Kind: UnknownKey, Reason: "unknown key"},
		{Key: "size", Kind: DuplicateKey, Reason: "duplicate key (2 times)", Count: 2, Same: true},
		{Key: "other", Kind: UnknownKey, Reason: "unknown key"},
		{Key: "later", Kind: DuplicateKey, Reason: "duplicate key (2 times)", Count: 2, Same: false},
		{Key: "name", Kind: BadValue, Reason: "must be a string, got the number 7"},
		{Key: "must", Kind: MissingKey, Reason: "is missing"},
	}
	if !reflect.DeepEqual(problems, want) {
		t.Errorf("problems:\n got %+v\nwant %+v", problems, want)
	}
	if len(good) != 0 || d != (fieldsSample{}) {
		t.Errorf("good = %v, dst = %+v; want nothing accepted", good, d)
	}
}

// A good object: no problems, every present key good, values stored, an
// optional key may be absent.
func TestFieldsAcceptsAGoodObject(t *testing.T) {
	n, err := Parse([]byte(`{"must":null,"size":3,"name":"x"}`), Shape{Keep: 1})
	if err != nil {
		t.Fatal(err)
	}
	var d fieldsSample
	good, problems := Fields(n.Members, sampleFields, &d)
	if len(problems) != 0 || d != (fieldsSample{Name: "x", Size: 3}) {
		t.Errorf("Fields = %+v, %+v", problems, d)
	}
	if want := map[string]bool{"name": true, "size": true, "must": true}; !reflect.DeepEqual(good, want) {
		t.Errorf("good = %v, want %v", good, want)
	}
}
