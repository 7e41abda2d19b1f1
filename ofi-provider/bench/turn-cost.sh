#!/usr/bin/env bash
# The CPU time of one turn of a pingpong client's busy-polling wait, and the turns per round trip: a pingpong pair
# over tcp;ofi_rxm on 127.0.0.1 runs; after DELAY seconds `perf stat` counts the client's CPU time (task-clock), its
# poll() calls (one per turn: tcp;ofi_rxm's progress) and its sendmsg() calls (one per round trip) for 5 s; then the
# pair is ended. The wall clock sets neither figure much, so it says something on a loaded host where round-trip times
# do not (docs/PERFORMANCE.md, "Where a round trip's time goes").
# Usage: ofi-provider/bench/turn-cost.sh KIND [SIZE=4096] [DELAY: 3 for C, 12 for jfabric]
#   KIND c: C fi_pingpong; ct: fi_pingpong with bench/one-thread.c preloaded (a multi-threaded process); j: jfabric.
# Needs perf (root, or perf_event_paranoid <= 1), fi_pingpong, gcc and the built jars.
set -uo pipefail
cd "$(dirname "$0")/../.."
export FI_TCP_IFACE=lo
kind="$1"; size="${2:-4096}"
delay="${3:-$([[ ${kind} == j ]] && echo 12 || echo 3)}"
port=$(( 19000 + RANDOM % 900 ))
shim=/tmp/jfabric-one-thread.$$.so
trap 'rm -f "${shim}"' EXIT
case "${kind}" in
c|ct)
    if [[ ${kind} == ct ]]; then
        gcc -O2 -shared -fPIC -pthread -o "${shim}" ofi-provider/bench/one-thread.c
        export LD_PRELOAD="${shim}"
    fi
    fi_pingpong -p tcp -e rdm -d lo -B "${port}" -S "${size}" -I 100000000 >/dev/null 2>&1 & s=$!
    sleep 0.3
    fi_pingpong -p tcp -e rdm -d lo -P "${port}" -S "${size}" -I 100000000 127.0.0.1 >/dev/null 2>&1 & c=$!
    unset LD_PRELOAD;;
j)
    bin/jfabric pingpong -p tcp -d lo -B "${port}" -S "${size}" -I 100000000 >/dev/null 2>&1 &
    sleep 1.5
    bin/jfabric pingpong -p tcp -d lo -P "${port}" -S "${size}" -I 100000000 127.0.0.1 >/dev/null 2>&1 &
    sleep 1
    s=$(pgrep -f "pingpong -p tcp -d lo -B ${port}" | tail -n 1)
    c=$(pgrep -f "pingpong -p tcp -d lo -P ${port}" | tail -n 1);;
*)
    echo "usage: $0 c|ct|j [SIZE] [DELAY]" >&2; exit 2;;
esac
sleep "${delay}"
threads=$(ls "/proc/${c}/task" | wc -l)
perf stat -x, -e task-clock -e syscalls:sys_enter_poll -e syscalls:sys_enter_sendmsg -p "${c}" -- sleep 5 2>&1 |
    awk -F, -v k="${kind}" -v n="${threads}" -v l="$(cut -d' ' -f1 /proc/loadavg)" '
        /task-clock/ {t = $1} /sys_enter_poll/ {p = $1} /sys_enter_sendmsg/ {r = $1}
        END {printf "%s (%d threads): cpu/turn %.0f ns, turns/round trip %.1f, %d round trips in 5 s, load %s\n",
            k, n, t * 1e6 / p, p / r, r, l}'
kill "${c}" "${s}" 2>/dev/null
wait 2>/dev/null
