#!/usr/bin/env bash
# lane-floor.sh: the round trip of bare lanes on this host (io.jfabric.tools.bench.LaneFloor): two JVMs ping-pong one
# message at a time through two Agrona OneToOneRingBuffers in /dev/shm, records laid out as the shm provider's lanes
# lay out a whole message, and nothing else of the library. Between tools/bench/reference/floor.sh and `jfabric pingpong`:
# floor -> lane floor is what the lane's record format and ring protocol cost, lane floor -> pingpong what the library
# adds. Prints: lanefloor rtt_ns p50=... p90=... p99=... p99.9=... max=... rounds=... size=...
# With lane "spsc" the rings are the provider's own single-producer, single-consumer lane (io.jfabric.shm.lane.SpscLane,
# same capacity and record format) instead of Agrona's, and the line ends with " lane=spsc".
#
# Usage: tools/bench/lane-floor.sh [round_trips] [size] [warmup] [agrona|spsc]
#        defaults: 1000000 64 min(round_trips, 200000) spsc (the lane the endpoints use)
# Needs tools/target/jfabric-tools.jar (mvn -B -DskipTests package).
set -euo pipefail

root="$(cd -P "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
jar="${root}/tools/target/jfabric-tools.jar"
rounds="${1:-1000000}" size="${2:-64}"
warmup="${3:-$((rounds < 200000 ? rounds : 200000))}"
lane="${4:-spsc}"
if [[ "${lane}" != agrona && "${lane}" != spsc ]]; then
    echo "lane-floor: lane must be agrona or spsc, not ${lane}" >&2
    exit 2
fi
if [[ ! -f "${jar}" ]]; then
    echo "lane-floor: ${jar} is missing; build it: mvn -B -DskipTests package" >&2
    exit 1
fi
java="java"
if [[ -n "${JAVA_HOME:-}" ]]; then
    java="${JAVA_HOME}/bin/java"
fi
file="/dev/shm/jfabric-lanefloor-$$"
run=("${java}" --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -Dagrona.disable.bounds.checks=true
    -cp "${jar}" io.jfabric.tools.bench.LaneFloor)
"${run[@]}" pong "${rounds}" "${size}" "${file}" "${warmup}" "${lane}" &
pong=$!
# interrupted or failed: stop the pong side (it would spin until its 10 s timeout) and remove the file
trap 'kill "${pong}" 2>/dev/null || true; rm -f "${file}"' EXIT
status=0
"${run[@]}" ping "${rounds}" "${size}" "${file}" "${warmup}" "${lane}" || status=$?
wait "${pong}" || status=$?
exit "${status}"
