#!/usr/bin/env bash
# Runs the Windows build's tests under Wine (Debian's wine64, 8.x): every
# package whose tests do not need git, and the Windows binary's offline
# commands. Needs wine64 and gcc-mingw-w64-x86-64; CI (.ci/run) installs
# them. Usage: scripts/test-windows.sh [packages...]
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
cd "$(dirname "$0")/.."
root=$(pwd)

wine=${WINE:-/usr/lib/wine/wine64}
[ -x "$wine" ] || wine=$(command -v wine64 || command -v wine || true)
if [ -z "$wine" ] || [ ! -x "$wine" ]; then echo "test-windows: no wine64 found" >&2; exit 1; fi
command -v x86_64-w64-mingw32-gcc >/dev/null || { echo "test-windows: no x86_64-w64-mingw32-gcc" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/rfhandoff-wine.XXXXXX")
export WINEPREFIX="$work/prefix" WINEDEBUG=-all WINEDLLOVERRIDES="bcryptprimitives=n,b;mscoree=;mshtml="
cleanup() { WINEPREFIX="$WINEPREFIX" wineserver -k 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

echo "== wine prefix ($("$wine" --version 2>/dev/null || echo wine))"
"$wine" wineboot -i >"$work/wineboot.log" 2>&1 || { cat "$work/wineboot.log"; exit 1; }
WINEPREFIX="$WINEPREFIX" wineserver -w 2>/dev/null || true

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

cat >"$work/wine-exec" <<SH
#!/bin/sh
exec "$wine" "\$@"
SH
chmod +x "$work/wine-exec"

export GOOS=windows GOARCH=amd64 CGO_ENABLED=0
# Packages whose tests run without git, and the simulator-driven ones;
# tests that need git skip (gitcli/gittest) with the reason.
pkgs=("$@")
if [ ${#pkgs[@]} -eq 0 ]; then
  pkgs=(./exec/ ./state/ ./prompt/... ./strictjson/ ./task/ ./result/ ./config/ ./backoff/ ./gate/
        ./hacksim/ ./hackrfcli/ ./quicklook/... ./capture/ ./txwatch/ ./gitcli/)
fi
echo "== go test under Wine: ${pkgs[*]}"
go test -count=1 -timeout 10m -overlay "$work/overlay.json" -exec "$work/wine-exec" "${pkgs[@]}"

echo "== the Windows binary's offline commands"
go build -o "$work/rfhandoff.exe" .
go build -o "$work/hackrf_info.exe" ./hacksim/cmd/hacksim 2>/dev/null || true
"$work/wine-exec" "$work/rfhandoff.exe" version
