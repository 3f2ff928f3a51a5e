package exec

import (
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The test binary doubles as a child process: linked under the name
// hackrf_info it obeys "-d MODE" (the only argument the allowlist lets
// hackrf_info take), so the real stack runs it like any allowlisted tool.
func TestMain(m *testing.M) {
	ServeHelper()
	if strings.TrimSuffix(strings.ToLower(filepath.Base(os.Args[0])), ".exe") == "hackrf_info" {
		os.Exit(helperMain(os.Args[1:]))
	}
	os.Exit(m.Run())
}

func helperMain(args []string) int {
	mode := ""
	if len(args) == 2 && args[0] == "-d" {
		mode = args[1]
	}
	name, arg, _ := strings.Cut(mode, "=")
	switch name {
	case "printenv":
		for _, kv := range os.Environ() {
			fmt.Println(kv)
		}
		return 0
	case "exit":
		var code int
		fmt.Sscan(arg, &code)
		fmt.Fprintln(os.Stderr, "helper failing on purpose")
		return code
	case "flood":
		buf := make([]byte, 64<<10)
		for i := 0; i < 1024; i++ {
			if _, err := os.Stdout.Write(buf); err != nil {
				return 1
			}
		}
		return 0
	case "touch":
		os.WriteFile(arg, []byte("ran"), 0o600)
		return 0
	case "stubborn":
		// Ignore SIGINT, start a grandchild in our group, report its pid, hang.
		signal.Ignore(syscall.SIGINT)
		self, _ := os.Executable()
		p, err := os.StartProcess(filepath.Join(filepath.Dir(arg), helperExe),
			[]string{"hackrf_info", "-d", "sleep"}, &os.ProcAttr{Files: []*os.File{nil, nil, os.Stderr}})
		_ = self
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 3
		}
		os.WriteFile(arg, []byte(fmt.Sprint(p.Pid)), 0o600)
		time.Sleep(time.Hour)
		return 0
	case "sleep":
		signal.Ignore(syscall.SIGINT)
		time.Sleep(time.Hour)
		return 0
	case "sigint-clean":
		ch := make(chan os.Signal, 1)
		signal.Notify(ch, syscall.SIGINT)
		fmt.Println("ready")
		<-ch
		fmt.Fprintln(os.Stderr, "Caught signal 2")
		return 0
	}
	if code, ok := platformHelper(name, arg); ok {
		return code
	}
	fmt.Fprintln(os.Stderr, "unknown helper mode", mode)
	return 2
}

// helperDir returns a directory holding the test binary as hackrf_info.
func helperDir(t *testing.T) string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := linkHelper(self, filepath.Join(dir, helperExe)); err != nil {
		t.Fatal(err)
	}
	return dir
}

// newStack builds the real stack with the helper as hackrf_info.
func newStack(t *testing.T, role Role, environ []string, mod ...func(*Options)) (*Stack, string) {
	t.Helper()
	dir := helperDir(t)
	logPath := filepath.Join(t.TempDir(), "audit.jsonl")
	log, err := OpenAuditLog(logPath)
	if err != nil {
		t.Fatal(err)
	}
	o := Options{
		Role:    role,
		Tools:   map[Tool]string{HackRFInfo: filepath.Join(dir, helperExe)},
		Audit:   log,
		Environ: environ,
		Grace:   300 * time.Millisecond,
	}
	for _, m := range mod {
		m(&o)
	}
	s, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	return s, logPath
}
