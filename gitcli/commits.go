package gitcli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"rfhandoff/gitcli/sshsig"
	"strconv"
	"strings"
	"time"
)

type CommitObject struct {
	ID      string
	Tree    string
	Parents []string
	// CommittedAt: whatever the author chose, but covered by a signature.
	CommittedAt time.Time
	// Payload is what a signature covers; Signature is its text as git
	// hands it to ssh-keygen, empty when unsigned (sshsig.Split).
	Payload, Signature []byte
}

// SamePayload reports whether o and p are one signed statement under two
// IDs (PROTOCOL#trust: a signature vouches for content, not a commit ID).
func (o CommitObject) SamePayload(p CommitObject) bool { return bytes.Equal(o.Payload, p.Payload) }

// SigningKey reads the key (or certificate) o's SSH signature names,
// unverified: the caller binds it to git's verification by the
// fingerprint, and refuses an error like a bad signature.
func (o CommitObject) SigningKey() (sshsig.SigningKey, error) {
	if len(o.Signature) == 0 {
		return sshsig.SigningKey{}, errors.New("it carries no signature")
	}
	pub, ns, err := sshsig.SignatureKey(o.Signature)
	if err != nil {
		return sshsig.SigningKey{}, err
	}
	k, err := sshsig.ParseKey(pub)
	if err != nil {
		return sshsig.SigningKey{}, err
	}
	k.Namespace = ns
	return k, nil
}

const maxCommitBytes = 1 << 20

// Commits reads the commit objects ids in one cat-file --batch. Give it
// only IDs git itself named in this repository: in a partial clone a
// missing one would be fetched outside the runner.
func (c *Client) Commits(ctx context.Context, ids ...string) ([]CommitObject, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	for _, id := range ids {
		if err := ValidObjectID(id); err != nil {
			return nil, err
		}
	}
	return output(ctx, c, "cat-file --batch (commits)", []string{"cat-file", "--batch"},
		call{stdin: idLines(ids), maxOutput: int64(len(ids)) * (maxCommitBytes + batchHeaderMax)},
		func(out []byte) ([]CommitObject, error) {
			raws, err := parseBatch(out, ids, "commit")
			if err != nil {
				return nil, err
			}
			objs := make([]CommitObject, len(ids))
			for i, id := range ids {
				if objs[i], err = parseCommitObject(id, raws[id]); err != nil {
					return nil, err
				}
			}
			return objs, nil
		})
}

func parseCommitObject(id string, raw []byte) (CommitObject, error) {
	o := CommitObject{ID: id}
	o.Payload, o.Signature = sshsig.Split(raw)
	head, _, _ := bytes.Cut(raw, []byte("\n\n"))
	committer := false
	for _, line := range strings.Split(string(head), "\n") {
		key, v, _ := strings.Cut(line, " ")
		switch {
		case key == "tree" && o.Tree == "":
			if ValidObjectID(v) != nil {
				return o, fmt.Errorf("commit %s: bad tree %q", id, v)
			}
			o.Tree = v
		case key == "parent":
			if ValidObjectID(v) != nil {
				return o, fmt.Errorf("commit %s: bad parent %q", id, v)
			}
			o.Parents = append(o.Parents, v)
		case key == "committer" && !committer:
			// "Name <email> <seconds> <zone>"
			f := strings.Fields(v[strings.LastIndexByte(v, '>')+1:])
			if len(f) != 2 {
				return o, fmt.Errorf("commit %s: committer line without a date: %q", id, line)
			}
			secs, err := strconv.ParseInt(f[0], 10, 64)
			if err != nil {
				return o, fmt.Errorf("commit %s: committer line without a date: %q", id, line)
			}
			o.CommittedAt, committer = time.Unix(secs, 0).UTC(), true
		}
	}
	if o.Tree == "" || !committer {
		return o, fmt.Errorf("commit %s: no tree or committer header", id)
	}
	return o, nil
}

type FileChange struct {
	Commit, Tree string
	Parents      []string
	CommittedAt  time.Time
	Blob         string // after the change, when it is a regular file
	Removed      bool   // the change deleted it (FileChanges only)
}

// changesFormat is one line per commit (%P is the commit's own parents).
const changesFormat = "--format=format:commit %H %T %ct %P"

// FileChanges lists every commit in commit's history that changed path,
// merges included (once each), newest first, with what the file became.
// It reads commits and trees only (a blobless mirror will do).
func (c *Client) FileChanges(ctx context.Context, commit, path string) ([]FileChange, error) {
	if err := firstErr(ValidObjectID(commit), ValidRepoPath(path)); err != nil {
		return nil, err
	}
	return output(ctx, c, "log (changes of "+path+")", []string{"log", changesFormat, "--raw", "--no-abbrev", "--full-history", "-m", "--root",
		"--no-renames", "--no-follow", "--no-show-signature", "--no-ext-diff", "--no-textconv", "--no-relative",
		"--end-of-options", commit, "--", path}, call{}, func(out []byte) ([]FileChange, error) { return parseChanges(out, path) })
}

// LastChange is the commit that last changed path by git log's history
// simplification (the one VerifyLastChange checks).
func (c *Client) LastChange(ctx context.Context, commit, path string) (FileChange, error) {
	if err := firstErr(ValidObjectID(commit), ValidRepoPath(path)); err != nil {
		return FileChange{}, err
	}
	changes, err := output(ctx, c, "log -1 (last change of "+path+")", []string{"log", "-1", changesFormat, "--no-show-signature", "--end-of-options", commit, "--", path},
		call{}, func(out []byte) ([]FileChange, error) { return parseChanges(out, path) })
	switch {
	case err != nil:
		return FileChange{}, err
	case len(changes) == 0:
		return FileChange{}, &notFoundError{What: fmt.Sprintf("a commit changing %s on the history of %s", path, commit)}
	}
	return changes[0], nil
}

// parseChanges reads changesFormat lines and their raw diffs (a merge
// under -m comes once per parent it differs from: its entries are one).
func parseChanges(out []byte, file string) ([]FileChange, error) {
	var changes []FileChange
	err := walkRawLog(out, func(f []string) string {
		if len(f) < 3 || ValidObjectID(f[0]) != nil || ValidObjectID(f[1]) != nil {
			return "want a commit, its tree and its date"
		}
		secs, err := strconv.ParseInt(f[2], 10, 64)
		if err != nil {
			return "bad committer date"
		}
		for _, p := range f[3:] {
			if ValidObjectID(p) != nil {
				return "bad parent"
			}
		}
		if len(changes) == 0 || changes[len(changes)-1].Commit != f[0] { // else a merge again, against its next parent
			changes = append(changes, FileChange{Commit: f[0], Tree: f[1], CommittedAt: time.Unix(secs, 0).UTC(), Parents: f[3:]})
		}
		return ""
	}, func(f []string, p string) string {
		ch := &changes[len(changes)-1]
		switch {
		case ValidObjectID(f[3]) != nil:
			return "want a raw diff line"
		case p != file:
		case Mode(f[1]).IsRegular():
			ch.Blob, ch.Removed = f[3], false
		case f[1] == "000000":
			ch.Blob, ch.Removed = "", true
		}
		return ""
	})
	if err != nil {
		return nil, err
	}
	return changes, nil
}
