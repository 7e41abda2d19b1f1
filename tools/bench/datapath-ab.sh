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


# datapath-ab.sh: the in-process data path (JMH DataPathBenchmark) of this checkout against another commit, alternately
# in one run, so the two are compared on the same host state. Builds REF in a temporary git worktree (its tools,
# shm-provider and api, never installed), then runs, N times, REF's benchmark and this checkout's, one fork each, and
# prints each score and the median ratio this / REF.
#
# Usage: tools/bench/datapath-ab.sh REF [N=3] [benchmark=injectRecv] [jmh parameters...]
#        e.g. tools/bench/datapath-ab.sh 1c15de5 3 injectRecv -p size=64 -p threading=DOMAIN
# Needs this checkout built (mvn -B -DskipTests package, or compile -pl tools -am).
set -euo pipefail

here="$(cd -P "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd -P "${here}/../.." && pwd)"
# shellcheck source=bench-lib.sh
source "${here}/bench-lib.sh"
ref="${1:?usage: datapath-ab.sh REF [N] [benchmark] [jmh parameters...]}"
cycles="${2:-3}" bench="${3:-injectRecv}"
shift $(( $# < 3 ? $# : 3 ))
bench_uint datapath-ab N "${cycles}"
[[ -f "${root}/tools/target/bench.classpath" ]] ||
    { echo "datapath-ab: build this checkout first: mvn -B -DskipTests package" >&2; exit 1; }

old="$(mktemp -d /tmp/datapath-ab.XXXXXX)"
new="$(mktemp -d /tmp/datapath-ab.XXXXXX)"
trap 'bench_ref_remove "${root}" "${old}"; rm -rf "${new}"' EXIT
bench_ref_build datapath-ab "${root}" "${ref}" "${old}"
# This checkout's classes and module jars run from a copy at a path as long as REF's (bench_stage_classes): where a
# build runs from moved the two-JVM round trip by up to 10 % (docs/PERFORMANCE.md, "Where a build runs from").
bench_stage_classes "${root}" "${new}"

score() { # score DIR: the JMH score of the benchmark, ns/op
    java --add-exports java.base/jdk.internal.misc=ALL-UNNAMED \
        -cp "$1/tools/target/classes:$(cat "$1/tools/target/bench.classpath")" org.openjdk.jmh.Main \
        "DataPathBenchmark.${bench}\$" -wi 3 -i 5 -w 1s -r 1s -f 1 "$@" 2>&1 |
        awk '$1 ~ /DataPathBenchmark/ && $(NF) == "ns/op" { print $(NF - 3) }' | tail -1
}
ratios=()
for ((c = 1; c <= cycles; c++)); do
    if (( c % 2 )); then a="$(score "${old}" "$@")" b="$(score "${new}" "$@")"
    else b="$(score "${new}" "$@")" a="$(score "${old}" "$@")"; fi
    [[ -n "${a}" && -n "${b}" ]] || { echo "datapath-ab: a JMH run failed" >&2; exit 1; }
    ratios+=("$(ratio "${b}" "${a}")")
    echo "cycle ${c}: ${ref} ${a} ns/op, this checkout ${b} ns/op (x${ratios[c - 1]})"
done
echo "median this / ${ref}: $(printf '%s\n' "${ratios[@]}" | median)"
