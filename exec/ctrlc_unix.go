//go:build unix

package exec

// ServeHelper: on Unix a child's Ctrl-C is a SIGINT to its group.
func ServeHelper() {}
