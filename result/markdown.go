package result

import (
	"bytes"
	"reflect"
	"strings"
)

// RenderMarkdown renders RX_RESULT.md from r; each non-empty extra string
// becomes a paragraph under "Notes". The output depends on r and extra only.
func RenderMarkdown(r *Result, extra ...string) []byte {
	var b bytes.Buffer
	b.WriteString("# RX result " + codeSpan(oneLine(r.TaskID)) + " — " + codeSpan(oneLine(string(r.State))) + "\n\n")
	b.WriteString("Generated from `RX_RESULT.json` by rfhandoff; do not edit by hand. " +
		"The JSON file is authoritative.\n\n")
	b.WriteString("| key | value |\n|---|---|\n")
	for _, kv := range jsonValues(r) {
		b.WriteString("| " + cell(kv[0]) + " | " + cell(kv[1]) + " |\n")
	}
	var notes []string
	for _, e := range extra {
		if e = strings.TrimSpace(e); e != "" {
			notes = append(notes, e)
		}
	}
	if len(notes) > 0 {
		b.WriteString("\n## Notes\n")
		for _, n := range notes {
			b.WriteString("\n" + n + "\n")
		}
	}
	return b.Bytes()
}

// jsonValues returns [key, JSON text] of r's fields as Encode writes them.
func jsonValues(r *Result) [][2]string {
	rv := reflect.ValueOf(r).Elem()
	rt := rv.Type()
	out := make([][2]string, 0, rt.NumField())
	add := func(name string, v any) {
		text := "(unencodable)"
		if b, err := jsonText(v, ""); err == nil {
			text = string(b)
		}
		out = append(out, [2]string{name, text})
	}
	for i := range rt.NumField() {
		name, opts, _ := strings.Cut(rt.Field(i).Tag.Get("json"), ",")
		if opts == "omitempty" && rv.Field(i).IsZero() || name == "-" {
			continue
		}
		add(name, rv.Field(i).Interface())
	}
	if r.Alignment != nil {
		add(keyAlignment, r.Alignment)
	}
	return out
}

// cell is a table cell holding s as code, with '|' escaped so it can't
// split the cell (GFM removes that escape inside code spans in tables).
func cell(s string) string { return codeSpan(strings.ReplaceAll(s, "|", `\|`)) }

// codeSpan wraps s in a Markdown code span that s can't break out of.
func codeSpan(s string) string {
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		s = " " + s + " "
	}
	return fence + s + fence
}

// oneLine replaces control characters so that even an unvalidated result
// can't break the heading.
func oneLine(s string) string {
	return strings.Map(func(c rune) rune {
		if c < 0x20 || c == 0x7f {
			return '?'
		}
		return c
	}, s)
}
