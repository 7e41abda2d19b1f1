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

# vs-aeron.sh: the latency issue's comparison ("latency ahead of Aeron") in one run: jfabric's message round trip
# beside the host's floor and Aeron IPC, alternately. Each cycle runs, in an order rotated by one step each cycle
# (the host may change speed between JVM pairs, so no figure always comes first or last):
#   floor       $REFERENCE_BENCH/floor.sh N: two JVMs ping-pong a counter through /dev/shm, nothing else on the path
#   aeron 32    $REFERENCE_BENCH/aeron-ipc.sh N 32: Aeron IPC ping-pong (media driver, Pong, Ping), 32-byte messages
#   aeron 64    the same, 64-byte messages
#   lane 32     tools/bench/lane-floor.sh N 32: two JVMs ping-pong records of jfabric's lane format through the
#               shm provider's own SpscLane, with none of the library around it (no matching, CQ, checks)
#   lane 64     the same, 64-byte payloads
#   jfabric     bin/jfabric pingpong --self -S 32,64 -I N -W W (2 endpoints attached to the domain: the measured ones)
#   endpoints   only with the endpoints argument E: the same with --endpoints E (E-2 more endpoints attached, each
#               connected to both measured receivers and idle while they are measured)
# It prints each cycle's p50/p99/p99.9 in ns (Aeron prints microseconds with two decimals: its figures come in 10 ns
# steps), then the medians over the cycles and the ratios of the medians, with the issue's targets:
#   jfabric / aeron p50, 32 B and 64 B              target <= 1.00  (the p99 and p99.9 ratios are shown too)
#   jfabric / floor p50, 32 B and 64 B              target <= 1.6
# and, without a target, where the time goes: lane / floor (the record and ring protocol against one cache line),
# lane / aeron (our bare lane against Aeron's), jfabric / lane (what the library adds around the lane).
#   jfabric E endpoints / 2 endpoints p50, 32 and 64 B  target <= 1.1
#
# Usage: tools/bench/vs-aeron.sh [cycles] [round_trips] [warmup] [endpoints]
#        defaults:               3        1000000       200000   (none: no endpoints run)
# round_trips: floor.sh's round trips, aeron-ipc.sh's messages (after its own 200000 warm-up) and pingpong's -I;
# warmup: pingpong's -W. With endpoints E above 16 both pingpong runs get domains of E endpoint slots
# (JFABRIC_SHM_EP_COUNT=E, unless it is set already), so that the two differ only in the endpoints attached.
# Needs tools/target/jfabric-tools.jar (mvn -B -DskipTests package); the references are tools/bench/reference's (or
# $REFERENCE_BENCH's); without floor.sh and aeron-ipc.sh there it says so and exits 0 (skipped). aeron-ipc.sh fetches Aeron 1.51.0 into ~/.m2 on its first run.
# Exit status: 0 when every target is met (or skipped), 3 when one is missed, 1 when a run fails or an argument is
# wrong.
set -euo pipefail

here="$(cd -P "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd -P "${here}/../.." && pwd)"
# shellcheck source=bench-lib.sh
source "${here}/bench-lib.sh"
shared="$(bench_reference "${root}")"
cycles="${1:-3}" rounds="${2:-1000000}" warmup="${3:-200000}" endpoints="${4:-}"
bench_uint vs-aeron cycles "${cycles}"
bench_uint vs-aeron round_trips "${rounds}"
[[ "${warmup}" =~ ^[0-9]+$ ]] || { echo "vs-aeron: warmup must be a whole number, was '${warmup}'" >&2; exit 1; }
if [[ -n "${endpoints}" ]] && ! [[ "${endpoints}" =~ ^[0-9]+$ && "${endpoints}" -ge 2 ]]; then
    echo "vs-aeron: endpoints must be a whole number of at least 2 (the two measured ones), was '${endpoints}'" >&2
    exit 1
fi

if [[ ! -f "${shared}/floor.sh" || ! -f "${shared}/aeron-ipc.sh" ]]; then
    echo "vs-aeron: skipped: ${shared}/floor.sh and aeron-ipc.sh not found (set REFERENCE_BENCH)"
    exit 0
fi
bench_need_jar vs-aeron "${root}"
if [[ -n "${endpoints}" && "${endpoints}" -gt 16 && -z "${JFABRIC_SHM_EP_COUNT:-}" ]]; then
    export JFABRIC_SHM_EP_COUNT="${endpoints}"
fi

declare -A got   # "figure metric" -> its value in each cycle so far, space separated ("nan" when missing)
put() { got["$1 $2"]+="${3:-nan} "; }
at() { local v=(${got["$1 $2"]:-}); printf '%s' "${v[$3]:-nan}"; }
med() { tr ' ' '\n' <<<"${got["$1 $2"]:-}" | grep -v '^$' | median |
    awk '$1 == "nan" { print; next } { printf "%.0f\n", $1 }'; }   # whole ns
fail() { echo "vs-aeron: $1 failed${2:+ (exit status $2)}:" >&2; printf '%s\n' "${3:-}" >&2; exit 1; }

run_floor() {
    local out rc=0
    out="$(bash "${shared}/floor.sh" "${rounds}" 2>&1)" || rc=$?
    [[ ${rc} -eq 0 && -n "$(p50 <<<"${out}")" ]] || fail "floor.sh ${rounds}" "${rc}" "${out}"
    put floor p50 "$(p50 <<<"${out}")"
}
run_aeron() {   # $1: message length
    local out rc=0 line
    out="$(bash "${shared}/aeron-ipc.sh" "${rounds}" "$1" 2>&1)" || rc=$?
    line="$(grep '^aeron rtt_us' <<<"${out}" || true)"
    [[ ${rc} -eq 0 && -n "$(field p50 <<<"${line}")" ]] || fail "aeron-ipc.sh ${rounds} $1" "${rc}" "${out}"
    for m in p50 p99 p99.9; do put "aeron$1" "${m}" "$(field "${m}" <<<"${line}" | us_to_ns)"; done
}
run_lane() {   # $1: payload length
    local out rc=0
    out="$("${here}/lane-floor.sh" "${rounds}" "$1" 2>&1)" || rc=$?
    [[ ${rc} -eq 0 && -n "$(p50 <<<"${out}")" ]] || fail "lane-floor.sh ${rounds} $1" "${rc}" "${out}"
    for m in p50 p99 p99.9; do put "lane$1" "${m}" "$(field "${m}" <<<"$(grep '^lanefloor' <<<"${out}")")"; done
}
run_jfabric() {   # $1: the figure's name, then pingpong's extra options
    local name="$1" out rc=0
    shift
    out="$("${root}/bin/jfabric" pingpong --self -S 32,64 -I "${rounds}" -W "${warmup}" "$@")" || rc=$?
    [[ ${rc} -eq 0 && -n "$(rtt_field 32 p50 <<<"${out}")" && -n "$(rtt_field 64 p50 <<<"${out}")" ]] ||
        fail "bin/jfabric pingpong --self -S 32,64 -I ${rounds} -W ${warmup} $*" "${rc}" "${out}"
    for size in 32 64; do
        for m in p50 p99 p99.9; do put "${name}${size}" "${m}" "$(rtt_field "${size}" "${m}" <<<"${out}")"; done
    done
}
step() {
    case "$1" in
        floor) run_floor ;;
        aeron32) run_aeron 32 ;;
        aeron64) run_aeron 64 ;;
        lane32) run_lane 32 ;;
        lane64) run_lane 64 ;;
        jfabric) run_jfabric jfabric ;;
        endpoints) run_jfabric endpoints --endpoints "${endpoints}" ;;
    esac
}
# p50/p99/p99.9 of a figure, in cycle $2 (0-based) or, without $2, the medians
trio() {
    if [[ $# -gt 1 ]]; then echo "$(at "$1" p50 "$2")/$(at "$1" p99 "$2")/$(at "$1" p99.9 "$2")"
    else echo "$(med "$1" p50)/$(med "$1" p99)/$(med "$1" p99.9)"; fi
}
figures() {   # the figures of cycle $1 (0-based), or the medians
    local text
    text="floor p50 $(if [[ $# -gt 0 ]]; then at floor p50 "$1"; else med floor p50; fi);"
    text+=" aeron 32 B $(trio aeron32 "$@") 64 B $(trio aeron64 "$@");"
    text+=" lane 32 B $(trio lane32 "$@") 64 B $(trio lane64 "$@");"
    text+=" jfabric 32 B $(trio jfabric32 "$@") 64 B $(trio jfabric64 "$@")"
    [[ -z "${endpoints}" ]] ||
        text+="; jfabric ${endpoints} endpoints 32 B $(trio endpoints32 "$@") 64 B $(trio endpoints64 "$@")"
    echo "${text}"
}

steps=(floor aeron32 aeron64 lane32 lane64 jfabric)
[[ -z "${endpoints}" ]] || steps+=(endpoints)
settings="pingpong -W ${warmup}"
[[ -z "${endpoints}" ]] || settings+=", --endpoints ${endpoints}"
[[ -z "${JFABRIC_SHM_EP_COUNT:-}" ]] || settings+=", JFABRIC_SHM_EP_COUNT=${JFABRIC_SHM_EP_COUNT}"
echo "vs-aeron: $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, ${cycles} cycles of ${rounds} round trips" \
    "(${settings}); figures in ns, p50/p99/p99.9"
for ((c = 0; c < cycles; c++)); do
    order=()
    for ((j = 0; j < ${#steps[@]}; j++)); do order+=("${steps[(j + c) % ${#steps[@]}]}"); done
    for s in "${order[@]}"; do step "${s}"; done
    echo "cycle $((c + 1)) (${order[*]}; load $(cut -d' ' -f1 /proc/loadavg)): $(figures "${c}")"
done

echo "medians of ${cycles}: $(figures)"
verdicts=""
report() {   # label, ratio, target ("" for none), extra text
    local v=""
    if [[ -n "$3" ]]; then v="$(verdict "$2" "$3" le)"; verdicts+="${v} "; v="   (target <= $3: ${v})"; fi
    printf '%-42s = %s%s%s\n' "$1" "$2" "${v}" "${4:-}"
}
for size in 32 64; do
    report "jfabric / aeron p50, ${size} B" "$(ratio "$(med "jfabric${size}" p50)" "$(med "aeron${size}" p50)")" 1.00 \
        "   p99 $(ratio "$(med "jfabric${size}" p99)" "$(med "aeron${size}" p99)"), p99.9 $(ratio \
        "$(med "jfabric${size}" p99.9)" "$(med "aeron${size}" p99.9)")"
done
for size in 32 64; do
    report "jfabric / floor p50, ${size} B" "$(ratio "$(med "jfabric${size}" p50)" "$(med floor p50)")" 1.6
done
for size in 32 64; do
    report "lane / floor p50, ${size} B" "$(ratio "$(med "lane${size}" p50)" "$(med floor p50)")" "" \
        "   lane / aeron $(ratio "$(med "lane${size}" p50)" "$(med "aeron${size}" p50)"), jfabric / lane $(ratio \
        "$(med "jfabric${size}" p50)" "$(med "lane${size}" p50)")"
done
if [[ -n "${endpoints}" ]]; then
    for size in 32 64; do
        report "jfabric ${endpoints} / 2 endpoints p50, ${size} B" \
            "$(ratio "$(med "endpoints${size}" p50)" "$(med "jfabric${size}" p50)")" 1.1
    done
fi
[[ "${verdicts}" != *MISSED* ]] || exit 3
