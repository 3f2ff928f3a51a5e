#!/usr/bin/env bash
# Builds rfhandoff for every supported target into dist/ (or $1), with the
# version from `git describe` (shown by `rfhandoff version`), and writes
# SHA256SUMS beside the binaries.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-dist}
version=$(git describe --tags --always --dirty)
targets=(linux/amd64 linux/arm64 linux/arm windows/amd64 windows/arm64 darwin/amd64 darwin/arm64)

rm -rf "$out"
mkdir -p "$out"
for target in "${targets[@]}"; do
  goos=${target%/*} goarch=${target#*/}
  name="rfhandoff-$version-$goos-$goarch"
  # 32-bit ARM: ARMv6 runs on every Raspberry Pi (the Zero and 1 included).
  [ "$goarch" = arm ] && name="$name"v6
  [ "$goos" = windows ] && name="$name.exe"
  echo "building $name"
  CGO_ENABLED=0 GOOS=$goos GOARCH=$goarch GOARM=6 \
    go build -trimpath -ldflags "-s -w -X main.version=$version" -o "$out/$name" .
done
(cd "$out" && sha256sum -- rfhandoff-* >SHA256SUMS)
echo "wrote $out/SHA256SUMS"
