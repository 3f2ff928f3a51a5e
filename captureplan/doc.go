// Package captureplan is the effective capture a task will run on an RX
// node (PROTOCOL#task-file, PROTOCOL#capture): Plan, computed by
// config.Policy.CapturePlan, shown before approval, bound by it and run by
// rx capture. It is a leaf.
package captureplan
