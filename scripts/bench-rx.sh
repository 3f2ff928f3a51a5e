#!/bin/sh
# bench-rx.sh — the RX watcher's benchmarks (PROTOCOL#subprocesses targets):
#   BenchmarkIdlePoll  subprocs/poll (target 1), cpu-ms/poll of git children,
#                      self-cpu-ms/poll of rfhandoff itself
#   BenchmarkDetect    ms/detect and max-ms/detect from a push of a new task
#                      to its detection at a 1 s poll interval
#                      (target: max within the interval plus one fetch)
# They run real git against a temporary bare remote; no network, no hardware.
# Usage: scripts/bench-rx.sh [extra go test flags, e.g. -count=3]
set -eu
cd "$(dirname "$0")/.."
exec go test ./rxside -run '^$' -bench 'IdlePoll|Detect' -benchtime 20x "$@"
