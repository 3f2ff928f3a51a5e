#!/bin/sh
# bench-publish.sh — rx publish-result's benchmarks (issue 4 targets):
#   BenchmarkPublishVsFloor  publish-ms (the whole publish: seven checks with
#                            their fetch and ls-remote, depth-1 clone never
#                            checked out, one ls-tree of the result dir's
#                            levels, blobs and trees written as objects,
#                            commit-tree, diff-tree read-back, push) and
#                            floor-ms (plain git: depth-1 single-branch clone,
#                            write two files, add, commit, push) through the
#                            same audited runner, alternated in one run;
#                            ratio = publish/floor (target <= 1.5);
#                            git-calls/publish and git-calls/floor (audited
#                            git subprocesses of one of each).
#   BenchmarkPublishHistory  publish onto a result branch with 5,000 commits
#                            of history vs 1 commit, alternated; ratio target
#                            <= 1.1.
# Medians of each series. Real git against temporary bare remotes over
# file://; no network, no hardware.
# Usage: scripts/bench-publish.sh [extra go test flags, e.g. -count=3]
set -eu
cd "$(dirname "$0")/.."
exec go test ./publish -run '^$' -bench 'PublishVsFloor|PublishHistory' -benchtime 20x "$@"
