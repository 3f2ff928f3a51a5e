package state

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"sort"
	"unicode/utf8"

	"rfhandoff/strictjson"
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
	data, err := ReadRegular(path, MaxFileBytes)
	var big *TooLargeError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return false, nil
	case errors.As(err, &big):
		return true, &CorruptError{Path: path, Err: big}
	case err != nil:
		return true, fmt.Errorf("read state %s: %w", path, err)
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
	if in.kind != strictjson.Object {
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

// node is a JSON value's shape: object keys, array elements, nulls.
type node struct {
	kind strictjson.Kind
	obj  map[string]*node
	arr  []*node
}

// maxDepth bounds nesting; state files are two levels deep.
const maxDepth = 32

// parseTree walks the tokens of exactly one JSON value, refusing duplicate
// keys and trailing data.
func parseTree(data []byte) (*node, error) {
	r := strictjson.NewReader(data)
	n, err := readNode(r, "$", 0)
	if err != nil {
		return nil, plain(err)
	}
	if err := r.End(); err != nil {
		return nil, errors.New("trailing data after the JSON object")
	}
	return n, nil
}

// plain is encoding/json's own error behind a syntax problem: a corrupt
// state file is reported with the decoder's words, without offsets.
func plain(err error) error {
	var se *strictjson.SyntaxError
	if errors.As(err, &se) {
		return se.Err
	}
	return err
}

func readNode(r *strictjson.Reader, at string, depth int) (*node, error) {
	if depth > maxDepth {
		return nil, fmt.Errorf("%s: nested deeper than %d", at, maxDepth)
	}
	v, err := r.Read()
	if errors.Is(err, io.EOF) {
		return nil, errors.New("empty or truncated JSON")
	}
	if err != nil {
		return nil, err
	}
	n := &node{kind: v.Kind}
	switch v.Kind {
	case strictjson.Object:
		n.obj = map[string]*node{}
		err = r.Members(func(k string) error {
			if _, dup := n.obj[k]; dup {
				return fmt.Errorf("%s: duplicate key %q", at, k)
			}
			child, err := readNode(r, at+"."+k, depth+1)
			if err != nil {
				return err
			}
			n.obj[k] = child
			return nil
		})
	case strictjson.Array:
		err = r.Elements(func() error {
			child, err := readNode(r, fmt.Sprintf("%s[%d]", at, len(n.arr)), depth+1)
			if err != nil {
				return err
			}
			n.arr = append(n.arr, child)
			return nil
		})
	}
	if err != nil {
		return nil, err
	}
	return n, nil
}

// matchTree checks that every key of in exists byte-for-byte in out at the
// same place, and that in has null only where out has null too.
func matchTree(in, out *node, at string) error {
	switch {
	case in.kind == strictjson.Null && out.kind != strictjson.Null:
		return fmt.Errorf("%s: null where a value is required", at)
	case in.kind == strictjson.Object && out.kind == strictjson.Object:
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
	case in.kind == strictjson.Array && out.kind == strictjson.Array:
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
