// Package sigmf writes the SigMF Collection that ties the recordings of
// the nodes of one multi-node task together (PROTOCOL#several-nodes): each node
// records <TASK_ID>-<node>.sigmf-data/.sigmf-meta on its own (raw IQ never
// enters git), and the collection names every recording with the SHA-512
// of its metadata file, which the node's COMPLETE carries.
//
// What it offers: BuildCollection and WriteCollection (the collection's bytes,
// and writing them atomically into the state directory), CollectionPath and
// Stream, one node's recording.
package sigmf
