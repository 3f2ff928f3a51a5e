package sigmf

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"rfhandoff/errlist"
	"rfhandoff/ident"
	"rfhandoff/localfile"
	"rfhandoff/node"
)

// CollectionVersion is the SigMF version the collection conforms to: the
// first with Collections as written here.
const CollectionVersion = "1.2.0"

// CollectionSuffix is a collection file's extension.
const CollectionSuffix = ".sigmf-collection"

// CollectionsDir is where the MAIN side keeps collections, under its state
// directory.
const CollectionsDir = "collections"

// Stream is one node's recording as its COMPLETE describes it.
type Stream struct {
	Node string
	// MetaSHA512 is the node's sigmf_meta_sha512; "" when its COMPLETE
	// had none (a recovered capture), which no collection may list.
	MetaSHA512 string
}

// collectionDoc is a .sigmf-collection: one top-level "collection" object.
type collectionDoc struct {
	Collection collection `json:"collection"`
}

type collection struct {
	Version     string         `json:"core:version"`
	Description string         `json:"core:description"`
	Streams     []recordingRef `json:"core:streams"`
}

// recordingRef is a SigMF Recording Object: a recording's base name and
// the SHA-512 of its .sigmf-meta.
type recordingRef struct {
	Name string `json:"name"`
	Hash string `json:"hash"`
}

// BuildCollection renders the collection of task taskID (titled title)
// over streams, in the order given (the task's RX_NODES order). Every
// problem is reported at once, each naming its node: a bad or repeated
// name, a missing or malformed digest; no streams at all is refused too.
func BuildCollection(taskID, title string, streams []Stream) ([]byte, error) {
	var errs []error
	if taskID == "" {
		errs = append(errs, fmt.Errorf("collection: no TASK_ID"))
	}
	if len(streams) == 0 {
		errs = append(errs, fmt.Errorf("collection %s: no streams", taskID))
	}
	doc := collectionDoc{Collection: collection{Version: CollectionVersion, Description: title, Streams: []recordingRef{}}}
	seen := map[string]bool{}
	for i, s := range streams {
		switch {
		case node.Check(s.Node) != "":
			errs = append(errs, fmt.Errorf("collection %s: stream %d: %s", taskID, i+1, node.Check(s.Node)))
			continue
		case seen[s.Node]:
			errs = append(errs, fmt.Errorf("collection %s: node %s is listed twice", taskID, s.Node))
			continue
		case s.MetaSHA512 == "":
			errs = append(errs, fmt.Errorf("collection %s: node %s: its COMPLETE carries no sigmf_meta_sha512 (no SigMF metadata was written for its recording)", taskID, s.Node))
		case !ident.SHA512.MatchString(s.MetaSHA512):
			errs = append(errs, fmt.Errorf("collection %s: node %s: sigmf_meta_sha512 %q is not 128 lowercase hex digits", taskID, s.Node, s.MetaSHA512))
		}
		seen[s.Node] = true
		doc.Collection.Streams = append(doc.Collection.Streams, recordingRef{Name: node.Recording(taskID, s.Node), Hash: s.MetaSHA512})
	}
	if err := errlist.List(errs...); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // the title as written, not \u003c for <
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// CollectionPath is <stateDir>/collections/<TASK_ID>.sigmf-collection.
func CollectionPath(stateDir, taskID string) string {
	return filepath.Join(stateDir, CollectionsDir, taskID+CollectionSuffix)
}

// WriteCollection builds the collection and writes it atomically to
// CollectionPath; nothing is written when BuildCollection refuses.
func WriteCollection(stateDir, taskID, title string, streams []Stream) (string, error) {
	data, err := BuildCollection(taskID, title, streams)
	if err != nil {
		return "", err
	}
	path := CollectionPath(stateDir, taskID)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return "", err
	}
	if err := localfile.WriteFileAtomic(path, data, 0o644); err != nil {
		return "", err
	}
	return path, nil
}
