package gitcli

import (
	"context"
	"fmt"
	"regexp"
	"strings"
)

// Push updates the remote's refs/heads/<dstBranch> to srcRef ("HEAD" or a
// commit ID), never with force; a refused update is a *PushRejectedError.
func (c *Client) Push(ctx context.Context, remote, srcRef, dstBranch string) error {
	var srcErr error
	if srcRef != "HEAD" && ValidObjectID(srcRef) != nil {
		srcErr = invalid("push source", srcRef, "must be HEAD or a 40-hex commit ID")
	}
	if err := firstErr(validRemoteName(remote), srcErr, ValidBranch(dstBranch)); err != nil {
		return err
	}
	dst := "refs/heads/" + dstBranch
	res, err := c.run(ctx, []string{"push", "--porcelain", "--no-verify", "--no-follow-tags", "--recurse-submodules=no",
		"--end-of-options", remote, srcRef + ":" + dst}, call{})
	if err == nil {
		return nil
	}
	if _, ok := exitCode(err); ok {
		refs, perr := parsePushPorcelain(res.Stdout)
		if perr == nil {
			if st, moved, ok := pushRejection(refs, dst, res.Stderr); ok {
				return &PushRejectedError{Remote: remote, Ref: dst, Moved: moved, Summary: st.Summary, Reason: st.Reason, Err: err}
			}
		}
	}
	return remoteError("push", "git push "+remote+" "+srcRef+":"+dst, res.Stderr, err)
}

type PushRefStatus struct {
	Flag    byte // ' ' '+' '-' '*' '=' or '!' (rejected or failed)
	From    string
	To      string
	Summary string // "[rejected]", "[remote rejected]", "[new branch]", "a1..b2", ...
	Reason  string // the parenthesised part, "" when there is none
}

// parsePushPorcelain parses git push --porcelain stdout: "To <url>",
// "<flag> TAB <from>:<to> TAB <summary> [(<reason>)]" lines, "Done".
func parsePushPorcelain(out []byte) ([]PushRefStatus, error) {
	var refs []PushRefStatus
	for _, line := range strings.Split(string(out), "\n") {
		if line == "" || line == "Done" || strings.HasPrefix(line, "To ") {
			continue
		}
		parts := strings.SplitN(line, "\t", 3)
		if len(parts) != 3 || len(parts[0]) != 1 || !strings.Contains(" +-*=!", parts[0]) {
			return nil, fmt.Errorf("push porcelain line %q: want \"<flag>\\t<from>:<to>\\t<summary>\"", line)
		}
		from, to, ok := strings.Cut(parts[1], ":")
		if !ok || to == "" || strings.ContainsAny(to, " \t") {
			return nil, fmt.Errorf("push porcelain line %q: bad refspec", line)
		}
		st := PushRefStatus{Flag: parts[0][0], From: from, To: to}
		var rest string
		if strings.HasPrefix(parts[2], "[") {
			end := strings.Index(parts[2], "]")
			if end < 0 {
				return nil, fmt.Errorf("push porcelain line %q: unterminated summary", line)
			}
			st.Summary, rest = parts[2][:end+1], parts[2][end+1:]
		} else {
			st.Summary, rest, _ = strings.Cut(parts[2], " ")
			if rest != "" {
				rest = " " + rest
			}
		}
		if st.Summary == "" || strings.ContainsAny(st.Summary, "\t()") {
			return nil, fmt.Errorf("push porcelain line %q: bad summary", line)
		}
		if rest != "" {
			reason, ok := strings.CutPrefix(rest, " (")
			if !ok || !strings.HasSuffix(reason, ")") {
				return nil, fmt.Errorf("push porcelain line %q: want \"<summary> (<reason>)\"", line)
			}
			st.Reason = strings.TrimSuffix(reason, ")")
		}
		refs = append(refs, st)
	}
	return refs, nil
}

// movedReasons: the remote branch moved since we cloned.
var movedReasons = map[string]bool{
	"non-fast-forward":                  true,
	"fetch first":                       true,
	"stale info":                        true,
	"remote ref updated since checkout": true,
}

// cannotLockRE is receive-pack's report when the ref changed between its
// advertisement and the update (someone pushed while our push ran).
var cannotLockRE = regexp.MustCompile(`^remote: error: cannot lock ref '([^']+)': is at [0-9a-f]+ but expected [0-9a-f]+`)

// pushRejection finds the rejected status of dst and whether it means
// "the branch moved".
func pushRejection(refs []PushRefStatus, dst string, stderr []byte) (st PushRefStatus, moved, ok bool) {
	for _, r := range refs {
		if r.To != dst || r.Flag != '!' {
			continue
		}
		moved = movedReasons[r.Reason]
		if !moved && r.Summary == "[remote rejected]" && r.Reason == "failed to update ref" {
			for _, line := range outputLines(stderr) {
				if m := cannotLockRE.FindStringSubmatch(line); m != nil && m[1] == dst {
					moved = true
				}
			}
		}
		return r, moved, true
	}
	return PushRefStatus{}, false, false
}
