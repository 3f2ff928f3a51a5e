package strictjson

import "bytes"

// Node is one value of a document Parse read; a container it skipped (below Shape.Keep) has
// neither Members nor Elements. Every container below the top has its raw JSON text in Text,
// so that two duplicates can be compared.
type Node struct {
	Value
	Members  *Members[*Node]
	Elements []*Node
}

// Shape says how much of a document Parse keeps and allows.
type Shape struct {
	// Keep is how many levels of containers are read into Nodes, the
	// top-level object being level 1; a deeper container is skipped.
	// 0 keeps every level.
	Keep int
	// MaxDepth refuses (kind Depth) a container nested deeper than this
	// many levels, the top-level object being level 1, whether kept or
	// skipped. 0 sets no bound beyond encoding/json's own.
	MaxDepth int
	Lenient  bool // what follows the object is left unread: no TrailingData
}

// Parse is the one strict JSON reader: data must be exactly one JSON object (nothing but
// whitespace after it unless sh.Lenient). Its errors are ErrEmpty and *Error.
func Parse(data []byte, sh Shape) (*Node, error) {
	r := newReader(data)
	if err := r.object(); err != nil {
		return nil, err
	}
	top := &Node{Value: Value{Kind: Object}}
	if err := r.fill(top, data, 1, sh); err != nil {
		return nil, err
	}
	if !sh.Lenient {
		if err := r.end(); err != nil {
			return nil, err
		}
	}
	return top, nil
}

// fill reads the container n, at level depth, that was just opened.
func (r *reader) fill(n *Node, data []byte, depth int, sh Shape) error {
	if n.Kind == Object {
		n.Members = &Members[*Node]{}
		return r.members(func(key string) error {
			c, err := r.child(data, depth+1, sh)
			if err == nil {
				n.Members.Add(key, c)
			}
			return err
		})
	}
	return r.elements(func() error {
		c, err := r.child(data, depth+1, sh)
		if err == nil {
			n.Elements = append(n.Elements, c)
		}
		return err
	})
}

// child reads the next value, a container being at level depth.
func (r *reader) child(data []byte, depth int, sh Shape) (*Node, error) {
	start := r.offset()
	v, err := r.Read()
	if err != nil {
		return nil, err
	}
	c := &Node{Value: v}
	if v.Kind != Object && v.Kind != Array {
		return c, nil
	}
	if sh.MaxDepth > 0 && depth > sh.MaxDepth {
		return nil, &Error{Kind: Depth, Max: sh.MaxDepth}
	}
	if sh.Keep > 0 && depth > sh.Keep {
		max := 0
		if sh.MaxDepth > 0 {
			max = sh.MaxDepth - depth + 1 // Skip counts the container itself
		}
		if err := r.skip(max); err != nil {
			if e, ok := err.(*Error); ok && e.Kind == Depth {
				err = &Error{Kind: Depth, Max: sh.MaxDepth}
			}
			return nil, err
		}
	} else if err := r.fill(c, data, depth, sh); err != nil {
		return nil, err
	}
	c.Text = raw(data, start, r.offset())
	return c, nil
}

// raw is a container's JSON text, data[start:end] trimmed of the ':' or ',' and blanks before it.
func raw(data []byte, start, end int64) string {
	return string(bytes.TrimLeft(data[start:end], " \t\r\n:,"))
}
