package gitcli

import (
	"context"
	"fmt"
	"rfhandoff/gitcli/gitname"
	"strings"
)

type RemoteRef struct {
	ID   string
	Name string // full ref name, e.g. refs/heads/rx-node
}

func (c *Client) RemoteBranchExists(ctx context.Context, remote, branch string) (bool, string, error) {
	found, err := c.RemoteBranches(ctx, remote, []string{branch})
	id, ok := found[branch]
	return ok, id, err
}

func parseLsRemote(out []byte) ([]RemoteRef, error) {
	s := string(out)
	if s == "" {
		return nil, nil
	}
	if !strings.HasSuffix(s, "\n") {
		return nil, fmt.Errorf("ls-remote output does not end in a newline")
	}
	var refs []RemoteRef
	for i, line := range strings.Split(strings.TrimSuffix(s, "\n"), "\n") {
		id, name, ok := strings.Cut(line, "\t")
		if !ok {
			return nil, fmt.Errorf("ls-remote line %d %q: no tab", i+1, line)
		}
		if ValidObjectID(id) != nil {
			return nil, fmt.Errorf("ls-remote line %d %q: bad object ID", i+1, line)
		}
		if (!strings.HasPrefix(name, "refs/") && name != "HEAD") || !gitname.PrintableLine(name) || strings.ContainsAny(name, " \t") {
			return nil, fmt.Errorf("ls-remote line %d %q: bad ref name", i+1, line)
		}
		refs = append(refs, RemoteRef{ID: id, Name: name})
	}
	return refs, nil
}

// RemoteBranches asks the remote, in one call, for the commit of each of
// branches that exists.
func (c *Client) RemoteBranches(ctx context.Context, remote string, branches []string) (map[string]string, error) {
	if err := validBranches(remote, branches); err != nil {
		return nil, err
	}
	args := []string{"ls-remote", "--heads", "--end-of-options", remote}
	want := map[string]string{}
	for _, b := range branches {
		args = append(args, "refs/heads/"+b)
		want["refs/heads/"+b] = b
	}
	res, err := c.run(ctx, args, call{})
	if err != nil {
		return nil, remoteError("ls-remote", "git ls-remote "+remote+" "+strings.Join(args[4:], " "), res.Stderr, err)
	}
	refs, err := parseLsRemote(res.Stdout)
	if err != nil {
		return nil, &opError{Op: "ls-remote", Err: err}
	}
	found := map[string]string{}
	for _, r := range refs {
		// ls-remote matches patterns by their tail (refs/heads/a/refs/heads/x
		// matches too), so only the exact name counts.
		if b, ok := want[r.Name]; ok {
			found[b] = r.ID
		}
	}
	return found, nil
}
