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

# libfabric-rma.sh: RMA and atomics of libfabric's own C shm provider on this host, to set beside jfabric's (fabtests'
# fi_rma_bw is not installable here). Compiles tools/bench/libfabric-rma.c (gcc -O2 ... -lfabric) into a temp dir and,
# RUNS times, starts its server (registers a region and a counter, publishes its endpoint name, key and address in a
# file, polls its CQ for target-side progress) and its client, which measures:
#   write, read   fi_write / fi_read bandwidth per size, WINDOW posted then all reaped (fabtests' bw pattern), WARMUP
#                 then ITERS transfers; fi_pingpong's columns (MB/sec = 10^6 B/s, usec/xfer = mean per transfer)
#   memcpy        a single-threaded memcpy of the same size and count in the same client process: the reference
#   atomic        8-byte fi_fetch_atomic(FI_UINT64, FI_SUM), one in flight: latency mean, p50, p99 in ns
# and checks the data (each write size read back, each read against the server's region, every fetch returns the
# previous count, the final counter; the server checks its memory and counter at the end). Each run's output is
# printed, then the medians over the runs and the ratios of the medians (RMA MB/sec / memcpy MB/sec).
#
# Usage: tools/bench/libfabric-rma.sh [runs] [sizes] [iters] [warmup] [window] [atomic_iters] [atomic_warmup] [ops]
#        defaults:                     3      4096,65536,1048576  10000  1000  64  100000  10000  write,read,atomic
# Needs gcc and libfabric-dev (apt-get install -y libfabric-dev). Exit status: 0 when every run and check passed.
set -euo pipefail

here="$(cd -P "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
runs="${1:-3}" sizes="${2:-4096,65536,1048576}" iters="${3:-10000}" warmup="${4:-1000}" window="${5:-64}"
atomic_iters="${6:-100000}" atomic_warmup="${7:-10000}" ops="${8:-write,read,atomic}"

if [[ ! -f /usr/include/rdma/fabric.h ]]; then
    echo "libfabric-rma: /usr/include/rdma/fabric.h is missing; install it: apt-get install -y libfabric-dev" >&2
    exit 1
fi
tmp="$(mktemp -d /tmp/libfabric-rma.XXXXXX)"
server=""
# interrupted or failed: stop the server (it would poll until its timeout) and remove the temp dir
trap '[[ -n "${server}" ]] && kill "${server}" 2>/dev/null; rm -rf "${tmp}"' EXIT
bin="${tmp}/libfabric-rma"
gcc -O2 -Wall -Wextra -std=c11 -o "${bin}" "${here}/libfabric-rma.c" -lfabric

maxsize="$(tr , '\n' <<<"${sizes}" | sort -n | tail -1)"
# the server's region must exist even when only atomics run
[[ -n "${maxsize}" && "${maxsize}" -gt 0 ]] || maxsize=4096

# median of the numbers on stdin (mean of the middle two for an even count)
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) { print "nan"; exit } m = int((NR + 1) / 2);
    if (NR % 2) print v[m]; else printf "%.2f\n", (v[m] + v[m + 1]) / 2 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0 || b == "nan" || a == "nan") print "nan";
    else printf "%.3f\n", a / b }'; }

all="${tmp}/all.txt"
: >"${all}"
version="$(dpkg-query -W -f '${Version}' libfabric1 2>/dev/null || echo '?')"
echo "libfabric-rma: $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, libfabric ${version},"\
    "runs ${runs}, sizes ${sizes}, iters ${iters} (+${warmup} warm-up), window ${window},"\
    "atomics ${atomic_iters} (+${atomic_warmup} warm-up), ops ${ops}"
status=0
for ((r = 1; r <= runs; r++)); do
    info="${tmp}/server-${r}.info"
    echo "--- run ${r}/${runs}, load average $(cut -d' ' -f1-3 /proc/loadavg)"
    "${bin}" server "${info}" "${maxsize}" 600 >"${tmp}/server-${r}.out" 2>&1 &
    server=$!
    rc=0
    "${bin}" client "${info}" "${ops}" "${sizes}" "${iters}" "${warmup}" "${window}" "${atomic_iters}" \
        "${atomic_warmup}" >"${tmp}/client-${r}.out" 2>&1 || rc=$?
    if [[ "${rc}" -ne 0 ]]; then
        kill "${server}" 2>/dev/null || true
    fi
    src=0
    wait "${server}" || src=$?
    server=""
    cat "${tmp}/client-${r}.out" "${tmp}/server-${r}.out"
    if [[ "${rc}" -ne 0 || "${src}" -ne 0 ]]; then
        echo "libfabric-rma: run ${r} failed (client exit ${rc}, server exit ${src})" >&2
        status=1
        continue
    fi
    sed "s/^/${r} /" "${tmp}/client-${r}.out" >>"${all}"
done
[[ -s "${all}" ]] || exit 1

# medians over the passing runs: "run op bytes iters total time MB/sec usec/xfer Mxfers/sec" rows
echo "--- medians of $(cut -d' ' -f1 "${all}" | sort -u | wc -l) runs"
col() { awk -v op="$1" -v b="$2" -v c="$3" '$2 == op && $3 == b { print $c }' "${all}" | median; }
declare -A mem=()
for b in $(awk '$2 == "memcpy" { print $3 }' "${all}" | awk '!seen[$0]++'); do
    mem[${b}]="$(col memcpy "${b}" 7)"
done
for op in write read memcpy; do
    for b in $(awk -v op="${op}" '$2 == op { print $3 }' "${all}" | awk '!seen[$0]++'); do
        m="$(col "${op}" "${b}" 7)" u="$(col "${op}" "${b}" 8)"
        line="$(printf '%-7s %-6s MB/sec %10s  usec/xfer %9s' "${op}" "${b}" "${m}" "${u}")"
        if [[ "${op}" != memcpy && -n "${mem[${b}]:-}" ]]; then
            per_run="$(awk -v op="${op}" -v b="${b}" '$2 == "ratio" && $3 == op "/memcpy" && $4 == b { print $6 }' \
                "${all}" | paste -sd' ')"
            line+="  ${op}/memcpy $(ratio "${m}" "${mem[${b}]}") (per run: ${per_run})"
        fi
        echo "${line}"
    done
done
if grep -q "latency_ns" "${all}"; then
    akey() { awk -v k="$1" '/latency_ns/ { for (i = 1; i <= NF; i++) { split($i, kv, "=");
        if (kv[1] == k) print kv[2] } }' "${all}"; }
    echo "atomic fetch_add_u64 8 B latency_ns mean=$(akey mean | median) p50=$(akey p50 | median)" \
        "p99=$(akey p99 | median) (per run p50: $(akey p50 | paste -sd' '), p99: $(akey p99 | paste -sd' '))"
fi
exit "${status}"
