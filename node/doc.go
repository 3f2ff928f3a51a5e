// Package node is what names an RX node on a multi-node experiment
// (PROTOCOL#several-nodes): the name pattern, the RX_NODES list and the recording
// name each node writes. It is a leaf, shared by task, result and config.
//
// What it offers: Check (why a node name is refused, or ""), Pattern, ParseList
// (an RX_NODES value into a List, with every problem) and Recording (the
// <TASK_ID>-<node> recording name).
package node
