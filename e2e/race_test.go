//go:build race

package e2e

// raceEnabled: the binary under test is built with -race too.
const raceEnabled = true
