package gitcli

import (
	"bytes"
	"context"
	"fmt"
	neturl "net/url"
	"path/filepath"
	"regexp"
	"strings"

	"rfhandoff/exec"
)

// RemoteURL is the URL remote's config names, only when git would fetch
// from and push to exactly that URL in Dir: one remote.<name>.url, and no
// pushurl or url.<base>.(push)insteadOf sending git elsewhere. Otherwise
// it is an error naming each such setting (an agent that can write a
// config file could otherwise send rfhandoff's fetches and pushes to its
// own repository while the audit log names the remote).
func (c *Client) RemoteURL(ctx context.Context, remote string) (string, error) {
	if err := validRemoteName(remote); err != nil {
		return "", err
	}
	if url, ok := c.RemoteURLs[remote]; ok {
		return url, nil
	}
	// The canonical keys that decide where git fetches and pushes for remote.
	keys := `^(remote\.` + regexp.QuoteMeta(remote) + `\.(url|pushurl)|url\..*\.(insteadof|pushinsteadof))$`
	res, err := c.run(ctx, []string{"config", "--null", "--show-origin", "--get-regexp", "--end-of-options", keys}, call{})
	if err != nil {
		if code, ok := exitCode(err); ok && code == 1 {
			return "", &notFoundError{What: "a URL of remote " + remote, Err: err}
		}
		return "", &opError{Op: "config --get-regexp", Err: err}
	}
	entries, err := parseConfigList(res.Stdout)
	if err != nil {
		return "", &opError{Op: "config --get-regexp", Err: err}
	}
	return judgeRemote(remote, entries, c.Dir)
}

// configEntry is one value of `git config --null --show-origin --get-regexp`.
type configEntry struct {
	Origin   string // "file:<path>", "command line:", ...
	Key      string
	Value    string
	HasValue bool // false for a key written without "= value"
}

// parseConfigList reads "<origin>\0<key>[\n<value>]\0" records.
func parseConfigList(out []byte) ([]configEntry, error) {
	if len(out) == 0 {
		return nil, nil
	}
	if !bytes.HasSuffix(out, []byte{0}) {
		return nil, fmt.Errorf("config list does not end in NUL")
	}
	fields := strings.Split(string(out[:len(out)-1]), "\x00")
	if len(fields)%2 != 0 {
		return nil, fmt.Errorf("config list has %d fields, not origin and key pairs", len(fields))
	}
	var es []configEntry
	for i := 0; i < len(fields); i += 2 {
		e := configEntry{Origin: fields[i]}
		e.Key, e.Value, e.HasValue = strings.Cut(fields[i+1], "\n")
		if e.Origin == "" || e.Key == "" {
			return nil, fmt.Errorf("config list entry %d: empty origin or key", i/2+1)
		}
		es = append(es, e)
	}
	return es, nil
}

// judgeRemote returns remote's one URL, or every reason git would fetch or
// push elsewhere.
func judgeRemote(remote string, es []configEntry, dir string) (string, error) {
	var urls []configEntry
	for _, e := range es {
		if e.Key == "remote."+remote+".url" && e.HasValue {
			urls = append(urls, e)
		}
	}
	if len(urls) == 0 {
		return "", &notFoundError{What: "a URL of remote " + remote}
	}
	url := urls[0].Value
	var why []string
	if len(urls) > 1 {
		var all []string
		for _, u := range urls {
			all = append(all, exec.RedactURL(u.Value)+" "+where(u.Origin, dir))
		}
		why = append(why, fmt.Sprintf("remote.%s.url is set %d times (%s): git fetches from the first and pushes to every one",
			remote, len(urls), strings.Join(all, ", ")))
	}
	for _, e := range es {
		switch {
		case e.Key == "remote."+remote+".pushurl":
			if !e.HasValue || e.Value != url {
				why = append(why, fmt.Sprintf("remote.%s.pushurl = %s %s sends pushes there", remote, exec.RedactURL(e.Value), where(e.Origin, dir)))
			}
		case strings.HasPrefix(e.Key, "url."):
			base, kind := rewriteKey(e.Key)
			if kind == "" {
				continue
			}
			if !e.HasValue {
				why = append(why, fmt.Sprintf("url.%s.%s %s has no value (git refuses such a config)", exec.RedactURL(base), kind, where(e.Origin, dir)))
				continue
			}
			// git rewrites a URL starting with the value (the longest
			// such value wins): any match redirects.
			if !strings.HasPrefix(url, e.Value) {
				continue
			}
			to := exec.RedactURL(base + url[len(e.Value):])
			what := "rewrites it to " + to
			if kind == "pushInsteadOf" {
				what = "sends pushes to " + to
			}
			why = append(why, fmt.Sprintf("url.%s.%s = %s %s %s", exec.RedactURL(base), kind, exec.RedactURL(e.Value), where(e.Origin, dir), what))
		}
	}
	if len(why) > 0 {
		// A password the URL carries may end up anywhere in a rewritten
		// one (a path, after a base with no userinfo).
		if u, err := neturl.Parse(url); err == nil && u.User != nil {
			if pw, ok := u.User.Password(); ok && pw != "" {
				for i := range why {
					why[i] = strings.ReplaceAll(why[i], pw, exec.Redacted)
				}
			}
		}
		return "", &redirectError{Remote: remote, URL: url, Reasons: why}
	}
	return url, nil
}

func rewriteKey(key string) (base, kind string) {
	rest := strings.TrimPrefix(key, "url.")
	if b, ok := strings.CutSuffix(rest, ".pushinsteadof"); ok {
		return b, "pushInsteadOf"
	}
	if b, ok := strings.CutSuffix(rest, ".insteadof"); ok {
		return b, "insteadOf"
	}
	return "", ""
}

// where names a config origin: the file as this system writes paths
// (git.exe gives C:/...), or what git calls it.
func where(origin, dir string) string {
	if p, ok := strings.CutPrefix(origin, "file:"); ok {
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		return "in " + filepath.Clean(filepath.FromSlash(p))
	}
	return "from " + strings.TrimSuffix(origin, ":")
}

type redirectError struct {
	Remote, URL string
	Reasons     []string
}

func (e *redirectError) Error() string {
	return fmt.Sprintf("remote %s: git would not fetch from and push to exactly its URL %s: %s; remove these settings (`git config --show-origin --get-regexp '^url\\.|^remote\\.%s\\.'` lists them)",
		e.Remote, exec.RedactURL(e.URL), strings.Join(e.Reasons, "; "), e.Remote)
}
