package sigmftest

import (
	"encoding/json"
	"os"
	"testing"
)

// Stream is one Recording Object of a collection's core:streams.
type Stream struct {
	Name string `json:"name"`
	Hash string `json:"hash"`
}

// ReadCollection reads the collection at path, fails the test unless it
// validates (ValidateCollection), and returns its core:version and
// core:streams.
func ReadCollection(t testing.TB, path string) (version string, streams []Stream) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := ValidateCollection(data); err != nil {
		t.Fatalf("%s is not a SigMF collection: %v\n%s", path, err, data)
	}
	var doc struct {
		Collection struct {
			Version string   `json:"core:version"`
			Streams []Stream `json:"core:streams"`
		} `json:"collection"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Collection.Version, doc.Collection.Streams
}
