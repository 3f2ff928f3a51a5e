package result

import (
	"os"
	"reflect"
	"testing"
)

func TestPeekTaskIDs(t *testing.T) {
	ready, err := os.ReadFile("../testdata/results/ready.json")
	if err != nil {
		t.Fatal(err)
	}
	r, err := Decode(ready, Options{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		data string
		want []string
	}{
		{"a valid result", string(ready), []string{r.TaskID}},
		{"invalid otherwise", `{"task_id": "OLD_TASK", "schema_version": 0, "extra": [1]}`, []string{"OLD_TASK"}},
		{"duplicated", `{"task_id": "A_1", "task_id": "A_2"}`, []string{"A_1", "A_2"}},
		{"not a string", `{"task_id": 7}`, nil},
		{"not JSON", `task_id: A_1`, nil},
		{"nested only", `{"x": {"task_id": "A_1"}}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := PeekTaskIDs([]byte(tt.data)); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("PeekTaskIDs = %q, want %q", got, tt.want)
			}
		})
	}
}

// FuzzPeekTaskIDs: PeekTaskIDs never panics, and for a result Decode
// accepts it finds exactly that result's task_id.
func FuzzPeekTaskIDs(f *testing.F) {
	for _, name := range []string{"ready.json", "complete.json"} {
		if data, err := os.ReadFile("../testdata/results/" + name); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte(`{"task_id": "A_1", "task_id": 2}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		ids := PeekTaskIDs(data)
		r, err := Decode(data, Options{})
		if err == nil && !reflect.DeepEqual(ids, []string{r.TaskID}) {
			t.Fatalf("PeekTaskIDs = %q for a valid result of %q", ids, r.TaskID)
		}
	})
}
