//go:build race

package testbin

// raceEnabled: the binary under test is built with -race too.
const raceEnabled = true
