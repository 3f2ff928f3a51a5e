#!/bin/sh
# bench-publish.sh — rx publish-result's benchmarks (issue 4 and 20 targets):
#   BenchmarkPublishCommandVsFloor (e2e)  `rfhandoff rx publish-result` as
#                            a whole process against the plain git floor as
#                            processes with no rfhandoff runner or audit:
#                            `git clone --depth 1 --single-branch --branch
#                            rx-node --no-tags URL dir`, two files written,
#                            `git add`, `git commit`, `git push`; same remote,
#                            alternated pair by pair (which goes first
#                            alternates too). publish-ms and floor-ms are
#                            medians, ratio the median of the per-pair
#                            ratios (target <= 1.5), git-calls/publish the
#                            start lines one publish adds to the audit log.
#   BenchmarkPublishVsFloor  publish-ms (the whole publish: seven checks with
#                            their fetch, check 6's depth-1 clone never
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
go test ./e2e -run '^$' -bench 'PublishCommandVsFloor' -benchtime 20x "$@"
exec go test ./publish -run '^$' -bench 'PublishVsFloor|PublishHistory' -benchtime 20x "$@"
