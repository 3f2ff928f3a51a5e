package e2e

// exeSuffix is what Windows needs on a program's file name.
const exeSuffix = ".exe"
