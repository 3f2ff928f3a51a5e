package txwatch

import (
	"path/filepath"
	"strings"
	"testing"

	"rfhandoff/config"
	"rfhandoff/internal/gittest"
	"rfhandoff/internal/txtest"
)

// The shared MAIN-side test world (env, the scripted operator, the waits)
// is txtest's; what follows ties it to this package's types.

type (
	answer      = txtest.Answer
	scriptAsker = txtest.ScriptAsker
)

// opener is s as the watcher's OpenAsker.
func opener(s *scriptAsker) func() (Asker, error) { return txtest.Opener[Asker](s) }

// noTerminal opens no terminal, as a failed open of /dev/tty says.
var noTerminal = txtest.NoTerminal[Asker]

// env is txtest's world with this package's store and watcher.
type env struct{ *txtest.Env }

func newEnv(t testing.TB) *env {
	t.Helper()
	return &env{txtest.NewEnv(t)}
}

func (e *env) store(t *testing.T) Store {
	t.Helper()
	s, err := StoreOf(e.Pol)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// files lists the authorization directory (nil when it does not exist).
func (e *env) files(t *testing.T) []string {
	t.Helper()
	return txtest.Files(t, e.store(t).Dir)
}

// watcher returns a Watcher on the env with out as its report stream.
func (e *env) watcher(out *gittest.SyncBuffer, asker func() (Asker, error)) *Watcher {
	return &Watcher{Git: e.F.Git(e.R), Policy: e.Pol, Out: out, OpenAsker: asker, Audit: e.Log()}
}

// nodeEnv is env with several receivers (txtest.Nodes).
type nodeEnv struct {
	*env
	*txtest.Nodes
}

func newNodeEnv(t testing.TB, nodes ...string) *nodeEnv {
	t.Helper()
	e := newEnv(t)
	return &nodeEnv{env: e, Nodes: txtest.NewNodes(t, e.Env, nodes...)}
}

func (e *nodeEnv) records(t *testing.T) []Record {
	t.Helper()
	var out []Record
	for _, name := range e.files(t) {
		if !strings.HasSuffix(name, ".json") || strings.HasSuffix(name, ".outcome.json") {
			continue
		}
		rec, err := e.store(t).ReadRecord(name)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, rec)
	}
	return out
}

func statePath(pol config.Policy) string {
	return filepath.Join(pol.StatePath(), "tx_agent_state.json")
}

// Keys lists the key of every problem in report order.
func (e *invalidRecordError) Keys() []string {
	out := make([]string, 0, len(e.Errs))
	for _, err := range e.Errs {
		if fe, ok := err.(*recordFieldError); ok {
			out = append(out, fe.Key)
		}
	}
	return out
}
