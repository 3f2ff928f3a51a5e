// Package captureplan is the effective capture a task will run on an RX
// node (PROTOCOL#task-file, PROTOCOL#capture): Plan, computed by config.Policy.CapturePlan,
// shown before approval, bound by it (state keeps it) and run by rx
// capture; with its changes by policy key, its space check, and the units
// people read (MHz, SizeText). It is a leaf.
package captureplan
