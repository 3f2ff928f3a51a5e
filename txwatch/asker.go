package txwatch

import (
	"context"
	"time"

	"rfhandoff/prompt"
)

// Asker asks the operator for an exact phrase; *prompt.Terminal is the
// real one. Phrase returns true only for an exact, confirmed match before
// deadline; prompt.ErrExpired when the deadline passed first.
type Asker interface {
	Phrase(ctx context.Context, phrase string, deadline time.Time) (bool, error)
	Close() error
}

// OpenTerminal opens the controlling terminal for the phrase. Without one
// the error matches prompt.ErrNoTerminal and nothing can be authorized.
func OpenTerminal() (Asker, error) {
	t, err := prompt.Open(prompt.WithBell())
	if err != nil {
		return nil, err
	}
	return t, nil
}
