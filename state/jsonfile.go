package state

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"unicode/utf8"

	"github.com/hashicorp/go-multierror"

	"rfhandoff/localfile"
	"rfhandoff/localfile/private"
	"rfhandoff/strictjson"
)

// maxFileBytes bounds a state file; real ones are a few KiB.
const maxFileBytes = 4 << 20

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
// error; a file that fails any of this returns a *CorruptError. The file
// must be one only this account can change (private.Read): one that is not
// is refused, naming it, before it is read.
//
// v must marshal every field (no omitempty): the key check compares the
// file's keys with v's own encoding.
func ReadJSON(path string, v any) (exists bool, err error) {
	data, err := private.Read(path, maxFileBytes)
	var big *localfile.TooLargeError
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

// stateValue is a state file's type: validate checks every value and
// reports all problems at once; normalize writes empty collections as []
// and {} rather than null.
type stateValue[T any] interface {
	*T
	validate() error
	normalize()
}

// load is ReadJSON of path, validated and normalized: a missing file is
// a fresh (zero) value; an invalid one is a *CorruptError naming it.
func load[T any, P stateValue[T]](path string) (T, error) {
	var v, zero T
	if _, err := ReadJSON(path, &v); err != nil {
		return zero, err
	}
	if err := P(&v).validate(); err != nil {
		return zero, &CorruptError{Path: path, Err: err}
	}
	P(&v).normalize()
	return v, nil
}

// save validates v and writes it, normalized, to path atomically; an
// invalid value is refused rather than written.
func save[T any, P stateValue[T]](path string, v T) error {
	if err := P(&v).validate(); err != nil {
		return fmt.Errorf("refusing to write invalid state %s: %w", path, err)
	}
	P(&v).normalize()
	return WriteJSON(path, v)
}

// joinErrs reports all of a validation's problems at once (nil for none).
func joinErrs(errs []error) error {
	if len(errs) == 0 {
		return nil
	}
	return &multierror.Error{Errors: errs}
}

// WriteJSON writes v to path atomically as indented JSON with a trailing
// newline, readable only by its owner.
func WriteJSON(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("write state %s: %w", path, err)
	}
	return localfile.WriteFileAtomic(path, append(data, '\n'), 0o600)
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

// maxDepth bounds nesting; state files are two levels deep.
const maxDepth = 32

// parseTree reads exactly one JSON object (strictjson.Parse), refusing
// duplicate keys at any level and trailing data. A corrupt state file is
// reported with encoding/json's words, without offsets.
func parseTree(data []byte) (*strictjson.Node, error) {
	n, err := strictjson.Parse(data, strictjson.Shape{MaxDepth: maxDepth})
	var je *strictjson.Error
	switch {
	case err == nil:
		return n, noDuplicates(n, "$")
	case errors.Is(err, strictjson.ErrEmpty):
		return nil, errors.New("empty or truncated JSON")
	case !errors.As(err, &je): // not strictjson's own: returned as it is, below
	case je.Kind == strictjson.NotObject:
		return nil, errors.New("not a JSON object")
	case je.Kind == strictjson.TrailingData:
		return nil, errors.New("trailing data after the JSON object")
	case je.Kind == strictjson.Depth:
		return nil, fmt.Errorf("nested deeper than %d", maxDepth)
	case je.Kind == strictjson.Syntax && errors.Is(je.Err, io.EOF):
		return nil, errors.New("empty or truncated JSON")
	case je.Kind == strictjson.Syntax:
		return nil, je.Err
	}
	return nil, err
}

// noDuplicates refuses a key that occurs twice in one object, the first
// in document order.
func noDuplicates(n *strictjson.Node, at string) error {
	if n.Members != nil {
		for _, k := range n.Members.Order {
			vs := n.Members.Values[k]
			if len(vs) > 1 {
				return fmt.Errorf("%s: duplicate key %q", at, k)
			}
			if err := noDuplicates(vs[0], at+"."+k); err != nil {
				return err
			}
		}
	}
	for i, c := range n.Elements {
		if err := noDuplicates(c, fmt.Sprintf("%s[%d]", at, i)); err != nil {
			return err
		}
	}
	return nil
}

// matchTree checks that every key of in exists byte-for-byte in out at the
// same place, and that in has null only where out has null too. Keys are
// looked at in document order, so the same problem is reported every time.
func matchTree(in, out *strictjson.Node, at string) error {
	switch {
	case in.Kind == strictjson.Null && out.Kind != strictjson.Null:
		return fmt.Errorf("%s: null where a value is required", at)
	case in.Kind == strictjson.Object && out.Kind == strictjson.Object:
		for _, k := range in.Members.Order {
			o, ok := out.Members.Values[k]
			if !ok {
				return fmt.Errorf("%s: unknown key %q", at, k)
			}
			if err := matchTree(in.Members.Values[k][0], o[0], at+"."+k); err != nil {
				return err
			}
		}
	case in.Kind == strictjson.Array && out.Kind == strictjson.Array:
		if len(in.Elements) != len(out.Elements) {
			return fmt.Errorf("%s: array changed length when decoded", at)
		}
		for i := range in.Elements {
			if err := matchTree(in.Elements[i], out.Elements[i], fmt.Sprintf("%s[%d]", at, i)); err != nil {
				return err
			}
		}
	}
	return nil
}
