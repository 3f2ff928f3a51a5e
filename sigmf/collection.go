package sigmf

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"rfhandoff/errlist"
	"rfhandoff/ident"
	"rfhandoff/localfile"
	"rfhandoff/node"
	"rfhandoff/result"
)

// CollectionVersion is the first SigMF version with Collections as written here.
const CollectionVersion = "1.2.0"

// The rfhandoff SigMF extension; TimingVersion where a scheduled task's
// recordings say how well they are aligned (PROTOCOL#result).
const (
	Extension        = "rfhandoff"
	ExtensionVersion = "1.0.0"
	TimingVersion    = "1.1.0"
)

type ExtensionDecl struct {
	Name     string `json:"name"`
	Version  string `json:"version"`
	Optional bool   `json:"optional"`
}

// TimingExtension is the declaration of a scheduled task's recordings and
// collection: their times are the point of them, so a reader must know it.
var TimingExtension = ExtensionDecl{Name: Extension, Version: TimingVersion, Optional: false}

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
	Alignment  *result.Alignment // a scheduled task's; nil otherwise
}

type collectionDoc struct {
	Collection collection `json:"collection"`
}

type collection struct {
	Version     string          `json:"core:version"`
	Description string          `json:"core:description"`
	Extensions  []ExtensionDecl `json:"core:extensions,omitempty"` // a scheduled task's: TimingExtension
	Streams     []recordingRef  `json:"core:streams"`
}

// recordingRef is a SigMF Recording Object.
type recordingRef struct {
	Name          string      `json:"name"`
	Hash          string      `json:"hash"`
	FirstSampleAt string      `json:"rfhandoff:first_sample_at,omitempty"`
	BoundS        json.Number `json:"rfhandoff:bound_s,omitempty"`
}

// BuildCollection renders the collection of task taskID over streams, in
// the order given. Every problem is reported at once, each naming its node.
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
	timed := slices.ContainsFunc(streams, func(s Stream) bool { return s.Alignment != nil })
	if timed {
		doc.Collection.Extensions = []ExtensionDecl{TimingExtension}
	}
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
		if timed && s.Alignment == nil {
			errs = append(errs, fmt.Errorf("collection %s: node %s: its COMPLETE carries no alignment, but other nodes' do (every result of a task with START_AT has it)", taskID, s.Node))
		}
		seen[s.Node] = true
		ref := recordingRef{Name: node.Recording(taskID, s.Node), Hash: s.MetaSHA512}
		if a := s.Alignment; a != nil {
			ref.FirstSampleAt, ref.BoundS = result.FormatNano(a.FirstSampleAt), json.Number(result.FormatSeconds(a.Bound))
		}
		doc.Collection.Streams = append(doc.Collection.Streams, ref)
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

func CollectionPath(stateDir, taskID string) string {
	return filepath.Join(stateDir, CollectionsDir, taskID+CollectionSuffix)
}

// WriteCollection builds the collection and writes it atomically to
// CollectionPath.
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
