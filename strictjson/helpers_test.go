package strictjson

import (
	"fmt"
	"strings"
)

// dump reads data as one object the way the strict readers do (objects
// member by member, arrays element by element, containers nested more than
// maxDepth levels deep skipped, the top-level object being level 1) and writes what it kept in a canonical form:
// {"k":v,...} with every occurrence, [..], s"text", n1.0, true, null,
// and "~" for a skipped container.
func dump(data []byte, maxDepth int) (string, error) {
	r := newReader(data)
	if err := r.object(); err != nil {
		return "", err
	}
	var b strings.Builder
	if err := dumpObject(r, &b, 1, maxDepth); err != nil {
		return "", err
	}
	if err := r.end(); err != nil {
		return "", err
	}
	return b.String(), nil
}

func dumpObject(r *reader, b *strings.Builder, depth, maxDepth int) error {
	b.WriteString("{")
	n := 0
	err := r.members(func(key string) error {
		if n > 0 {
			b.WriteString(",")
		}
		n++
		fmt.Fprintf(b, "%q:", key)
		return dumpValue(r, b, depth, maxDepth)
	})
	b.WriteString("}")
	return err
}

func dumpValue(r *reader, b *strings.Builder, depth, maxDepth int) error {
	v, err := r.Read()
	if err != nil {
		return err
	}
	switch {
	case (v.Kind == Object || v.Kind == Array) && depth >= maxDepth:
		b.WriteString("~")
		return r.skip(0)
	case v.Kind == Object:
		return dumpObject(r, b, depth+1, maxDepth)
	case v.Kind == Array:
		b.WriteString("[")
		n := 0
		err := r.elements(func() error {
			if n > 0 {
				b.WriteString(",")
			}
			n++
			return dumpValue(r, b, depth+1, maxDepth)
		})
		b.WriteString("]")
		return err
	case v.Kind == String:
		fmt.Fprintf(b, "s%q", v.Text)
	case v.Kind == Number:
		b.WriteString("n" + v.Text)
	case v.Kind == Bool:
		fmt.Fprint(b, v.Bool)
	default:
		b.WriteString("null")
	}
	return nil
}
