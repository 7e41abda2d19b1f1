# shellcheck shell=bash
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

# bench-lib.sh: what the comparison scripts of tools/bench share (pingpong-vs-floor.sh, vs-aeron.sh). Sourced, not
# run:  here="$(cd -P "$(dirname "${BASH_SOURCE[0]}")" && pwd)"; source "${here}/bench-lib.sh"
# It defines functions only and sets nothing else. The parsers read the output of a run on stdin and print one
# number per match (nothing when there is none); a missing figure then shows as "nan" in medians and ratios.

# bench_reference ROOT: the reference harnesses' folder (floor, Aeron IPC, libfabric shm): $REFERENCE_BENCH, else
# tools/bench/reference in the repository.
bench_reference() { printf '%s\n' "${REFERENCE_BENCH:-$1/tools/bench/reference}"; }

# bench_need_jar NAME ROOT: exit 1, saying how to build it, when ROOT/tools/target/jfabric-tools.jar is missing.
bench_need_jar() {
    [[ -f "$2/tools/target/jfabric-tools.jar" ]] && return 0
    echo "$1: $2/tools/target/jfabric-tools.jar is missing; build it: mvn -B -DskipTests package" >&2
    exit 1
}

# bench_ref_build NAME ROOT REF DIR: DIR becomes a detached git worktree of ROOT at REF with its tools, shm-provider and
# api built (never installed); exit 1, saying so, when the build fails. The caller removes it (bench_ref_remove).
bench_ref_build() {
    git -C "$2" worktree add --detach "$4" "$3" >/dev/null
    (cd "$4" && mvn -B -o -q package -DskipTests -pl tools -am >/dev/null) ||
        { echo "$1: building $3 failed" >&2; exit 1; }
}

# bench_stage ROOT DIR: copy what bin/jfabric runs (bin/ and the tools' runnable jar) from ROOT into DIR, so that a
# build runs from a path as long as another's (where a build runs from moves its round trip by up to 10 %).
bench_stage() {
    mkdir -p "$2/tools/target"
    cp -r "$1/bin" "$2/"
    cp "$1/tools/target/jfabric-tools.jar" "$2/tools/target/"
}

# bench_stage_classes ROOT DIR: copy the JMH class path of ROOT's build (the tools' classes, bench.classpath and the
# module jars it names inside ROOT) into DIR, with bench.classpath naming the copies.
bench_stage_classes() {
    local module
    mkdir -p "$2/tools/target"
    cp -r "$1/tools/target/classes" "$2/tools/target/"
    for module in api shm-provider; do
        mkdir -p "$2/${module}/target"
        cp "$1/${module}/target/"*.jar "$2/${module}/target/"
    done
    sed "s#$1/#$2/#g" "$1/tools/target/bench.classpath" > "$2/tools/target/bench.classpath"
}

# bench_ref_remove ROOT DIR: remove the worktree bench_ref_build made.
bench_ref_remove() { git -C "$1" worktree remove --force "$2" >/dev/null 2>&1 || rm -rf "$2"; }

# bench_uint NAME ARG VALUE: exit 1 unless VALUE is a whole number of at least 1.
bench_uint() {
    [[ "$3" =~ ^[0-9]+$ && "$3" -ge 1 ]] && return 0
    echo "$1: $2 must be a whole number of at least 1, was '$3'" >&2
    exit 1
}

# median of the numbers on stdin (mean of the middle two for an even count; "nan" when there is none or one is nan)
median() { sort -g | awk '{ v[NR] = $1; if ($1 == "nan" || $1 == "") bad = 1 } END { if (NR == 0 || bad) { print "nan";
    exit } m = int((NR + 1) / 2); if (NR % 2) print v[m]; else printf "%.3f\n", (v[m] + v[m + 1]) / 2 }'; }

# field KEY: the value of the first KEY=value word of the input (as p50 of "floor rtt_ns p50=131 p90=...")
field() { awk -v key="$1" '{ for (i = 1; i <= NF; i++) { n = index($i, "="); if (n > 1 && substr($i, 1, n - 1) == key) {
    print substr($i, n + 1); exit } } }'; }

# p50 of a floor.sh or lane-floor.sh line
p50() { field p50; }

# rtt_field SIZE KEY: KEY of the rtt_ns line that follows the row of SIZE (as fi_pingpong prints it: 32, 64, 4k)
rtt_field() { awk -v size="$1" -v key="$2" '$1 ~ /^[0-9]/ && $1 != "rtt_ns" { row = $1 }
    $1 == "rtt_ns" && row == size { for (i = 2; i <= NF; i++) { split($i, kv, "="); if (kv[1] == key) print kv[2] }
    }'; }

# usec/xfer (7th column) of the row of SIZE
usec() { awk -v size="$1" '$1 == size && $3 ~ /^[=+-]/ { print $7 }'; }

# us_to_ns: the microseconds on stdin (as aeron-ipc.sh prints them) in whole nanoseconds
us_to_ns() { awk '{ if ($1 == "" || $1 == "nan") print "nan"; else printf "%.0f\n", $1 * 1000 }'; }

# ratio A B: A / B with two decimals, "nan" when either is missing or B is 0
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" || a == "nan" || b == "nan" || b == 0) print "nan";
    else printf "%.2f\n", a / b }'; }

# verdict RATIO TARGET le|ge: "met" when RATIO <= TARGET (le) or >= TARGET (ge), else "MISSED" (so is nan)
verdict() { awk -v r="$1" -v t="$2" -v op="$3" 'BEGIN {
    ok = (r != "nan") && (op == "le" ? r + 0 <= t + 0 : r + 0 >= t + 0); print ok ? "met" : "MISSED" }'; }
