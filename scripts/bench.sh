#!/usr/bin/env bash
# bench.sh — run the project's benchmarks and print ONE Markdown table,
# with the machine it ran on.
#
# Usage: scripts/bench.sh [-quick]
#   -quick   fewer iterations and smaller sizes (a smoke run, ~2 min)
#
# Environment (defaults in brackets):
#   CAPTURE_BENCH_SECONDS        planned capture length for COMPLETE latency [25, 1 GB;
#                                quick 3, and only the real-time case]
#   RFHANDOFF_BENCH_AUDIT_LINES  existing lines for the long audit append [1000000; quick 100000]
#   RFHANDOFF_BENCH_POLLS        polls for the watcher RSS sample [1000; quick 100]
#   RFHANDOFF_BENCH_MEDIA_MB     media pushed with a task before the measured poll [300; quick 30]
#   BENCH_RAW                    also keep the raw `go test -bench` output in this file
set -euo pipefail
cd "$(dirname "$0")/.."

quick=0
[ "${1:-}" = "-quick" ] && quick=1

if [ $quick = 1 ]; then
	: "${CAPTURE_BENCH_SECONDS:=3}" "${RFHANDOFF_BENCH_AUDIT_LINES:=100000}" "${RFHANDOFF_BENCH_POLLS:=100}" "${RFHANDOFF_BENCH_MEDIA_MB:=30}"
	capture_cases='/^realtime$' # "fast" writes 3 s of samples before READY can be pushed
	n_idle=50 n_detect=3 n_pub=5 n_hist=3 n_audit=500
else
	: "${CAPTURE_BENCH_SECONDS:=25}" "${RFHANDOFF_BENCH_AUDIT_LINES:=1000000}" "${RFHANDOFF_BENCH_POLLS:=1000}" "${RFHANDOFF_BENCH_MEDIA_MB:=300}"
	capture_cases=''
	n_idle=300 n_detect=10 n_pub=20 n_hist=10 n_audit=2000
fi
export CAPTURE_BENCH_SECONDS RFHANDOFF_BENCH_AUDIT_LINES RFHANDOFF_BENCH_POLLS RFHANDOFF_BENCH_MEDIA_MB

raw=$(mktemp)
rows=$(mktemp)
trap 'rm -f "$raw" "$rows"' EXIT

# bench LABEL PACKAGE NAME BENCHTIME [SUB]: run one benchmark (and its
# sub-benchmarks matching the -bench pattern suffix SUB, e.g. '/^fast$').
bench() {
	local label=$1 pkg=$2 name=$3 benchtime=$4 sub=${5:-}
	if ! go test -list "^${name}\$" "$pkg" 2>/dev/null | grep -x "$name" >/dev/null; then
		printf '| %s | `%s` | — | not found in %s |\n' "$label" "${name#Benchmark}" "$pkg" >>"$rows"
		return
	fi
	echo ">>> $label: go test -bench '^${name}\$${sub}' -benchtime $benchtime $pkg" >&2
	local out
	if ! out=$(go test -run '^$' -bench "^${name}\$${sub}" -benchtime "$benchtime" -timeout 60m "$pkg" 2>&1); then
		printf '%s\n' "$out" >&2
		printf '| %s | `%s` | — | FAILED (see stderr) |\n' "$label" "${name#Benchmark}" >>"$rows"
		return
	fi
	printf '%s\n' "$out" >>"$raw"
	# "BenchmarkX/sub-2  N  123 ns/op  4.5 unit ..." -> one row per metric.
	printf '%s\n' "$out" | awk -v label="$label" '
		/^Benchmark/ {
			name = $1; sub(/-[0-9]+$/, "", name); sub(/^Benchmark/, "", name)
			for (i = 3; i + 1 <= NF; i += 2) {
				v = $i; u = $(i + 1)
				if (u == "ns/op") { v = sprintf("%.3f", v / 1e6); u = "ms/op" }
				printf "| %s | `%s` | %s | %s |\n", label, name, u, v
			}
		}' >>"$rows"
}

bench "idle poll cost" ./rxside BenchmarkIdlePoll "${n_idle}x"
bench "detection latency (1 s interval)" ./rxside BenchmarkDetect "${n_detect}x"
bench "poll after a $RFHANDOFF_BENCH_MEDIA_MB MB push vs the blobless floor" ./rxside BenchmarkPollAfterLargePush 1x
bench "rx publish-result as a process vs plain git processes (alternated pairs: medians, per-pair median ratio, git calls per publish)" ./e2e BenchmarkPublishCommandVsFloor "${n_pub}x"
bench "publish vs the plain git floor, both through the audited runner (and git calls per publish)" ./publish BenchmarkPublishVsFloor "${n_pub}x"
bench "publish vs history length" ./publish BenchmarkPublishHistory "${n_hist}x"
bench "COMPLETE after the capture ends (${CAPTURE_BENCH_SECONDS} s at 20 Msps)" ./capture BenchmarkCompleteAfterEnd 1x "$capture_cases"
bench "audit append (0 and 100k lines)" ./exec BenchmarkAuditAppend "${n_audit}x"
bench "audit append ($RFHANDOFF_BENCH_AUDIT_LINES lines)" ./e2e BenchmarkAuditAppendLong "${n_audit}x"
bench "rx watch RSS over $RFHANDOFF_BENCH_POLLS polls" ./e2e BenchmarkWatcherRSS 1x

[ -n "${BENCH_RAW:-}" ] && cp "$raw" "$BENCH_RAW"

cpu=$(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -1)
mem=$(awk '/^MemTotal:/ {printf "%.1f GiB", $2 / 1048576}' /proc/meminfo 2>/dev/null || echo "?")
echo
echo "Machine: $(nproc) CPUs, ${cpu:-unknown CPU}, $mem RAM; $(uname -sr); $(go version | awk '{print $3}'); $(git --version)"
echo "Load average at the end: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown) (quote ratios of alternated pairs; absolute times follow the load)"
echo
echo "| what | benchmark | metric | value |"
echo "|---|---|---|---|"
cat "$rows"
