package prompttest

const ttyPath = "CONIN$"

// noTerminal: without a console there is no CONIN$ to open.
func noTerminal(err error) bool { return err != nil }
