//go:build unix

package exec

// ServeHelper must be the first thing main does. On Unix there is no
// helper: a child's Ctrl-C is a SIGINT to its group.
func ServeHelper() {}
