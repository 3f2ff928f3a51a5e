//go:build !windows

package e2e

const exeSuffix = ""
