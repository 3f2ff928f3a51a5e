// Package testrun holds what a package's TestMain sets before its tests
// run. It imports nothing of rfhandoff's.
package testrun

import (
	"flag"
	"strconv"
)

// Waiting is the -parallel a package's tests get when they mostly wait:
// on a capture's real-time samples, a watcher's poll interval, a child's
// exit, a subprocess. go test's default is GOMAXPROCS, two on the machines
// rfhandoff is built for, and two at a time left most such tests queued
// behind ones that only waited.
const Waiting = 8

// ParallelByDefault sets -test.parallel to n unless the command line set
// it. Call it from TestMain before m.Run.
func ParallelByDefault(n int) {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		_ = flag.Set("test.parallel", strconv.Itoa(n))
	}
}
