// Package state is rfhandoff's protocol state on the local disk
// (PROTOCOL §4): the RX and TX state files, read strictly (a corrupt file
// is an error naming it, never a silent reset) and written through
// localfile's crash-safe primitives, with one watcher per side through a
// lock file (RXLockFile, TXLockFile).
//
// What it offers: ReadJSON and WriteJSON; SaveRX and SaveTX with the RX
// and TX state types; RXStore and TXRecordStore (the RX state and the
// MAIN side's list of issued authorization records, each changed under a
// lock held for milliseconds); RX.ApprovalOf (whether an approval covers
// a task's bytes). The capture plan an approval binds is captureplan's.
package state
