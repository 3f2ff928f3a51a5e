package gitcli

import (
	"context"
	"fmt"
	"strconv"
	"strings"
)

type GitVersion struct {
	Major, Minor, Patch int
	Raw                 string // the whole "git version ..." line
}

func (v GitVersion) AtLeast(major, minor int) bool {
	return v.Major > major || v.Major == major && v.Minor >= minor
}

func (v GitVersion) String() string { return fmt.Sprintf("%d.%d.%d", v.Major, v.Minor, v.Patch) }

// minVersion: rev-parse accepts --end-of-options from 2.30 on, and the
// mirror's bounded fetch of one blob needs fetch --refetch, from 2.36 on.
var minVersion = GitVersion{Major: 2, Minor: 36, Raw: "git version 2.36.0"}

func (c *Client) CheckVersion(ctx context.Context) (GitVersion, error) {
	v, err := output(ctx, c, "version", []string{"version"}, call{}, parseVersion)
	if err != nil {
		return v, err
	}
	if !v.AtLeast(minVersion.Major, minVersion.Minor) {
		return v, fmt.Errorf("git %s is too old: rfhandoff needs %d.%d or newer", v, minVersion.Major, minVersion.Minor)
	}
	return v, nil
}

// parseVersion also reads "2.39.3 (Apple Git-145)" and "2.45.1.windows.1".
func parseVersion(out []byte) (GitVersion, error) {
	line := strings.TrimSuffix(string(out), "\n")
	rest, ok := strings.CutPrefix(line, "git version ")
	if !ok || strings.Contains(line, "\n") {
		return GitVersion{}, fmt.Errorf("unexpected git version output %q", line)
	}
	word, _, _ := strings.Cut(rest, " ")
	nums := strings.Split(word, ".")
	if len(nums) < 2 {
		return GitVersion{}, fmt.Errorf("unexpected git version %q", word)
	}
	v := GitVersion{Raw: line}
	dst := []*int{&v.Major, &v.Minor, &v.Patch}
	for i := 0; i < 3 && i < len(nums); i++ {
		n, err := strconv.Atoi(nums[i])
		if err != nil || n < 0 || len(nums[i]) > 6 {
			if i == 2 {
				break // "2.45.rc0" style: no patch number
			}
			return GitVersion{}, fmt.Errorf("unexpected git version %q", word)
		}
		*dst[i] = n
	}
	return v, nil
}
