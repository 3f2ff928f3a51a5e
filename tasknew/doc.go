// Package tasknew writes the next task file on the MAIN PC (PROTOCOL#task-new)
// under the rules the RX side enforces, before the task leaves the machine:
// EXPECTED_HEAD from the freshly fetched task branch, SOURCE_BRANCH from
// the policy, the risk level and approval rules of gate, a TASK_ID never
// seen in the task file's history nor in the result branch's, and the
// rendered bytes validated by the RX side's own parser. It never commits
// or pushes.
//
// What it offers: Writer.Write, which checks a Request and writes the file;
// Written.Print, which shows the level, the approval and the git lines to run.
package tasknew
