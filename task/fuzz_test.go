package task

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"rfhandoff/gate"
	"rfhandoff/hiddentext"
	"rfhandoff/ident"
)

// FuzzParse checks that Parse never panics, that every rejection is an
// *InvalidError whose message is safe to print, and that every accepted task
// satisfies the rules of PROTOCOL#task-file.
func FuzzParse(f *testing.F) {
	f.Add([]byte(hdr(nil) + "\nbody\n"))
	f.Add([]byte("\xef\xbb\xbf" + strings.ReplaceAll(hdr(nil), "\n", "\r\n")))
	f.Add([]byte(hdr(map[string]string{FieldRFTX: "YES", FieldRiskLevel: "RED"})))
	f.Add([]byte(hdr(map[string]string{FieldTitle: "\x1b[31mx", FieldRiskLevel: "GREEN"})))
	f.Add([]byte("TASK_ID=A\xff\n\n"))
	f.Add([]byte(""))
	if files, _ := filepath.Glob(filepath.Join(fixtureDir, "*.md")); len(files) > 0 {
		for _, p := range files {
			if data, err := os.ReadFile(p); err == nil {
				f.Add(data)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		opts := Options{TaskBranch: testBranch, MaxBytes: 4096}
		tk, err := Parse(data, opts)
		if err != nil {
			checkRejection(t, tk, err)
			return
		}
		checkAccepted(t, data, tk)
	})
}

func checkRejection(t *testing.T, tk *Task, err error) {
	if tk != nil {
		t.Fatal("task returned with an error")
	}
	var ie *InvalidError
	if !errors.As(err, &ie) {
		t.Fatalf("error %T, want *InvalidError", err)
	}
	probs := ie.Problems()
	if len(probs) == 0 || len(probs) != len(ie.Errs.WrappedErrors()) {
		t.Fatalf("reasons %v", ie.Errs.WrappedErrors())
	}
	for _, p := range probs {
		if _, ok := kindNames[p.Kind]; !ok {
			t.Fatalf("problem without a kind: %+v", p)
		}
	}
	msg := err.Error()
	if !utf8.ValidString(msg) {
		t.Fatalf("message is not valid UTF-8: %q", msg)
	}
	if i := strings.IndexFunc(msg, func(r rune) bool { return r != '\n' && hiddentext.Hidden(r) }); i >= 0 {
		t.Fatalf("message holds a raw control character: %q", msg)
	}
}

func checkAccepted(t *testing.T, data []byte, tk *Task) {
	if tk.SHA256 != Digest(data) {
		t.Fatal("digest is not of the input bytes")
	}
	if !ident.TaskID.MatchString(tk.ID) || tk.SourceBranch != testBranch || !ident.Commit.MatchString(tk.ExpectedHead) {
		t.Fatalf("accepted bad fields: %+v", tk)
	}
	if checkTitle(tk.Title) != "" {
		t.Fatalf("accepted bad title %q", tk.Title)
	}
	if tk.AllowPush != PushNo && tk.AllowPush != PushRXResultOnly {
		t.Fatalf("accepted ALLOW_PUSH %q", tk.AllowPush)
	}
	if (tk.RFRX || tk.RFTX) && !tk.HardwareAccess {
		t.Fatal("accepted RF without hardware access")
	}
	if tk.DerivedLevel != gate.Derive(tk.Flags()) || tk.EffectiveLevel != tk.DeclaredLevel || tk.DeclaredLevel < tk.DerivedLevel {
		t.Fatalf("levels: declared %v derived %v effective %v", tk.DeclaredLevel, tk.DerivedLevel, tk.EffectiveLevel)
	}
	if tk.RFTX && tk.EffectiveLevel != gate.Red {
		t.Fatal("RF TX below RED")
	}
	if !tk.RequiresApproval && tk.EffectiveLevel != gate.Green {
		t.Fatal("approval waived above GREEN")
	}
	if strings.ContainsRune(tk.Title, '\n') {
		t.Fatal("title spans lines")
	}
	if !bytes.HasSuffix(data, []byte(tk.Body)) {
		t.Fatalf("Body %q is not the file's tail as written", tk.Body)
	}
	if i := strings.IndexFunc(hiddentext.Sanitize(tk.Body), func(r rune) bool { return r != '\n' && r != '\t' && hiddentext.Hidden(r) }); i >= 0 {
		t.Fatalf("Sanitize left a control character: %q", hiddentext.Sanitize(tk.Body))
	}
}
