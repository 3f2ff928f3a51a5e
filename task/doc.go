// Package task reads the task file, docs/handoff/NEXT_RX_TASK.md
// (PROTOCOL#task-file): a header of KEY = VALUE lines, then free Markdown shown to the
// operator. Parse validates the header completely and reports every problem
// at once; it never trusts the body, which is only ever displayed after
// hiddentext.Sanitize.
//
// Hidden text (PROTOCOL#hidden-text): characters a terminal does not show are
// escaped, not refused, in the body. hiddentext.Sanitize writes each as
// <U+XXXX>, the one rendering the approval prompt, rx check, rx status and
// TASK.md all carry, so the operator approves exactly the text an agent
// reads. A title holding one is invalid, with the positions named. The
// digest (SHA256) is always of the raw bytes.
//
// What it offers: Parse (strict, every problem at once), Build (render a Spec
// and validate the result with Parse), Digest, PeekIDs (lenient, for old
// versions) and the field names.
package task
