// Package prompt asks the operator questions on the controlling terminal.
//
// Approvals must come from a person at the keyboard, never from a pipe, a
// file or an agent driving our stdin: Open uses /dev/tty and nothing else,
// and writes the questions there too, so a program that reads our stdout
// neither sees nor answers them. Without a controlling terminal Open fails
// with an error matching ErrNoTerminal and nothing can be approved.
//
// Answers are lines (Enter confirms) read in canonical mode, and match only
// exactly: the line ending (\n, or \r\n) is the one thing removed. In the
// approval menu only a capital A, D or S is accepted (a lowercase letter is
// re-asked with a hint), so a sloppy keystroke never counts as a decision.
// End of input (Ctrl-D on an empty line, a hangup) means stop, nothing
// approved; after MaxMenuAttempts unrecognised answers the task is
// deferred, nothing approved. Each question runs in canonical mode with
// echo, whatever mode an earlier program left, which is restored after.
//
// Before each question the input typed so far is discarded, so type-ahead
// cannot approve anything.
//
// Everything shown that came from a task goes through hiddentext.Sanitize
// or hiddentext.SanitizeLine (PROTOCOL#hidden-text), never raw.
//
// What it offers: Open, a Terminal on the controlling terminal (the console on
// Windows) or ErrNoTerminal; Terminal.Approve (the [A]/[D]/[S] menu) and
// Terminal.Phrase (an exact phrase before a deadline).
package prompt
