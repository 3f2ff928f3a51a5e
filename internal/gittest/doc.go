// Package gittest builds real git fixtures for tests: a private HOME with a
// fixed identity, a runner that goes through the real exec stack, and bare
// remotes with seeded branches, reached over file:// (on Windows through a
// git daemon of their own: see ServeURL).
//
// Everything runs git through exec (the only package that starts
// processes), with the same hardening as production; only the fixtures'
// transports are enabled.
//
// What it offers: Runner and RunnerWithHome (the real exec stack on a private
// HOME), NewBareRemote with Seed, Commit, Rewrite and Tip, Clone, Git for one
// command, and Recorder and SyncBuffer for asserting what ran and what was
// logged.
package gittest
