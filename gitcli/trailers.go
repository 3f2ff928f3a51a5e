package gitcli

import (
	"context"
)

type CommitTrailers struct {
	Commit string
	Values []string
}

// TrailerValues lists the values of trailer key of every commit reachable
// from commit that has one, newest first. The values are whatever the
// authors wrote: the caller judges them.
func (c *Client) TrailerValues(ctx context.Context, commit, key string) ([]CommitTrailers, error) {
	if err := ValidObjectID(commit); err != nil {
		return nil, err
	}
	if !trailerKeyRE.MatchString(key) {
		return nil, invalid("trailer key", key, "must match %s", trailerKeyRE)
	}
	return output(ctx, c, "log", []string{"log", "-z", "--format=format:%H%n%(trailers:key=" + key + ",valueonly,unfold)",
		"--no-show-signature", "--end-of-options", commit}, call{}, parseTrailerLog)
}

func parseTrailerLog(out []byte) ([]CommitTrailers, error) {
	var list []CommitTrailers
	for _, rec := range splitNUL(out) {
		lines := outputLines([]byte(rec))
		if len(lines) == 0 {
			continue
		}
		if err := ValidObjectID(lines[0]); err != nil {
			return nil, err
		}
		ct := CommitTrailers{Commit: lines[0]}
		for _, v := range lines[1:] {
			if v != "" {
				ct.Values = append(ct.Values, v)
			}
		}
		if len(ct.Values) > 0 {
			list = append(list, ct)
		}
	}
	return list, nil
}
