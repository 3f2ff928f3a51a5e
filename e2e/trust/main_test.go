package trust

import (
	"testing"

	"rfhandoff/faultkit"
)

func TestMain(m *testing.M) { faultkit.Main(m) }
