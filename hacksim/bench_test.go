package hacksim

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkFastCapture is HACKRF_SIM=fast writing 256 MiB: the rate the
// capture executor's 1 GB benchmark can count on.
func BenchmarkFastCapture(b *testing.B) {
	const n = 128 << 20 // samples: 256 MiB
	path := filepath.Join(b.TempDir(), "cap.ci8")
	b.SetBytes(2 * n)
	for b.Loop() {
		if code := runTransfer("hackrf_transfer", []string{"-r", path, "-s", "20000000", "-n", fmt.Sprint(n)},
			modes{fast: true}, io.Discard, io.Discard, make(chan os.Signal)); code != 0 {
			b.Fatalf("exit %d", code)
		}
	}
}

// BenchmarkBlock is one 256 KiB USB block of noise, with and without the
// tone burst; real time at 20 Msps needs 153 blocks a second.
func BenchmarkBlock(b *testing.B) {
	for _, burst := range []bool{false, true} {
		b.Run(fmt.Sprintf("burst=%v", burst), func(b *testing.B) {
			s := newSource(1, 20_000_000, burst, 0, 1<<62)
			b.SetBytes(blockSize)
			var k int64
			for b.Loop() {
				s.block(k)
				k += blockSize / 2
			}
		})
	}
}

func BenchmarkNewSource(b *testing.B) {
	for b.Loop() {
		newSource(1, 2_000_000, false, 0, 0)
	}
}
