#!/usr/bin/env bash
# Copyright 2026 the jfabric authors.
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
# https://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.

# pingpong-ab.sh: the two-JVM round trip (bin/jfabric pingpong --self) of this checkout against another commit,
# alternately in one run, so that the two are compared on the same host state (this host has a fast and a slow mode,
# and drifts between them). Builds REF in a temporary git worktree (never installed), then runs, N times, REF's
# pingpong and this checkout's, in an order that swaps each cycle, and prints each run's p50 per size, the ratio
# this / REF per cycle and the median of the ratios (below 1: this checkout is faster). The floor
# (tools/bench/reference/floor.sh) runs once per cycle too, so the host's mode is on record beside each cycle.
#
# Usage: tools/bench/pingpong-ab.sh REF [N=5] [round_trips=1000000] [sizes=32,64] [warmup=200000]
# Needs this checkout built (mvn -B -DskipTests package).
set -euo pipefail

here="$(cd -P "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd -P "${here}/../.." && pwd)"
# shellcheck source=bench-lib.sh
source "${here}/bench-lib.sh"
ref="${1:?usage: pingpong-ab.sh REF [N] [round_trips] [sizes] [warmup]}"
cycles="${2:-5}" rounds="${3:-1000000}" sizes="${4:-32,64}" warmup="${5:-200000}"
bench_uint pingpong-ab N "${cycles}"
bench_uint pingpong-ab round_trips "${rounds}"
bench_need_jar pingpong-ab "${root}"
reference="$(bench_reference "${root}")"

old="$(mktemp -d /tmp/pingpong-ab.XXXXXX)"
new="$(mktemp -d /tmp/pingpong-ab.XXXXXX)"
trap 'bench_ref_remove "${root}" "${old}"; rm -rf "${new}"' EXIT
bench_ref_build pingpong-ab "${root}" "${ref}" "${old}"
# This checkout runs from a copy at a path as long as REF's: the same jar run from /work/main and from a directory
# with a longer name differed by 5-10 % at 64 B (docs/PERFORMANCE.md, "Where a build runs from"), so the two builds
# must not differ in that.
bench_stage "${root}" "${new}"

run() { # run DIR: a pingpong's output
    "$1/bin/jfabric" pingpong --self -S "${sizes}" -I "${rounds}" -W "${warmup}" 2>/dev/null ||
        { echo "pingpong-ab: bin/jfabric pingpong failed in $1" >&2; exit 1; }
}
IFS=, read -r -a size_list <<< "${sizes}"
declare -A ratios
echo "pingpong-ab: $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), ${cycles} cycles of ${rounds} round trips, sizes ${sizes}; p50 ns"
for ((c = 1; c <= cycles; c++)); do
    floor=""
    if [[ -f "${reference}/floor.sh" ]]; then
        floor="$(bash "${reference}/floor.sh" "${rounds}" 2>/dev/null | p50 | head -1)"
    fi
    if (( c % 2 )); then a="$(run "${old}")"; b="$(run "${new}")"; else b="$(run "${new}")"; a="$(run "${old}")"; fi
    line="cycle ${c}: floor ${floor:-n/a}"
    for size in "${size_list[@]}"; do
        pa="$(rtt_field "${size}" p50 <<< "${a}")" pb="$(rtt_field "${size}" p50 <<< "${b}")"
        r="$(ratio "${pb}" "${pa}")"
        ratios[${size}]+="${r} "
        line+="; ${size} B: ${ref} ${pa}, this ${pb} (x${r})"
    done
    echo "${line}"
done
for size in "${size_list[@]}"; do
    echo "median this / ${ref} at ${size} B: $(tr ' ' '\n' <<< "${ratios[${size}]}" | grep -v '^$' | median)"
done
