package config

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"

	"rfhandoff/errlist"
	"rfhandoff/localfile/private"
)

// maxFileBytes bounds a policy file; a real one is a few KiB.
const maxFileBytes = 1 << 20

const (
	DefaultFile = "rfhandoff.toml"
	EnvVar      = "RFHANDOFF_CONFIG"
)

// Load refuses a file inside a git working tree, or one others can change,
// before it is read (PROTOCOL#policy-file).
func Load(path string) (Policy, error) {
	if err := outsideWorkTrees(path); err != nil {
		return Policy{}, fileError(path, err)
	}
	data, err := private.Read(path, maxFileBytes)
	if err != nil {
		return Policy{}, fileError(path, err)
	}
	p, errs, err := decode(data)
	if err != nil {
		return Policy{}, fileError(path, err)
	}
	if len(errs) == 0 {
		if p, err = p.withAbsoluteRepo(); err != nil {
			return Policy{}, fileError(path, err)
		}
	}
	// The files [trust] names are part of the policy: reported with the rest.
	if terr := p.checkTrustFiles(); terr != nil {
		// Read from a directory that is no checkout: that is why.
		if len(errs) == 0 && p.InCheckout() != nil {
			errs = append(errs, p.InCheckout())
		}
		errs = append(errs, errlist.Flatten(terr)...)
	}
	if _, _, err := p.ReadNotifySecrets(); err != nil {
		errs = append(errs, errlist.Flatten(err)...)
	}
	if len(errs) > 0 {
		return Policy{}, fileError(path, errlist.List(errs...))
	}
	return p, nil
}

// Parse decodes data (named name in messages) over Default().
func Parse(data []byte, name string) (Policy, error) {
	p, errs, err := decode(data)
	if err != nil {
		return Policy{}, fileError(name, err)
	}
	if len(errs) > 0 {
		return Policy{}, fileError(name, errlist.List(errs...))
	}
	return p, nil
}

// decode is Parse unwrapped: err stopped the decoder (nothing more can be
// validated reliably), errs are every unknown key and invalid value.
func decode(data []byte) (Policy, []error, error) {
	p := Default()
	md, err := toml.Decode(string(data), &p)
	if err != nil {
		return Policy{}, nil, err
	}
	errs := unknownKeys(md)
	if verr := p.Validate(); verr != nil {
		errs = append(errs, errlist.Flatten(verr)...)
	}
	return p, errs, nil
}

// unknownKeys names every key not byte-equal to a policy key: the decoder
// matches case-insensitively, so md.Undecoded() would let "MIN_REMAINING_S"
// silently set (or race with) the real key.
func unknownKeys(md toml.MetaData) []error {
	known, arrays := knownKeys()
	maps.Copy(known, arrays)
	var errs []error
	reported := map[string]bool{}
	flag := func(k toml.Key) {
		for i := 1; i <= len(k); i++ { // once each; a key under an unknown table is implied
			if reported[k[:i].String()] {
				return
			}
		}
		s := k.String()
		reported[s] = true
		errs = append(errs, unknownKeyError(s, len(k) == 1, suggest(k, known)))
	}
	undecoded := map[string]bool{}
	for _, k := range md.Undecoded() {
		undecoded[k.String()] = true
	}
	for _, k := range md.Keys() { // document order
		if undecoded[k.String()] || !known[strings.Join(k, "\x00")] {
			flag(k)
		}
	}
	return errs
}

// knownKeys reads Policy's struct tags, so the list cannot drift; arrays of
// tables ([[nodes]]) apart, as a policy need not hold any.
func knownKeys() (tables, arrays map[string]bool) {
	tables, arrays = map[string]bool{}, map[string]bool{}
	pt := reflect.TypeOf(Policy{})
	for i := 0; i < pt.NumField(); i++ {
		tf := pt.Field(i)
		table, _, _ := strings.Cut(tf.Tag.Get("toml"), ",")
		if table == "" || !tf.IsExported() {
			continue
		}
		known, tt := tables, tf.Type
		if tt.Kind() == reflect.Slice {
			known, tt = arrays, tt.Elem()
		}
		known[table] = true
		for j := 0; j < tt.NumField(); j++ {
			if key, _, _ := strings.Cut(tt.Field(j).Tag.Get("toml"), ","); key != "" && key != "-" { // "-": never in a file
				known[table+"\x00"+key] = true
			}
		}
	}
	return tables, arrays
}

// suggest finds the known key a misspelt one most likely meant.
func suggest(k toml.Key, known map[string]bool) string {
	best, bestD := "", 3 // at most two edits away
	for kk := range known {
		parts := strings.Split(kk, "\x00")
		if len(parts) != len(k) {
			continue
		}
		d := 0
		for i := range parts {
			d += editDistance(strings.ToLower(k[i]), parts[i])
		}
		if d < bestD || d == bestD && best != "" && formatKey(parts) < best {
			best, bestD = formatKey(parts), d
		}
	}
	if best == "" && len(k) == 2 { // right key, wrong table; sorted, so the same table each run
		for _, kk := range slices.Sorted(maps.Keys(known)) {
			if parts := strings.Split(kk, "\x00"); len(parts) == 2 && parts[1] == k[1] {
				return formatKey(parts)
			}
		}
	}
	return best
}

func formatKey(parts []string) string {
	if len(parts) == 1 {
		return "[" + parts[0] + "]"
	}
	return strings.Join(parts, ".")
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// Locate picks the policy file: the --config flag, else $RFHANDOFF_CONFIG,
// else ./rfhandoff.toml when it exists, else "" for the built-in defaults.
// A named file must exist: falling back would silently drop the policy.
func Locate(flag string, getenv func(string) string, stat func(string) error) (string, error) {
	if flag != "" {
		if err := stat(flag); err != nil {
			return "", fmt.Errorf("--config %s: %w", flag, err)
		}
		return flag, nil
	}
	if env := getenv(EnvVar); env != "" {
		if err := stat(env); err != nil {
			return "", fmt.Errorf("$%s=%s: %w", EnvVar, env, err)
		}
		return env, nil
	}
	switch err := stat(DefaultFile); {
	case err == nil:
		return DefaultFile, nil
	case errors.Is(err, fs.ErrNotExist):
		return "", nil
	default:
		return "", fmt.Errorf("%s: %w", DefaultFile, err)
	}
}

// LoadLocated loads the file Locate picked, or Default() for "".
func LoadLocated(path string) (Policy, error) {
	if path == "" {
		return Default().withAbsoluteRepo()
	}
	return Load(path)
}

// outsideWorkTrees: a pulled commit can bring in or replace a file inside a
// working tree, even an ignored one, so it is the branch's, not the
// operator's (issue 29). Asking git would run the tools the policy names.
func outsideWorkTrees(path string) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	dirs := []string{filepath.Dir(abs)}
	if real, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil && real != dirs[0] {
		dirs = append(dirs, real)
	}
	for _, d := range dirs {
		if top := WorkTreeTop(d); top != "" {
			return fmt.Errorf("lies inside the git working tree %s: git writes files there (a commit on a branch it pulls can bring this file in or replace it, "+
				"even one git ignores), so it is not only yours; keep the policy outside every checkout, e.g. %s, and name it with --config or $%s",
				top, filepath.Join("~", ".config", "rfhandoff", DefaultFile), EnvVar)
		}
	}
	return nil
}

// WorkTreeTop is the nearest directory at or above dir (absolute; parents
// taken lexically) holding a .git entry (a directory, or a linked
// worktree's or submodule's file), as git finds it without running git; or "".
func WorkTreeTop(dir string) string {
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}
