// Package nodes runs several RX nodes against one MAIN side end to end:
// the real binary, real git, the simulator on every node.
package nodes

import (
	"testing"

	"rfhandoff/internal/faultkit"
)

func TestMain(m *testing.M) { faultkit.Main(m) }
