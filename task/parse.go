package task

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"rfhandoff/gate"
)

var bom = []byte("\xef\xbb\xbf")

// Parse validates a task file and returns it, or an *InvalidError listing every problem. The
// header starts at the first KEY = VALUE line (blank lines before it are skipped, any other
// text there is an error) and ends at the first blank line (spaces and tabs count as blank).
// A leading UTF-8 BOM and CRLF line endings are accepted. Reasons come in a fixed order:
// single lines in line order, then missing fields, then the rules between fields.
func Parse(data []byte, opts Options) (*Task, error) {
	limit := cmp.Or(max(opts.MaxBytes, 0), DefaultMaxBytes)
	if int64(len(data)) > limit {
		// The content is not examined: a caller that read only limit+1
		// bytes has nothing meaningful to show.
		return nil, invalid(&fieldError{Kind: kindTooLarge,
			Msg: fmt.Sprintf("file exceeds the task size limit of %d bytes", limit)})
	}

	p := parser{opts: opts, lines: map[string]int{}, valid: map[string]bool{}, values: map[string]string{}}
	p.t.SHA256 = Digest(data)
	body := scanHeader(data, p.line)
	if len(p.lines) == 0 {
		p.add(&fieldError{Kind: kindNoHeader,
			Msg: "no header: the file must start with KEY = VALUE lines for " + strings.Join(fields, ", ")})
	} else {
		for _, f := range fields {
			if _, ok := p.lines[f]; !ok {
				p.add(&fieldError{Kind: kindMissing, Field: f, Msg: "missing"})
			}
		}
		p.crossChecks()
	}
	if len(p.probs) > 0 {
		return nil, invalid(p.probs...)
	}
	p.t.Body = string(body)
	return &p.t, nil
}

type parser struct {
	opts   Options
	t      Task
	lines  map[string]int    // known field -> line of its first occurrence
	valid  map[string]bool   // known field -> its value passed its rule
	values map[string]string // known field -> its value as written
	probs  []*fieldError
	// Only the first line of text before the header is reported.
	preReported bool
}

func (p *parser) add(e *fieldError) { p.probs = append(p.probs, e) }

func (p *parser) conflict(field, msg string) {
	p.add(&fieldError{Kind: kindConflict, Line: p.lines[field], Field: field, Value: p.values[field], Msg: msg})
}

func (p *parser) line(n int, ln []byte, key, value string, ok, inHeader bool) {
	switch {
	case !inHeader:
		if !p.preReported {
			p.add(&fieldError{Kind: kindPreHeader, Line: n, Value: string(ln),
				Msg: fmt.Sprintf("text before the first field: %s; the file must start with the KEY = VALUE header", quote(string(ln)))})
			p.preReported = true
		}
	case !ok:
		p.add(&fieldError{Kind: kindMalformed, Line: n, Value: string(ln),
			Msg: fmt.Sprintf("not a KEY = VALUE line: %s", quote(string(ln)))})
	default:
		p.field(n, key, value, ln)
	}
}

// scanHeader walks the header as Parse describes it, calling line for each non-blank line
// (inHeader false before the first KEY = VALUE line); it returns what follows the header.
func scanHeader(data []byte, line func(n int, ln []byte, key, value string, ok, inHeader bool)) []byte {
	rest := bytes.TrimPrefix(data, bom)
	inHeader := false
	for n := 1; len(rest) > 0; n++ {
		var ln []byte
		ln, rest, _ = bytes.Cut(rest, []byte("\n"))
		ln = bytes.TrimSuffix(ln, []byte("\r"))
		if len(bytes.Trim(ln, " \t")) == 0 {
			if inHeader {
				return rest
			}
			continue
		}
		key, value, ok := splitField(string(ln))
		inHeader = inHeader || ok
		line(n, ln, key, value, ok, inHeader)
	}
	return nil
}

func (p *parser) field(n int, key, value string, ln []byte) {
	clean := true
	if !utf8.Valid(ln) {
		p.add(&fieldError{Kind: kindEncoding, Line: n, Field: key, Value: value,
			Msg: fmt.Sprintf("not valid UTF-8: %s", quote(value))})
		clean = false
	} else if i := bytes.IndexFunc(ln, isControl); i >= 0 {
		r, _ := utf8.DecodeRune(ln[i:])
		p.add(&fieldError{Kind: kindControl, Line: n, Field: key, Value: value,
			Msg: fmt.Sprintf("control character %U in %s", r, quote(value))})
		clean = false
	}
	set, known := setters[key]
	if !known {
		_, upper := setters[strings.ToUpper(key)]
		p.add(&fieldError{Kind: kindUnknown, Line: n, Field: key, Value: value,
			Msg: "unknown field" + pick(upper, "; field names are upper case", "")})
		return
	}
	if first, dup := p.lines[key]; dup {
		p.add(&fieldError{Kind: kindDuplicate, Line: n, Field: key, Value: value,
			Msg: fmt.Sprintf("duplicate field (first on line %d)", first)})
		return
	}
	p.lines[key] = n
	p.values[key] = value
	if !clean {
		return
	}
	if msg := set(&p.t, value, p.opts); msg != "" {
		p.add(invalidValue(n, key, value, msg))
		return
	}
	p.valid[key] = true
}

// crossChecks applies the rules between fields. flags whose values were
// invalid count as NO, so the derived level is a lower bound and every
// conflict reported here is real whatever the invalid values meant.
func (p *parser) crossChecks() {
	t := &p.t
	if p.valid[FieldHardwareAccess] && !t.HardwareAccess {
		var need []string
		if p.valid[FieldRFRX] && t.RFRX {
			need = append(need, "RF_RX = YES")
		}
		if p.valid[FieldRFTX] && t.RFTX {
			need = append(need, "RF_TX = YES")
		}
		if len(need) > 0 {
			p.conflict(FieldHardwareAccess, "must be YES when "+strings.Join(need, " and "))
		}
	}

	if !t.RFRX && p.valid[FieldRFRX] {
		for _, f := range rxOnlyFields {
			if p.valid[f] {
				p.conflict(f, fmt.Sprintf("%s needs RF_RX = YES: the field says what the receivers capture", quote(p.values[f])))
			}
		}
	}
	p.scheduleChecks()

	flags := t.Flags()
	t.DerivedLevel = gate.Derive(flags)
	t.EffectiveLevel = t.DerivedLevel
	if p.valid[FieldRiskLevel] {
		eff, err := gate.Effective(t.DeclaredLevel, t.DerivedLevel)
		t.EffectiveLevel = eff
		if errors.Is(err, gate.ErrLevelTooLow) {
			p.conflict(FieldRiskLevel, fmt.Sprintf("declared %s is lower than the derived minimum %s (%s)",
				t.DeclaredLevel, t.DerivedLevel, strings.Join(gate.Reasons(flags), ", ")))
		}
	}
	if p.valid[FieldRequiresApproval] {
		// CheckRequiresApproval's one error is NO above GREEN.
		if err := gate.CheckRequiresApproval(t.RequiresApproval, t.EffectiveLevel); err != nil {
			p.conflict(FieldRequiresApproval, err.Error())
		}
	}
}

// scheduleChecks: START_AT and SYNC_MODE come together, and only with
// CAPTURE_DURATION_S (a scheduled capture needs its end). A field present
// but invalid counts as present: its own reason is reported already.
func (p *parser) scheduleChecks() {
	_, at := p.lines[FieldStartAt]
	_, mode := p.lines[FieldSyncMode]
	f := pick(at, FieldStartAt, FieldSyncMode) // the one given, if either is
	if at != mode {
		p.conflict(f, fmt.Sprintf("%s needs %s too: a scheduled capture names both its start and how the receivers start on it (or neither)", quote(p.values[f]), pick(at, FieldSyncMode, FieldStartAt)))
	}
	if _, d := p.lines[FieldCaptureDurationS]; (at || mode) && !d {
		p.conflict(f, fmt.Sprintf("%s needs %s: a scheduled capture's end is START_AT plus the task's own duration, the same on every node", quote(p.values[f]), FieldCaptureDurationS))
	}
}

// splitField splits "  KEY = VALUE " at the first '='; a key that does not look like a field
// name makes it no field line at all.
func splitField(s string) (key, value string, ok bool) {
	k, v, found := strings.Cut(s, "=")
	k = strings.Trim(k, " \t")
	if !found || k == "" {
		return "", "", false
	}
	for i, r := range k {
		if !nameRune(r, i > 0) {
			return "", "", false
		}
	}
	return k, strings.Trim(v, " \t"), true
}

// isControl is a control character other than tab: C0, DEL and C1, which
// covers ESC and so every terminal escape sequence.
func isControl(r rune) bool {
	return r != '\t' && (r < 0x20 || r >= 0x7f && r <= 0x9f)
}

func invalidValue(line int, field, v, msg string) *fieldError {
	return &fieldError{Kind: kindInvalid, Line: line, Field: field, Value: v,
		Msg: fmt.Sprintf("invalid value %s: %s", quote(v), msg)}
}
