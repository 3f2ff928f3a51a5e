// Package demorun runs `rfhandoff demo` end to end, as a newcomer's first
// command does: the real binary, its real children, the simulator.
package demorun

import (
	"testing"

	"rfhandoff/internal/faultkit"
)

func TestMain(m *testing.M) { faultkit.Main(m) }
