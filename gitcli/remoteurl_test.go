package gitcli

import (
	"errors"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestParseConfigList(t *testing.T) {
	out := "file:.git/config\x00remote.origin.url\n/srv/rf.git\x00" +
		"file:/home/u/.gitconfig\x00url.x.insteadof\x00" +
		"command line:\x00remote.origin.url\nfile:///env\x00"
	es, err := parseConfigList([]byte(out))
	if err != nil {
		t.Fatal(err)
	}
	want := []configEntry{
		{Origin: "file:.git/config", Key: "remote.origin.url", Value: "/srv/rf.git", HasValue: true},
		{Origin: "file:/home/u/.gitconfig", Key: "url.x.insteadof"},
		{Origin: "command line:", Key: "remote.origin.url", Value: "file:///env", HasValue: true},
	}
	if len(es) != len(want) {
		t.Fatalf("got %+v, want %+v", es, want)
	}
	for i := range want {
		if es[i] != want[i] {
			t.Errorf("entry %d = %+v, want %+v", i, es[i], want[i])
		}
	}
	for _, bad := range []string{"file:x\x00key\nv", "file:x\x00", "\x00key\nv\x00"} {
		if _, err := parseConfigList([]byte(bad)); err == nil {
			t.Errorf("parseConfigList(%q) accepted", bad)
		}
	}
}

// coDir is the checkout the judged config belongs to, absolute here.
var coDir = map[bool]string{true: `C:\co`, false: "/co"}[runtime.GOOS == "windows"]

// onThisPlatform writes TestJudgeRemote's Unix paths as this platform's
// absolute paths (git.exe names a config file C:/...; "/inc.cfg" is not
// absolute on Windows): the file origins and the files the refusals name.
func onThisPlatform(es []configEntry, want []string) ([]configEntry, []string) {
	if runtime.GOOS != "windows" {
		return es, want
	}
	out := append([]configEntry{}, es...)
	for i, e := range out {
		if p, ok := strings.CutPrefix(e.Origin, "file:/"); ok {
			out[i].Origin = "file:C:/" + p
		}
	}
	var w []string
	for _, s := range want {
		// Named as this system writes paths; a relative origin joined to
		// the checkout.
		for _, f := range []string{"/inc.cfg", "/h/.gitconfig"} {
			s = strings.ReplaceAll(s, " in "+f, " in C:"+filepath.FromSlash(f))
		}
		s = strings.ReplaceAll(s, " in /co/.git/config", " in "+filepath.Join(coDir, ".git", "config"))
		w = append(w, s)
	}
	return out, w
}

// judgeRemote accepts only a remote git uses exactly, and otherwise names
// every setting that redirects it, where it is set and where it leads.
func TestJudgeRemote(t *testing.T) {
	url := func(origin, v string) configEntry {
		return configEntry{Origin: origin, Key: "remote.origin.url", Value: v, HasValue: true}
	}
	kv := func(origin, key, v string) configEntry {
		return configEntry{Origin: origin, Key: key, Value: v, HasValue: true}
	}
	const local = "file:.git/config"
	for _, c := range []struct {
		name string
		es   []configEntry
		want []string // "" for accepted
	}{
		{"plain", []configEntry{url(local, "/srv/rf.git")}, nil},
		{"a rewrite of another URL", []configEntry{url(local, "/srv/rf.git"), kv(local, "url.file:///x/.insteadof", "https://")}, nil},
		{"a pushurl equal to the url", []configEntry{url(local, "/srv/rf.git"), kv(local, "remote.origin.pushurl", "/srv/rf.git")}, nil},
		{"another remote's keys", []configEntry{url(local, "/srv/rf.git"), kv(local, "remote.other.pushurl", "/evil")}, nil},
		{"insteadOf", []configEntry{url(local, "/srv/rf.git"), kv("file:/inc.cfg", "url.file:///evil/.insteadof", "/srv/")},
			[]string{"url.file:///evil/.insteadOf = /srv/ in /inc.cfg rewrites it to file:///evil/rf.git"}},
		{"an empty insteadOf matches every URL", []configEntry{url(local, "/srv/rf.git"), kv(local, "url./evil.insteadof", "")},
			[]string{"url./evil.insteadOf =  in /co/.git/config rewrites it to /evil/srv/rf.git"}},
		{"pushInsteadOf", []configEntry{url(local, "/srv/rf.git"), kv("file:/h/.gitconfig", "url./evil.git.pushinsteadof", "/srv/rf.git")},
			[]string{"url./evil.git.pushInsteadOf = /srv/rf.git in /h/.gitconfig sends pushes to /evil.git"}},
		{"pushurl", []configEntry{url(local, "/srv/rf.git"), kv(local, "remote.origin.pushurl", "/evil.git")},
			[]string{"remote.origin.pushurl = /evil.git in /co/.git/config sends pushes there"}},
		{"two urls", []configEntry{url("file:/h/.gitconfig", "/evil.git"), url("command line:", "/srv/rf.git")},
			[]string{"remote.origin.url is set 2 times (/evil.git in /h/.gitconfig, /srv/rf.git from command line)"}},
		{"a rewrite without a value", []configEntry{url(local, "/srv/rf.git"), {Origin: local, Key: "url.x.insteadof"}},
			[]string{"url.x.insteadOf in /co/.git/config has no value"}},
		{"every reason at once", []configEntry{url(local, "https://u:pw@h/rf.git"), kv(local, "url.https://u:pw@evil/.insteadof", "https://u:pw@h/"),
			kv(local, "url.ssh://evil/.pushinsteadof", "https://")},
			[]string{"url.https://u:REDACTED@evil/.insteadOf = https://u:REDACTED@h/ in /co/.git/config rewrites it to https://u:REDACTED@evil/rf.git",
				"url.ssh://evil/.pushInsteadOf = https:// in /co/.git/config sends pushes to ssh://evil/u:REDACTED@h/rf.git"}},
	} {
		c.es, c.want = onThisPlatform(c.es, c.want)
		t.Run(c.name, func(t *testing.T) {
			got, err := judgeRemote("origin", c.es, coDir)
			if c.want == nil {
				if err != nil || got != c.es[0].Value {
					t.Fatalf("judgeRemote = %q, %v; want %q", got, err, c.es[0].Value)
				}
				return
			}
			var re *redirectError
			if !errors.As(err, &re) {
				t.Fatalf("judgeRemote = %q, %v; want a refusal", got, err)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("refusal lacks %q:\n%v", w, err)
				}
			}
			if strings.Contains(err.Error(), "pw") {
				t.Errorf("a password in the refusal: %v", err)
			}
		})
	}
	if _, err := judgeRemote("origin", []configEntry{url(local, "/a")}[:0], coDir); !errors.Is(err, ErrNotFound) {
		t.Errorf("no url: %v, want ErrNotFound", err)
	}
}
