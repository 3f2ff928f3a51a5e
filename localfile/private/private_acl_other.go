//go:build unix && !linux

package private

// extendedACL: access lists beyond the mode bits (macOS's chmod +a, the
// BSDs' setfacl) are not read here; OPERATIONS#threat-model names the gap.
func extendedACL(string) bool { return false }
