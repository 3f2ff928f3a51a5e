package txwatch

import (
	"context"
	"time"

	"rfhandoff/prompt"
)

// Asker asks the operator for an exact phrase (*prompt.Terminal). Phrase
// returns true only for an exact, confirmed match before deadline.
type Asker interface {
	Phrase(ctx context.Context, phrase string, deadline time.Time) (bool, error)
	Close() error
}

// OpenTerminal opens the controlling terminal; without one the error
// matches prompt.ErrNoTerminal.
func OpenTerminal() (Asker, error) {
	t, err := prompt.Open(prompt.WithBell())
	if err != nil {
		return nil, err
	}
	return t, nil
}
