package gitcli

import (
	"context"
	"path/filepath"
	"rfhandoff/gitcli/gitname"
	"strings"
)

func (c *Client) InitBare(ctx context.Context, dir string) error {
	return c.do(ctx, "init", []string{"init", "--quiet", "--bare", "--end-of-options", dir}, call{})
}

// ConfigFileEntries lists the config file at path alone as "key=value"
// ("key" without a value): an include is listed, not followed.
func (c *Client) ConfigFileEntries(ctx context.Context, path string) ([]string, error) {
	if !filepath.IsAbs(path) || !gitname.PrintableLine(path) {
		return nil, invalid("config file", path, "must be an absolute path")
	}
	return output(ctx, c, "config --list", []string{"config", "--null", "--list", "--file", path}, call{}, func(out []byte) ([]string, error) {
		var entries []string
		for _, e := range splitNUL(out) {
			if k, v, ok := strings.Cut(e, "\n"); ok {
				entries = append(entries, k+"="+v)
			} else if e != "" {
				entries = append(entries, k)
			}
		}
		return entries, nil
	})
}

// BrokenRefs lists the refs git cannot use (a missing object, a cut-short ref file).
func (c *Client) BrokenRefs(ctx context.Context) ([]string, error) {
	res, err := c.run(ctx, []string{"for-each-ref", "--format=%(refname)"}, call{})
	if err != nil {
		return nil, &opError{Op: "for-each-ref", Err: err}
	}
	return parseBrokenRefs(res.Stderr), nil
}

// parseBrokenRefs reads for-each-ref's stderr; other lines are kept whole.
func parseBrokenRefs(stderr []byte) []string {
	var out []string
	for _, line := range outputLines(stderr) {
		ref, _ := strings.CutPrefix(line, "warning: ignoring broken ref ")
		out = append(out, ref)
	}
	return out
}

// Repack packs every object into one pack (a partial clone's promised
// objects stay in a promisor pack of their own).
func (c *Client) Repack(ctx context.Context) error {
	return c.do(ctx, "repack", []string{"repack", "-a", "-d", "-q"}, call{})
}

func (c *Client) DeleteRef(ctx context.Context, ref string) error {
	if err := validFullRef(ref); err != nil {
		return err
	}
	return c.do(ctx, "update-ref -d", []string{"update-ref", "-d", "--end-of-options", ref}, call{})
}
