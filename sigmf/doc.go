// Package sigmf writes the SigMF Collection that ties the recordings of
// the nodes of one multi-node task together (PROTOCOL#several-nodes): each node
// records <TASK_ID>-<node>.sigmf-data/.sigmf-meta on its own (raw IQ never
// enters git), and the collection names every recording with the SHA-512
// of its metadata file, which the node's COMPLETE carries.
//
// A node's own .sigmf-meta (written by package capture; PROTOCOL#capture):
// SigMF 1.2.0, datatype ci8, core:sha512, the hardware in core:hw, and
// what SigMF core has no field for in the rfhandoff namespace (version
// 1.0.0, optional): rfhandoff:lna_gain_db, vga_gain_db, amp,
// antenna_power, serial, firmware (an unknown value left out) and
// rfhandoff:simulated: true for the simulator. The burst is an annotation
// covering exactly the samples of the spectrogram rows it spans, with
// core:freq_lower_edge and core:freq_upper_edge the outer edges of the
// outermost FFT bins over their floor (the whole band when only the band
// power rose).
// core:datetime, where the quick-look's time axis starts too, is the
// first sample's time: size bytes seen at time t were sampled by
// t − size ÷ 2 ÷ rate; the tightest bound is kept, never before the
// process started. A scheduled capture's meta has core:datetime =
// alignment.first_sample_at to the nanosecond and rfhandoff:sync_mode,
// time_source, bound_s, edge_at and aligned, the extension then declared
// 1.1.0, not optional (TimingExtension); its collection entry adds
// rfhandoff:first_sample_at and bound_s.
package sigmf
