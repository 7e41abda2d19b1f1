#!/usr/bin/env bash
# pingpong-vs-floor.sh: issue 5's latency check in one run. Alternates, N times (default 3), the host's floor
# (tools/bench/reference/floor.sh), the bare lanes at 64 B (tools/bench/lane-floor.sh) and `bin/jfabric pingpong --self -S
# 64,4096`, then runs libfabric's own shm provider (tools/bench/reference/libfabric-shm.sh) at 64 B and 4 KiB, and prints the
# medians and the ratios the issue asks for:
#   64 B round-trip p50 / floor p50                      target <= 1.5
#   libfabric usec/xfer / jfabric usec/xfer, 64 B, 4 KiB   target >= 2   (usec/xfer = mean of half a round trip)
# and, for information, how the 64 B round trip splits: lane floor / floor (the lane's record format and ring
# protocol) and jfabric / lane floor (what the library adds to bare lanes).
# The host may switch speed modes between JVM pairs, so the ratios are of medians over the alternating runs,
# and each cycle's own ratio is printed too.
#
# Usage: tools/bench/pingpong-vs-floor.sh [N] [round_trips] [warmup] [libfabric_iterations]
#        defaults:                          3   1000000       200000   100000
# Needs tools/target/jfabric-tools.jar (mvn -B -DskipTests package); the references are tools/bench/reference's (or
# $REFERENCE_BENCH's); without them it says so and exits 0 (skipped).
# Exit status: 0 when both targets are met (or skipped), 3 when one is missed, 1 when a run fails.
set -euo pipefail

here="$(cd -P "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd -P "${here}/../.." && pwd)"
# shellcheck source=bench-lib.sh
source "${here}/bench-lib.sh"
shared="$(bench_reference "${root}")"
cycles="${1:-3}" rounds="${2:-1000000}" warmup="${3:-200000}" lf_iters="${4:-100000}"

if [[ ! -f "${shared}/floor.sh" || ! -f "${shared}/libfabric-shm.sh" ]]; then
    echo "pingpong-vs-floor: skipped: ${shared}/floor.sh and libfabric-shm.sh not found (set REFERENCE_BENCH)"
    exit 0
fi
bench_need_jar pingpong-vs-floor "${root}"

floor_p50=() lane_p50=() pp_p50=() pp_u64=() pp_u4k=() lf_u64=() lf_u4k=()
for ((c = 1; c <= cycles; c++)); do
    f="$(bash "${shared}/floor.sh" "${rounds}")" || { echo "pingpong-vs-floor: floor.sh failed" >&2; exit 1; }
    n="$(bash "${here}/lane-floor.sh" "${rounds}" 64 "${warmup}")" ||
        { echo "pingpong-vs-floor: lane-floor.sh failed" >&2; exit 1; }
    p="$("${root}/bin/jfabric" pingpong --self -S 64,4096 -I "${rounds}" -W "${warmup}")" ||
        { echo "pingpong-vs-floor: bin/jfabric pingpong failed:" >&2; echo "${p:-}" >&2; exit 1; }
    l="$(bash "${shared}/libfabric-shm.sh" 64,4096 "${lf_iters}")" ||
        { echo "pingpong-vs-floor: libfabric-shm.sh failed" >&2; exit 1; }
    floor_p50+=("$(p50 <<<"${f}")")
    lane_p50+=("$(p50 <<<"${n}")")
    pp_p50+=("$(rtt_field 64 p50 <<<"${p}")")
    pp_u64+=("$(usec 64 <<<"${p}")")
    pp_u4k+=("$(usec 4k <<<"${p}")")
    lf_u64+=("$(usec 64 <<<"${l}")")
    lf_u4k+=("$(usec 4k <<<"${l}")")
    i=$((c - 1))
    echo "cycle ${c}: floor p50 ${floor_p50[i]} ns; lane floor 64 B p50 ${lane_p50[i]} ns" \
        "(x$(ratio "${lane_p50[i]}" "${floor_p50[i]}") floor); jfabric 64 B p50 ${pp_p50[i]} ns" \
        "(x$(ratio "${pp_p50[i]}" "${floor_p50[i]}") floor, x$(ratio "${pp_p50[i]}" "${lane_p50[i]}") lane floor)," \
        "usec/xfer 64 B ${pp_u64[i]} 4 KiB ${pp_u4k[i]};" \
        "libfabric usec/xfer 64 B ${lf_u64[i]} 4 KiB ${lf_u4k[i]}"
done

m_floor="$(printf '%s\n' "${floor_p50[@]}" | median)"
m_lane="$(printf '%s\n' "${lane_p50[@]}" | median)"
m_pp="$(printf '%s\n' "${pp_p50[@]}" | median)"
m_u64="$(printf '%s\n' "${pp_u64[@]}" | median)"
m_u4k="$(printf '%s\n' "${pp_u4k[@]}" | median)"
m_l64="$(printf '%s\n' "${lf_u64[@]}" | median)"
m_l4k="$(printf '%s\n' "${lf_u4k[@]}" | median)"
r_floor="$(ratio "${m_pp}" "${m_floor}")"
r_64="$(ratio "${m_l64}" "${m_u64}")"
r_4k="$(ratio "${m_l4k}" "${m_u4k}")"

echo "medians of ${cycles}: floor p50 ${m_floor} ns; lane floor 64 B p50 ${m_lane} ns;" \
    "jfabric 64 B rtt p50 ${m_pp} ns;" \
    "usec/xfer jfabric 64 B ${m_u64} 4 KiB ${m_u4k}, libfabric 64 B ${m_l64} 4 KiB ${m_l4k}"
v1="$(verdict "${r_floor}" 1.5 le)" v2="$(verdict "${r_64}" 2 ge)" v3="$(verdict "${r_4k}" 2 ge)"
echo "64 B rtt p50 / floor p50           = ${r_floor}   (target <= 1.5: ${v1})"
echo "  of which lane floor / floor      = $(ratio "${m_lane}" "${m_floor}")   (bare lanes, no library)"
echo "  and jfabric / lane floor          = $(ratio "${m_pp}" "${m_lane}")   (what the library adds)"
echo "libfabric / jfabric usec/xfer 64 B = ${r_64}   (target >= 2: ${v2})"
echo "libfabric / jfabric usec/xfer 4 KiB = ${r_4k}   (target >= 2: ${v3})"
[[ "${v1}${v2}${v3}" == "metmetmet" ]] || exit 3
