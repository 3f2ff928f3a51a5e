#!/usr/bin/env bash
# build-git-windows.sh — a Windows git.exe cross-built with mingw-w64 from
# Debian's own git source package, for the Wine suite (scripts/test-windows.sh).
#
# Usage: scripts/build-git-windows.sh      prints the staged tree's path
#
# The staged tree has Git for Windows' layout, so git's runtime prefix finds
# its parts the way it does in C:\Program Files\Git:
#   <tree>/mingw64/bin/git.exe                  (put this directory on WINEPATH)
#   <tree>/mingw64/libexec/git-core/git{,-upload-pack,-receive-pack,-daemon}.exe
#   <tree>/mingw64/share/git-core/templates/
#   <tree>/etc/gitconfig                        Git for Windows' system config
#
# The source: `apt-get source --download-only git` (apt checks the .dsc
# against the signed Sources index), then dpkg-source checks the tarballs
# against the .dsc, and the upstream tarball against the sha256 pinned
# below (bump it deliberately). The tree is cached under
# $RFHANDOFF_CACHE (default /var/cache/rfhandoff as root, else
# ${XDG_CACHE_HOME:-$HOME/.cache}/rfhandoff), keyed by the .dsc's sha256 and
# this script's; a second run with the same key builds nothing.
#
# Needs: gcc-mingw-w64-x86-64, libz-mingw-w64-dev, dpkg-dev, make, and a
# deb-src entry (.ci/run adds one). About 2 minutes on 2 cores, built
# -O1 without debug information (git's default is -g -O2): CI builds it
# on every fresh machine (docs/DESIGN.md, 2026-12-03).
#
# Two source edits, both needed only because of where it is built and run:
#  - wrapper.c and compat/win32/trace2_win32_process_info.c include
#    <NTSecAPI.h>, <Psapi.h>, <tlHelp32.h>: mingw's headers on Linux's
#    case-sensitive file system are lower-case.
#  - compat/winansi.c detect_msys_tty() writes through the name buffer that
#    NtQueryObject returns for a pipe; Wine 8 returns a NULL buffer for an
#    anonymous pipe, and every git.exe whose stdout is a pipe (every git a Go
#    program runs) dies with a page fault. It now returns when the name is
#    NULL or empty (no such pipe is an MSYS pty anyway).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

orig_sha256=c58da92c378df4a986ca33266897a7397e86c22ee266a284d8c2432c39066b59 # git_2.39.5.orig.tar.xz
orig_name=git_2.39.5.orig.tar.xz

if [ -n "${RFHANDOFF_CACHE:-}" ]; then
  cache=$RFHANDOFF_CACHE
elif [ "$(id -u)" -eq 0 ]; then
  cache=/var/cache/rfhandoff
else
  cache=${XDG_CACHE_HOME:-$HOME/.cache}/rfhandoff
fi
mkdir -p "$cache/git-windows"

missing=()
for tool in x86_64-w64-mingw32-gcc x86_64-w64-mingw32-windres dpkg-source make; do
  command -v "$tool" >/dev/null || missing+=("$tool")
done
[ -f /usr/x86_64-w64-mingw32/lib/libz.a ] || missing+=("/usr/x86_64-w64-mingw32/lib/libz.a (libz-mingw-w64-dev)")
if [ ${#missing[@]} -gt 0 ]; then
  echo "build-git-windows: missing ${missing[*]}" >&2
  exit 1
fi

dl=$(mktemp -d "${TMPDIR:-/tmp}/git-windows-src.XXXXXX")
trap 'rm -rf "$dl"' EXIT
# apt drops privileges to _apt for downloads; let it write here.
chmod 0777 "$dl"
(cd "$dl" && apt-get source --download-only -qq git >/dev/null 2>"$dl/apt.log") || {
  cat "$dl/apt.log" >&2
  echo "build-git-windows: apt-get source git failed (is there a deb-src entry?)" >&2
  exit 1
}
dsc=$(ls "$dl"/git_*.dsc)
[ -f "$dl/$orig_name" ] || { echo "build-git-windows: $orig_name not in the source package ($(ls "$dl" | tr '\n' ' ')); bump the pin" >&2; exit 1; }
got=$(sha256sum "$dl/$orig_name" | cut -d' ' -f1)
if [ "$got" != "$orig_sha256" ]; then
  echo "build-git-windows: $orig_name has sha256 $got, pinned $orig_sha256" >&2
  exit 1
fi
key=$( (sha256sum "$dsc" | cut -d' ' -f1; sha256sum "$here/build-git-windows.sh" | cut -d' ' -f1) | sha256sum | cut -c1-16)
tree="$cache/git-windows/$key"
if [ -x "$tree/mingw64/bin/git.exe" ] && [ -f "$tree/.complete" ]; then
  echo "build-git-windows: cached $(basename "$dsc") in $tree" >&2
  echo "$tree"
  exit 0
fi

echo "build-git-windows: building $(basename "$dsc") into $tree" >&2
# dpkg-source -x checks each file against the .dsc's checksums.
dpkg-source -x "$dsc" "$dl/src" >"$dl/dpkg-source.log" 2>&1 || { cat "$dl/dpkg-source.log" >&2; exit 1; }
src="$dl/src"

# edit FILE SED-EXPR WANT: apply one edit and fail unless WANT is then there.
edit() {
  sed -i "$2" "$src/$1"
  grep -qF -- "$3" "$src/$1" || { echo "build-git-windows: edit of $1 did not apply ($2)" >&2; exit 1; }
}
edit wrapper.c 's|<NTSecAPI.h>|<ntsecapi.h>|' '<ntsecapi.h>'
edit compat/win32/trace2_win32_process_info.c 's|<Psapi.h>|<psapi.h>|; s|<tlHelp32.h>|<tlhelp32.h>|' '<tlhelp32.h>'
edit compat/winansi.c 's|^\tname = nameinfo->Name.Buffer;$|\tname = nameinfo->Name.Buffer;\n\tif (!name \|\| !nameinfo->Name.Length) /* Wine: an anonymous pipe has no name */\n\t\treturn;|' 'Wine: an anonymous pipe has no name'

mk=(uname_S=MINGW uname_M=x86_64 uname_O=Windows uname_R=2.0 MSYSTEM=MINGW64
    CC=x86_64-w64-mingw32-gcc AR=x86_64-w64-mingw32-ar "RC=x86_64-w64-mingw32-windres -O coff"
    NO_CURL=1 NO_OPENSSL=1 NO_GETTEXT=1 NO_PERL=1 NO_PYTHON=1 NO_TCLTK=1 NO_ICONV=1 NO_EXPAT=1
    USE_LIBPCRE= USE_LIBPCRE2= HAVE_LIBCHARSET_H= LDFLAGS=-static
    "CFLAGS=-O1 -Wall")
make -C "$src" -j"$(nproc)" "${mk[@]}" git.exe git-daemon.exe >"$dl/make.log" 2>&1 || { tail -40 "$dl/make.log" >&2; exit 1; }
make -C "$src/templates" >>"$dl/make.log" 2>&1 || { tail -40 "$dl/make.log" >&2; exit 1; }

stage="$tree.tmp"
rm -rf "$stage"
mkdir -p "$stage/mingw64/bin" "$stage/mingw64/libexec/git-core" "$stage/mingw64/share/git-core" "$stage/etc"
# The builtins are copies of git.exe under their dashed names, as Git for
# Windows installs them (no hard links: the cache may be copied around).
for name in git git-upload-pack git-receive-pack git-upload-archive; do
  cp "$src/git.exe" "$stage/mingw64/libexec/git-core/$name.exe"
done
cp "$src/git.exe" "$stage/mingw64/bin/git.exe"
cp "$src/git-daemon.exe" "$stage/mingw64/libexec/git-core/git-daemon.exe"
cp -r "$src/templates/blt" "$stage/mingw64/share/git-core/templates"
# Git for Windows' installer writes these into its system config.
cat >"$stage/etc/gitconfig" <<'CFG'
[core]
	autocrlf = true
	symlinks = false
	fscache = true
CFG
if x86_64-w64-mingw32-objdump -p "$stage/mingw64/bin/git.exe" | grep -i 'DLL Name' | grep -viE ' (kernel32|advapi32|user32|ws2_32|msvcrt|ntdll|shell32|ole32|oleaut32|crypt32|psapi|gdi32|secur32|bcrypt|rpcrt4|iphlpapi|userenv|api-ms-win-[a-z0-9-]+)\.dll' >"$dl/dlls"; then
  echo "build-git-windows: git.exe needs non-system DLLs:" >&2
  cat "$dl/dlls" >&2
  exit 1
fi
echo "$(basename "$dsc") sha256 $(sha256sum "$dsc" | cut -d' ' -f1); edits: header case, winansi NULL pipe name" >"$stage/.complete"
rm -rf "$tree"
mv "$stage" "$tree"
echo "$tree"
