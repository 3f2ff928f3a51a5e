//go:build !windows

package exec

const ClockTool = Timedatectl

var clockTools = []Tool{Timedatectl, Chronyc}
