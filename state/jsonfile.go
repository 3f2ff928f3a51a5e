package state

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sort"
	"unicode/utf8"
)

// MaxFileBytes bounds a state file; real ones are a few KiB.
const MaxFileBytes = 4 << 20

// CorruptError is a state file that exists but cannot be trusted. The file
// is left untouched: a person must look at it (never a silent reset).
type CorruptError struct {
	Path string
	Err  error
}

func (e *CorruptError) Error() string {
	return fmt.Sprintf("state file %s is corrupt (left untouched; inspect it, then fix or remove it): %v", e.Path, e.Err)
}

func (e *CorruptError) Unwrap() error { return e.Err }

// ReadJSON decodes the JSON object in path into v strictly: valid UTF-8,
// exactly one object, no duplicate keys, no key that is not byte-equal to
// one of v's (encoding/json would fold case), no null where v holds a
// value, no unknown keys. A missing file returns exists=false and no
// error; a file that fails any of this returns a *CorruptError.
//
// v must marshal every field (no omitempty): the key check compares the
// file's keys with v's own encoding.
func ReadJSON(path string, v any) (exists bool, err error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("read state %s: %w", path, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return true, fmt.Errorf("read state %s: %w", path, err)
	}
	if len(data) > MaxFileBytes {
		return true, &CorruptError{Path: path, Err: fmt.Errorf("larger than %d bytes", MaxFileBytes)}
	}
	if err := decodeStrict(data, v); err != nil {
		return true, &CorruptError{Path: path, Err: err}
	}
	return true, nil
}

// WriteJSON writes v to path atomically as indented JSON with a trailing
// newline, readable only by its owner.
func WriteJSON(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("write state %s: %w", path, err)
	}
	return WriteFileAtomic(path, append(data, '\n'), 0o600)
}

// decodeStrict is ReadJSON's parse, on bytes.
func decodeStrict(data []byte, v any) error {
	if !utf8.Valid(data) {
		return errors.New("not valid UTF-8")
	}
	in, err := parseTree(data)
	if err != nil {
		return err
	}
	if in.kind != kindObject {
		return errors.New("not a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	// Compare the file's keys and nulls with what v encodes to: this
	// catches what encoding/json lets through (case-folded keys, nulls
	// that leave a value unchanged).
	enc, err := json.Marshal(v)
	if err != nil {
		return err
	}
	out, err := parseTree(enc)
	if err != nil {
		return err
	}
	return matchTree(in, out, "$")
}

type nodeKind int

const (
	kindScalar nodeKind = iota
	kindNull
	kindObject
	kindArray
)

// node is a JSON value's shape: object keys, array elements, nulls.
type node struct {
	kind nodeKind
	obj  map[string]*node
	arr  []*node
}

// maxDepth bounds nesting; state files are two levels deep.
const maxDepth = 32

// parseTree walks the tokens of exactly one JSON value, refusing duplicate
// keys and trailing data.
func parseTree(data []byte) (*node, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	n, err := readNode(dec, "$", 0)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("trailing data after the JSON object")
	}
	return n, nil
}

func readNode(dec *json.Decoder, at string, depth int) (*node, error) {
	if depth > maxDepth {
		return nil, fmt.Errorf("%s: nested deeper than %d", at, maxDepth)
	}
	tok, err := dec.Token()
	if err != nil {
		if err == io.EOF {
			return nil, errors.New("empty or truncated JSON")
		}
		return nil, err
	}
	switch t := tok.(type) {
	case nil:
		return &node{kind: kindNull}, nil
	case json.Delim:
		switch t {
		case '{':
			n := &node{kind: kindObject, obj: map[string]*node{}}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k, ok := kt.(string)
				if !ok {
					return nil, fmt.Errorf("%s: object key is not a string", at)
				}
				if _, dup := n.obj[k]; dup {
					return nil, fmt.Errorf("%s: duplicate key %q", at, k)
				}
				child, err := readNode(dec, at+"."+k, depth+1)
				if err != nil {
					return nil, err
				}
				n.obj[k] = child
			}
			if _, err := dec.Token(); err != nil { // '}'
				return nil, err
			}
			return n, nil
		case '[':
			n := &node{kind: kindArray}
			for dec.More() {
				child, err := readNode(dec, fmt.Sprintf("%s[%d]", at, len(n.arr)), depth+1)
				if err != nil {
					return nil, err
				}
				n.arr = append(n.arr, child)
			}
			if _, err := dec.Token(); err != nil { // ']'
				return nil, err
			}
			return n, nil
		}
		return nil, fmt.Errorf("%s: unexpected %v", at, t)
	default:
		return &node{kind: kindScalar}, nil
	}
}

// matchTree checks that every key of in exists byte-for-byte in out at the
// same place, and that in has null only where out has null too.
func matchTree(in, out *node, at string) error {
	switch {
	case in.kind == kindNull && out.kind != kindNull:
		return fmt.Errorf("%s: null where a value is required", at)
	case in.kind == kindObject && out.kind == kindObject:
		keys := make([]string, 0, len(in.obj))
		for k := range in.obj {
			keys = append(keys, k)
		}
		sort.Strings(keys) // report the same problem every time
		for _, k := range keys {
			child := in.obj[k]
			o, ok := out.obj[k]
			if !ok {
				return fmt.Errorf("%s: unknown key %q", at, k)
			}
			if err := matchTree(child, o, at+"."+k); err != nil {
				return err
			}
		}
	case in.kind == kindArray && out.kind == kindArray:
		if len(in.arr) != len(out.arr) {
			return fmt.Errorf("%s: array changed length when decoded", at)
		}
		for i := range in.arr {
			if err := matchTree(in.arr[i], out.arr[i], fmt.Sprintf("%s[%d]", at, i)); err != nil {
				return err
			}
		}
	}
	return nil
}
