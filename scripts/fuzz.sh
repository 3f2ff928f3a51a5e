#!/usr/bin/env bash
# fuzz.sh — run every Go fuzz target in the repository for a set time each.
#
# Usage: scripts/fuzz.sh [-fuzztime DURATION] [REGEXP]
#   -fuzztime  time per target (default $FUZZTIME or 20s; Go syntax, or Nx for N execs)
#   REGEXP     only targets whose name matches (default: all)
#
# Targets are discovered with `go test -list 'Fuzz.*' ./...`. Plain `go test`
# already replays each target's seeds (f.Add and testdata/fuzz/FuzzXxx/*);
# this script explores beyond them, one target at a time (Go fuzzes one
# target per invocation). A failing input is written by Go to
# <package>/testdata/fuzz/<FuzzXxx>/<hash>: the script lists it at the end,
# fix the bug and commit the file so it stays a regression test.
set -euo pipefail

fuzztime="${FUZZTIME:-20s}"
filter='.*'
while [ $# -gt 0 ]; do
	case "$1" in
	-fuzztime | --fuzztime) fuzztime="$2"; shift 2 ;;
	-fuzztime=* | --fuzztime=*) fuzztime="${1#*=}"; shift ;;
	-h | --help) sed -n '2,14p' "$0"; exit 0 ;;
	*) filter="$1"; shift ;;
	esac
done

cd "$(dirname "$0")/.."

# `go test -list` prints a package's matching names, then "ok <pkg> <time>".
targets=()
names=()
while IFS= read -r line; do
	case "$line" in
	Fuzz*) names+=("$line") ;;
	ok*)
		pkg=$(awk '{print $2}' <<<"$line")
		for n in "${names[@]+"${names[@]}"}"; do targets+=("$pkg $n"); done
		names=()
		;;
	*) names=() ;;
	esac
done < <(go test -list 'Fuzz.*' ./... 2>/dev/null || true)

if [ ${#targets[@]} -eq 0 ]; then
	echo "fuzz.sh: no fuzz targets found (does the module build?)" >&2
	exit 1
fi

before=$(mktemp)
trap 'rm -f "$before"' EXIT
git ls-files --others --exclude-standard -- '*/testdata/fuzz/*' >"$before" 2>/dev/null || true

# Every target should have a checked-in seed corpus beside f.Add's seeds.
for t in "${targets[@]}"; do
	read -r pkg name <<<"$t"
	dir="${pkg#"$(go list -m)"}"
	dir=".${dir}/testdata/fuzz/${name}"
	if [ ! -d "$dir" ]; then
		echo "fuzz.sh: warning: $pkg $name has no checked-in seed corpus ($dir)" >&2
	fi
done

failed=()
ran=0
for t in "${targets[@]}"; do
	read -r pkg name <<<"$t"
	[[ "$name" =~ $filter ]] || continue
	ran=$((ran + 1))
	echo "=== $pkg $name ($fuzztime)"
	if ! go test -run '^$' -fuzz "^${name}\$" -fuzztime "$fuzztime" "$pkg"; then
		failed+=("$pkg $name")
	fi
done

echo
echo "fuzz.sh: $ran targets, ${#failed[@]} failed, $fuzztime each"
new=$(git ls-files --others --exclude-standard -- '*/testdata/fuzz/*' 2>/dev/null | grep -vxF -f "$before" || true)
if [ -n "$new" ]; then
	echo "new failing inputs (fix, then commit them as regression seeds):"
	echo "$new" | sed 's/^/  /'
fi
if [ ${#failed[@]} -gt 0 ]; then
	printf '  FAILED %s\n' "${failed[@]}"
	exit 1
fi
