package errlist

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"testing"

	"github.com/hashicorp/go-multierror"
)

func TestJoinNothing(t *testing.T) {
	if err := Join(); err != nil {
		t.Errorf("Join() = %v; want nil", err)
	}
	if err := Join(nil, nil); err != nil {
		t.Errorf("Join(nil, nil) = %#v; want nil", err)
	}
}

func TestJoinOneIsItself(t *testing.T) {
	if err := Join(nil, fs.ErrNotExist, nil); err != fs.ErrNotExist {
		t.Fatalf("Join(nil, ErrNotExist, nil) = %#v; want ErrNotExist itself", err)
	}
}

func TestJoinSeveral(t *testing.T) {
	inner := Join(errors.New("first line\nsecond line"), context.Canceled)
	err := Join(errors.New("git exited 1"), inner)
	want := "2 problems:\n  - git exited 1\n  - 2 problems:\n      - first line\n        second line\n      - context canceled"
	if err.Error() != want {
		t.Errorf("message:\n%s\nwant:\n%s", err, want)
	}
	if !errors.Is(err, context.Canceled) {
		t.Error("errors.Is does not find an error in a nested list")
	}
	var m *multierror.Error
	if !errors.As(err, &m) || len(m.Errors) != 2 {
		t.Errorf("errors.As(*multierror.Error) = %v; want the outer list of 2", m)
	}
	if ie := inner.(*multierror.Error); len(ie.Errors) != 2 {
		t.Errorf("joining changed the inner list: %v", ie.Errors)
	}
}

func TestListKeepsOne(t *testing.T) {
	if err := List(nil); err != nil {
		t.Errorf("List(nil) = %#v; want nil", err)
	}
	err := List(nil, fs.ErrNotExist)
	var m *multierror.Error
	if !errors.As(err, &m) || len(m.Errors) != 1 || m.Errors[0] != fs.ErrNotExist {
		t.Fatalf("List(nil, ErrNotExist) = %#v; want a list of ErrNotExist", err)
	}
	if err.Error() != fs.ErrNotExist.Error() {
		t.Errorf("a list of one reads %q; want %q", err, fs.ErrNotExist)
	}
}

func TestFlatten(t *testing.T) {
	a, b := errors.New("a"), errors.New("b")
	if got := Flatten(List(a, b)); len(got) != 2 || got[0] != a || got[1] != b {
		t.Errorf("Flatten(List(a, b)) = %v; want [a b]", got)
	}
	if got := Flatten(fmt.Errorf("wrapped: %w", List(a, b))); len(got) != 2 {
		t.Errorf("Flatten of a wrapped list = %v; want its two errors", got)
	}
	if got := Flatten(a); len(got) != 1 || got[0] != a {
		t.Errorf("Flatten(a) = %v; want [a]", got)
	}
	if got := Flatten(nil); len(got) != 1 || got[0] != nil || List(got...) != nil {
		t.Errorf("Flatten(nil) = %v; want one nil that List drops", got)
	}
}
