#!/usr/bin/env bash
# jfabric against C over tcp;ofi_rxm on 127.0.0.1, alternating, CYCLES cycles, the median of the per-cycle ratios:
#   pingpong: bin/jfabric pingpong -p tcp (both sides jfabric, -W warm-up round trips unmeasured) against
#             fi_pingpong -p tcp -e rdm (both sides C), usec/xfer at each size;
#   bw 1 MiB: bin/jfabric bw -p tcp (both sides jfabric) against ofi_bw.c (both sides C), MB/sec.
# Usage: ofi-provider/bench/vs-c.sh [CYCLES=5] [PINGPONG_ITERS=100000] [BW_TRANSFERS=500] [WARMUP=50000]
#        [BW_WARMUP=1000]
# WARMUP: jfabric's unmeasured round trips before each pingpong (-W); C needs none. 2,000 left the JIT compiling:
# the 64 B ratio was 2.25 with 10,000 measured round trips and 1.37 with 100,000; C's own figure is also 1.3-1.6x
# higher over 10,000 than over 100,000, hence the default of 100,000 (docs/PERFORMANCE.md).
# BW_WARMUP: unmeasured 1 MiB transfers before the measured ones, on both sides (C and jfabric alike); 50 left the
# JVMs compiling through the measured pass (500 transfers are 0.1 s at 5 GB/s).
# C_THREADS=1 (environment): the C programs run as multi-threaded processes, as a JVM is (bench/one-thread.c,
# LD_PRELOADed: one idle thread), which makes glibc's mutexes and cancellable system calls dearer in every turn of
# their busy-polling waits; see docs/PERFORMANCE.md, "Where a round trip's time goes".
# Needs the built jars (mvn -B -DskipTests package), fi_pingpong (libfabric-bin), gcc and libfabric-dev.
set -euo pipefail
cd "$(dirname "$0")/../.."
# Loopback only: tcp;ofi_rxm 1.17 ignores the hints' domain name (-d lo), and its first interface is eth0; this keeps
# every process (fi_pingpong too, which has no other way to be told) on lo, 127.0.0.1.
export FI_TCP_IFACE=lo
cycles="${1:-5}"; iters="${2:-100000}"; transfers="${3:-500}"; warmup="${4:-50000}"; bw_warmup="${5:-1000}"
port=9800
bin=/tmp/jfabric-ofi-bw.$$
gcc -O2 -o "${bin}" ofi-provider/src/test/c/ofi_bw.c -lfabric
shim=/tmp/jfabric-one-thread.$$.so
trap 'rm -f "${bin}" "${shim}"' EXIT
cpre=""
if [[ "${C_THREADS:-0}" == 1 ]]; then
    gcc -O2 -shared -fPIC -pthread -o "${shim}" ofi-provider/bench/one-thread.c
    cpre="${shim}"
fi
crun() { LD_PRELOAD="${cpre}" "$@"; }
col() { awk -v c="$1" '/^[0-9]/ {print $c}' | tail -n 1; }

pp_c() {
    port=$((port + 1))
    crun fi_pingpong -p tcp -e rdm -d lo -B "${port}" -S "$1" -I "${iters}" >/dev/null 2>&1 &
    sleep 0.3
    crun fi_pingpong -p tcp -e rdm -d lo -P "${port}" -S "$1" -I "${iters}" 127.0.0.1 | col 7
    wait
}
pp_j() {
    port=$((port + 1))
    bin/jfabric pingpong -p tcp -d lo -B "${port}" -S "$1" -I "${iters}" -W "${warmup}" >/dev/null 2>&1 &
    sleep 1.5
    bin/jfabric pingpong -p tcp -d lo -P "${port}" -S "$1" -I "${iters}" -W "${warmup}" 127.0.0.1 | col 7
    wait
}
bw_c() {
    port=$((port + 1))
    crun "${bin}" -p tcp -d lo -B "${port}" -S 1048576 -I "${transfers}" -w 16 -W "${bw_warmup}" >/dev/null 2>&1 &
    sleep 0.3
    crun "${bin}" -p tcp -d lo -P "${port}" -S 1048576 -I "${transfers}" -w 16 -W "${bw_warmup}" 127.0.0.1 | col 6
    wait
}
bw_j() {
    port=$((port + 1))
    bin/jfabric bw -p tcp -d lo -B "${port}" -S 1m -I "${transfers}" -w 16 -W "${bw_warmup}" >/dev/null 2>&1 &
    sleep 1.5
    bin/jfabric bw -p tcp -d lo -P "${port}" -S 1m -I "${transfers}" -w 16 -W "${bw_warmup}" 127.0.0.1 | col 6
    wait
}
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2)}'; }

echo "C programs: $([[ -n "${cpre}" ]] && echo "multi-threaded (one idle thread preloaded)" || echo "single-threaded")"
echo "host: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(uname -r)"
for what in "pp 64" "pp 4096" "bw 1m"; do
    set -- ${what}
    ratios=()
    for ((c = 1; c <= cycles; c++)); do
        if [[ $1 == pp ]]; then
            if (( c % 2 )); then cv=$(pp_c "$2"); jv=$(pp_j "$2"); else jv=$(pp_j "$2"); cv=$(pp_c "$2"); fi
            r=$(awk -v j="${jv}" -v c="${cv}" 'BEGIN {printf "%.3f", j / c}')
            echo "pingpong $2 B cycle ${c}: C ${cv} usec/xfer, jfabric ${jv} usec/xfer, jfabric/C ${r}"
        else
            if (( c % 2 )); then cv=$(bw_c); jv=$(bw_j); else jv=$(bw_j); cv=$(bw_c); fi
            r=$(awk -v j="${jv}" -v c="${cv}" 'BEGIN {printf "%.3f", c / j}')
            echo "bw 1 MiB cycle ${c}: C ${cv} MB/s, jfabric ${jv} MB/s, C/jfabric ${r}"
        fi
        ratios+=("${r}")
    done
    echo "${what}: median ratio $(printf '%s\n' "${ratios[@]}" | median) (1.00 = equal; above 1: jfabric slower)"
done
