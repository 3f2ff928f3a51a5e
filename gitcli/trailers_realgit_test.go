package gitcli_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"rfhandoff/gitcli"
)

// TrailerValues lists each commit's values of one key, newest first,
// skipping commits without one, whatever else the message holds.
func TestTrailerValues(t *testing.T) {
	t.Parallel()
	co := newCheckout(t)
	ctx := t.Context()
	a, b := strings.Repeat("a", 64), strings.Repeat("b", 64)
	commit := func(msg ...string) string {
		args := []string{"commit", "--quiet", "--allow-empty"}
		for _, m := range msg {
			args = append(args, "-m", m)
		}
		git(t, co, args...)
		return git(t, co, "rev-parse", "HEAD")
	}
	first := commit("RX_TEST_001 RX_READY_FOR_TX", "Audit-Chain-Head: "+a)
	commit("unrelated", "Other-Trailer: x")
	third := commit("two heads", "Audit-Chain-Head: "+b+"\nAudit-Chain-Head: not a hash")
	got, err := co.c.TrailerValues(ctx, third, "Audit-Chain-Head")
	if err != nil {
		t.Fatal(err)
	}
	want := []gitcli.CommitTrailers{{Commit: third, Values: []string{b, "not a hash"}}, {Commit: first, Values: []string{a}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
	for _, bad := range [][2]string{{"HEAD", "Audit-Chain-Head"}, {third, "--output=x"}, {third, "Audit-Chain-Head,key=x"}} {
		if _, err := co.c.TrailerValues(ctx, bad[0], bad[1]); !errors.Is(err, gitcli.ErrInvalidArg) {
			t.Errorf("TrailerValues(%q, %q): %v, want refused before git runs", bad[0], bad[1], err)
		}
	}
}
