package txwatch

import (
	"context"
	"errors"
	"fmt"

	"rfhandoff/config"
	"rfhandoff/gitcli"
	"rfhandoff/mirror"
)

// checkReachable asks the remote for the result branch once before
// watching: a cause no retry fixes (credentials, host key, URL) ends tx
// watch at once; a remote that is down is left to the polls.
func checkReachable(ctx context.Context, m *mirror.Mirror, pol config.Policy) error {
	r := pol.Repo
	_, _, err := m.RemoteBranchExists(ctx, r.ResultBranch)
	var re *gitcli.RemoteError
	if errors.As(err, &re) && re.Cause != gitcli.CauseUnreachable {
		return fmt.Errorf("checking that %s/%s can be read with your credentials: %w", r.Remote, r.ResultBranch, err)
	}
	return nil
}
