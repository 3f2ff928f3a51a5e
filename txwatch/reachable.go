package txwatch

import (
	"context"
	"errors"
	"fmt"

	"rfhandoff/config"
	"rfhandoff/gitcli"
	"rfhandoff/mirror"
)

// checkReachable asks the remote for the result branch once, with the
// operator's credentials, before tx watch starts watching. A cause no
// retry fixes (credentials refused or missing, an unknown or changed host
// key, a wrong URL) ends tx watch at once with what to do, instead of a
// watcher that looks alive and can never see a result. A remote that is
// down or slow is left to the polls: they back off, report it once and
// resume when it comes back.
func checkReachable(ctx context.Context, m *mirror.Mirror, pol config.Policy) error {
	r := pol.Repo
	_, _, err := m.RemoteBranchExists(ctx, r.ResultBranch)
	var re *gitcli.RemoteError
	if errors.As(err, &re) && re.Cause != gitcli.CauseUnreachable {
		return fmt.Errorf("checking that %s/%s can be read with your credentials: %w", r.Remote, r.ResultBranch, err)
	}
	return nil
}
