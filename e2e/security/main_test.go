package security

import (
	"testing"

	"rfhandoff/internal/faultkit"
)

func TestMain(m *testing.M) { faultkit.Main(m) }
