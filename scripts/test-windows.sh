#!/usr/bin/env bash
# Runs the Windows build's tests under Wine (Debian's wine64, 8.x).
#
#   scripts/test-windows.sh [packages...]        what CI runs: the packages
#       whose tests pass without git.exe (a test that needs git skips, naming
#       it), then the Windows binary's offline commands and the simulator.
#   scripts/test-windows.sh --git [packages...]  the git half too: a Windows
#       git.exe (scripts/build-git-windows.sh; RFHANDOFF_GIT_WINDOWS names a
#       tree built before) first on the Windows PATH, every package (or those
#       named), then TestFirstRunUnderWine (both machines on rfhandoff.exe;
#       with named packages only when RFHANDOFF_WINE_E2E=1). CI runs it for
#       the git-backed packages that fit its time; the whole run takes 20
#       minutes to an hour on 2 cores and fails 17 tests (docs/TESTING.md).
#
# A package given as PKG=REGEX runs only the tests REGEX matches.
# RFHANDOFF_WINE_RUN is go test's -run for the other packages' tests,
# RFHANDOFF_WINE_TIMEOUT its -timeout (20m); RFHANDOFF_WINE_LOG keeps the
# whole go test -v output (and TestFirstRunUnderWine's in
# $RFHANDOFF_WINE_LOG.e2e); RFHANDOFF_WINE_E2E=1 runs TestFirstRunUnderWine
# after named packages too. The tests run with -vet=off: vet the Windows
# build with `GOOS=windows go vet ./...`, as .ci/run does before.
#
# Needs wine64 and gcc-mingw-w64-x86-64 (--git: what build-git-windows.sh
# needs); CI (.ci/run) installs them. Counts of passed/skipped/failed tests
# are printed at the end.
#
# Two things Wine 8 lacks, worked around here and only here:
#  - bcryptprimitives.dll!ProcessPrng, which Go >= 1.22 needs at start: a
#    shim DLL exporting it on top of RtlGenRandom (advapi32!SystemFunction036)
#    is built with mingw and put into the prefix's system32.
#  - NtSetInformationFile(FileDispositionInformationEx), which Go's
#    os.RemoveAll uses: Wine answers STATUS_NOT_IMPLEMENTED, where Go only
#    falls back to the older call on STATUS_INVALID_INFO_CLASS. The tests
#    are built with an -overlay of that one standard-library file that
#    falls back on STATUS_NOT_IMPLEMENTED too (real Windows 10 >= 1607 has
#    the call). The release binaries are built without any overlay.
set -euo pipefail
withgit=
if [ "${1:-}" = "--git" ]; then withgit=1; shift; fi
cd "$(dirname "$0")/.."
root=$(pwd)

wine=${WINE:-/usr/lib/wine/wine64}
[ -x "$wine" ] || wine=$(command -v wine64 || command -v wine || true)
if [ -z "$wine" ] || [ ! -x "$wine" ]; then echo "test-windows: no wine64 found" >&2; exit 1; fi
command -v x86_64-w64-mingw32-gcc >/dev/null || { echo "test-windows: no x86_64-w64-mingw32-gcc" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/rfhandoff-wine.XXXXXX")
export WINEPREFIX="$work/prefix" WINEDEBUG=-all WINEDLLOVERRIDES="bcryptprimitives=n,b;mscoree=;mshtml="
wineserver() { "$(dirname "$wine")/wineserver" "$@"; }
cleanup() {
  [ -f "$work/daemon.pid" ] && kill "$(cat "$work/daemon.pid")" 2>/dev/null || true
  wineserver -k 2>/dev/null || true
  wineserver -w 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

echo "== wine prefix ($("$wine" --version 2>/dev/null || echo wine))"
"$wine" wineboot -i >"$work/wineboot.log" 2>&1 || { cat "$work/wineboot.log"; exit 1; }
wineserver -w 2>/dev/null || true

echo "== ProcessPrng shim"
cat >"$work/prng.c" <<'C'
#include <windows.h>
BOOLEAN WINAPI SystemFunction036(PVOID buf, ULONG len);
BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) {
	while (len > 0) {
		ULONG n = len > 0x40000000 ? 0x40000000 : (ULONG)len;
		if (!SystemFunction036(data, n)) return FALSE;
		data += n;
		len -= n;
	}
	return TRUE;
}
C
printf 'LIBRARY bcryptprimitives\nEXPORTS\n    ProcessPrng\n' >"$work/prng.def"
x86_64-w64-mingw32-gcc -shared -O2 -o "$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll" \
  "$work/prng.c" "$work/prng.def" -ladvapi32

echo "== overlay for os.RemoveAll under Wine"
at="$(go env GOROOT)/src/internal/syscall/windows/at_windows.go"
grep -q 'case STATUS_INVALID_INFO_CLASS,' "$at" || { echo "test-windows: $at changed; update the overlay" >&2; exit 1; }
sed 's|case STATUS_INVALID_INFO_CLASS,|case STATUS_INVALID_INFO_CLASS, NTStatus(0xC0000002),|' "$at" >"$work/at_windows.go"
printf '{"Replace":{"%s":"%s"}}\n' "$at" "$work/at_windows.go" >"$work/overlay.json"

# The test binary's output goes through a file: a Windows process it
# starts can outlive it under Wine (services.exe and friends, which Wine
# starts on demand, inherit the starter's descriptors), and would hold
# go test's pipe open ("Test I/O incomplete ... after exiting").
cat >"$work/wine-exec" <<SH
#!/bin/sh
out=\$(mktemp "$work/out.XXXXXX")
"$wine" "\$@" >"\$out" 2>&1
rc=\$?
cat "\$out"
rm -f "\$out"
exit \$rc
SH
chmod +x "$work/wine-exec"
win() { "$wine" winepath -w "$1" 2>/dev/null | tr -d '\r'; }

if [ -n "$withgit" ]; then
  echo "== git.exe"
  gittree=${RFHANDOFF_GIT_WINDOWS:-$("$root/scripts/build-git-windows.sh")}
  [ -x "$gittree/mingw64/bin/git.exe" ] || { echo "test-windows: no git.exe in $gittree" >&2; exit 1; }
  # Wine puts WINEPATH before PATH for Windows programs: git.exe is found
  # there, as an installed Git for Windows is on PATH.
  WINEPATH=$(win "$gittree/mingw64/bin")
  export WINEPATH
  "$wine" "$gittree/mingw64/bin/git.exe" version | tr -d '\r'

  echo "== a git daemon on the Linux side for the fixtures' remotes"
  # The fixtures' bare repositories live in the Windows temp directory; a
  # Linux git daemon serves them (gittest.ServeURL), as a lab's server is
  # another machine: git-daemon.exe under Wine broke large pushes ("early
  # EOF"), and the remotes' shell hooks need an sh git.exe lacks. The
  # remote-goes-away tests still start git-daemon.exe themselves.
  wintemp=$("$wine" cmd /c echo %TEMP% 2>/dev/null | tr -d '\r')
  hosttemp=$("$wine" winepath -u "$wintemp" 2>/dev/null | tr -d '\r')
  [ -d "$hosttemp" ] || { echo "test-windows: Wine's %TEMP% ($wintemp) is not a directory here" >&2; exit 1; }
  daemonport=
  for _ in $(seq 20); do
    p=$((20000 + RANDOM % 40000))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then daemonport=$p; break; fi
  done
  [ -n "$daemonport" ] || { echo "test-windows: no free port for the git daemon" >&2; exit 1; }
  mkdir -p "$work/daemon-home"
  env -i PATH="$PATH" HOME="$work/daemon-home" GIT_CONFIG_NOSYSTEM=1 \
    git daemon --listen=127.0.0.1 --port="$daemonport" --reuseaddr --export-all --enable=receive-pack \
      --informative-errors --pid-file="$work/daemon.pid" --base-path="$hosttemp" "$hosttemp" >"$work/daemon.log" 2>&1 &
  for _ in $(seq 50); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$daemonport") 2>/dev/null; then break; fi
    sleep 0.1
  done
  export RFHANDOFF_WINE_GIT_DAEMON="git://127.0.0.1:$daemonport" RFHANDOFF_WINE_GIT_DAEMON_BASE="$wintemp"
  echo "git daemon on 127.0.0.1:$daemonport serving $wintemp"
fi

export GOOS=windows GOARCH=amd64 CGO_ENABLED=0
bin="$work/bin"
mkdir -p "$bin"
# With the overlay too: the binary the tests run under Wine removes its
# temporary publish clones as it would on Windows.
go build -overlay "$work/overlay.json" -o "$bin/rfhandoff.exe" .

pkgs=("$@")
full=
if [ ${#pkgs[@]} -eq 0 ] && [ -n "$withgit" ]; then
  mapfile -t pkgs < <(go list ./...)
  full=1
elif [ ${#pkgs[@]} -eq 0 ]; then
  # CI's run: the packages whose tests pass under Wine without git.exe
  # (tests that need git skip, naming it). The git half is --git.
  pkgs=(./exec/ ./localfile/... ./state/ ./captureplan/ ./prompt/ ./internal/prompttest/ ./strictjson/ ./task/ ./result/ ./config/ ./backoff/ ./gate/...
        ./hacksim/ ./hackrfcli/ ./quicklook/ ./capture/ ./txwatch/ ./transmit/ ./gitcli/ ./gitcli/sshsig/ ./demo/
        ./hiddentext/ ./node/ ./sigmf/ ./notify/ ./errlist/)
fi
echo "== go test under Wine: ${#pkgs[@]} packages"
log="$work/test.log"
: >"$log"
status=0
# A package named PKG=REGEX runs only the tests REGEX matches (go test
# -run); packages with the same filter run in one go test.
declare -A group=()
order=()
for a in "${pkgs[@]}"; do
  p=$a r=${RFHANDOFF_WINE_RUN:-}
  if [[ $a == *=* ]]; then p=${a%%=*} r=${a#*=}; fi
  [ -n "${group["f$r"]+x}" ] || order+=("f$r")
  group["f$r"]+="$p "
done
for key in "${order[@]}"; do
  runflags=(-timeout "${RFHANDOFF_WINE_TIMEOUT:-20m}")
  [ "$key" = f ] || runflags+=(-run "${key#f}")
  read -r -a these <<<"${group[$key]}"
  group_start=$SECONDS filtered=
  [ "$key" = f ] || filtered=" filtered"
  RFHANDOFF_E2E_BIN=$(win "$bin/rfhandoff.exe") \
    go test -count=1 -p 2 -vet=off "${runflags[@]}" -v -overlay "$work/overlay.json" -exec "$work/wine-exec" "${these[@]}" >>"$log" 2>&1 || status=$?
  echo "test-windows: ${#these[@]} package(s)$filtered in $((SECONDS - group_start)) s"
done
tr -d '\r' <"$log" | grep -E '^(ok|FAIL|---|panic:|\?)' | grep -vE '^    --- PASS' | grep -vE '^--- PASS' || true
count() { tr -d '\r' <"$log" | grep -cE "^ *--- $1:" || true; }
echo "test-windows: go test under Wine: $(count PASS) passed, $(count SKIP) skipped, $(count FAIL) failed"
[ -n "${RFHANDOFF_WINE_LOG:-}" ] && tr -d '\r' <"$log" >"$RFHANDOFF_WINE_LOG"
if [ "$status" -ne 0 ]; then
  tr -d '\r' <"$log" | grep -B30 -E '^ *--- FAIL' | tail -200 >&2
  exit "$status"
fi

echo "== the Windows binary: offline commands, the simulator, capture plot"
# The simulator answers to the HackRF tools' names: copies, as symlinks
# need a privilege on Windows.
cp "$bin/rfhandoff.exe" "$bin/hackrf_info.exe"
cp "$bin/rfhandoff.exe" "$bin/hackrf_transfer.exe"
cp "$bin/rfhandoff.exe" "$bin/hackrf_clock.exe"
run() { "$work/wine-exec" "$@" 2>&1 | tr -d '\r'; }
expect() { # expect WHAT PATTERN OUTPUT
  if ! grep -q -- "$2" <<<"$3"; then printf 'test-windows: %s: want /%s/, got:\n%s\n' "$1" "$2" "$3" >&2; exit 1; fi
  echo "ok   $1"
}
expect "version" '^rfhandoff ' "$(run "$bin/rfhandoff.exe" version)"
expect "config check (defaults)" 'built-in defaults' "$(run "$bin/rfhandoff.exe" config check)"
# Copied out of the checkout first, as README says: a policy inside a git
# working tree is refused.
cp "$root/config.toml.example" "$work/example.toml"
expect "config check (example)" 'min_remaining_s = 10' "$(run "$bin/rfhandoff.exe" --config "$(win "$work/example.toml")" config check)"
printf '[limits]\r\nmin_remaining_s = 5\r\n' >"$work/bad.toml"
expect "config check (bad, CRLF)" 'min_remaining_s' "$(run "$bin/rfhandoff.exe" --config "$(win "$work/bad.toml")" config check || true)"
expect "task validate" 'valid task SW_PARSE_CHECK_001' "$(run "$bin/rfhandoff.exe" task validate "$(win "$root/testdata/tasks/valid_green.md")")"
expect "task validate (CRLF, BOM)" 'valid task' "$(run "$bin/rfhandoff.exe" task validate "$(win "$root/testdata/tasks/valid_crlf_bom.md")")"
out=$(run "$bin/rfhandoff.exe" task validate "$(win "$root/testdata/tasks/invalid_missing_fields.md")" || true)
expect "task validate (invalid)" 'invalid_missing_fields.md' "$out"
expect "result validate" 'valid result: task RX_OTA_0001' "$(run "$bin/rfhandoff.exe" result validate "$(win "$root/testdata/results/complete.json")")"
expect "demo --auto refused" 'not available on Windows' "$(run "$bin/rfhandoff.exe" demo --auto || true)"
if ls -d "$WINEPREFIX"/drive_c/users/*/AppData/Local/Temp/rfhandoff-demo-* "$WINEPREFIX"/drive_c/users/*/Temp/rfhandoff-demo-* 2>/dev/null | grep -q .; then
  echo "test-windows: the refused demo --auto left a sandbox" >&2; exit 1
fi
echo "ok   demo --auto created no sandbox"
expect "hackrf_info.exe (simulator)" 'Found HackRF' "$(run "$bin/hackrf_info.exe")"
run "$bin/hackrf_transfer.exe" -r "$(win "$work/x.ci8")" -f 433920000 -s 2000000 -n 4000000 >/dev/null
[ "$(stat -c %s "$work/x.ci8")" -eq 8000000 ] || { echo "test-windows: hackrf_transfer.exe wrote $(stat -c %s "$work/x.ci8") bytes, want 8000000" >&2; exit 1; }
echo "ok   hackrf_transfer.exe -r (simulator): 8000000 bytes"
expect "capture plot" 'wrote' "$(run "$bin/rfhandoff.exe" capture plot "$(win "$work/x.ci8")" --sample-rate 2000000 --frequency 433920000 -o "$(win "$work/x.png")")"
[ "$(head -c 8 "$work/x.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || { echo "test-windows: capture plot wrote no PNG" >&2; exit 1; }
echo "ok   capture plot wrote a PNG"
if [ -n "$withgit" ] && { [ -n "$full" ] || [ -n "${RFHANDOFF_WINE_E2E:-}" ]; }; then
  echo "== both machines on the Windows binary under Wine (e2e TestFirstRunUnderWine, hosted on Linux)"
  # A Linux test: it drives wine rfhandoff.exe on raw ptys as an operator
  # at a console, against a Linux git daemon.
  e2elog="$work/e2e-wine.log"
  e2e_status=0
  e2e_start=$SECONDS
  GOOS=$(go env GOHOSTOS) GOARCH=$(go env GOHOSTARCH) RFHANDOFF_WINE="$wine" RFHANDOFF_WINE_BIN="$bin" \
    go test -count=1 -timeout 15m -run '^TestFirstRunUnderWine$' -v ./e2e/ >"$e2elog" 2>&1 || e2e_status=$?
  [ -n "${RFHANDOFF_WINE_LOG:-}" ] && cp "$e2elog" "$RFHANDOFF_WINE_LOG.e2e"
  if [ "$e2e_status" -ne 0 ] || ! grep -q -- '^--- PASS: TestFirstRunUnderWine' "$e2elog"; then
    tail -100 "$e2elog" >&2
    echo "test-windows: the first run under Wine did not pass" >&2
    exit 1
  fi
  echo "ok   the first run under Wine: task new, rx check, rx approve, rx capture (READY, COMPLETE), tx watch, tx execute, audit verify ($((SECONDS - e2e_start)) s)"
fi
if [ -z "$withgit" ] && [ -n "${RFHANDOFF_GIT_WINDOWS:-}" ]; then
  # CI builds git.exe (the build script and its source checks run every
  # time) and checks that it starts and works on a repository under Wine.
  g="$RFHANDOFF_GIT_WINDOWS/mingw64/bin/git.exe"
  expect "git.exe version" '^git version ' "$(run "$g" version)"
  mkdir -p "$work/gitexe"
  run "$g" init -q "$(win "$work/gitexe/r")" >/dev/null
  expect "git.exe hash-object in a new repository" '^[0-9a-f]\{40\}$' "$(printf 'x\n' | "$work/wine-exec" "$g" -C "$(win "$work/gitexe/r")" hash-object --stdin 2>&1 | tr -d '\r')"
fi
echo "test-windows: all passed"
