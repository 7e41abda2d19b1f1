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

# rma-vs-libfabric.sh: jfabric's one-sided path beside libfabric's own C shm provider, alternately, in one run.
# Each cycle runs, one after the other:
#   libfabric  tools/bench/libfabric-rma.sh: 1 MiB fi_write bandwidth (window 64), a single-threaded C memcpy of the
#              same size (the reference), and 8-byte fi_fetch_atomic(FI_UINT64, FI_SUM) latency, one in flight
#   jfabric    bin/jfabric bw --self -o write -S 1m: the same window of 1 MiB ep.write calls between two JVMs
#              bin/jfabric pingpong --self -o atomic: one 8-byte FI_SUM fetchAtomic per iteration
# then prints each cycle's figures, their medians, and the ratios of the medians:
#   write jfabric/libfabric (MB/sec), write/memcpy for each, fetch-add p50 libfabric/jfabric (above 1: jfabric faster).
#
# Usage: tools/bench/rma-vs-libfabric.sh [cycles] [write_iters] [atomic_iters] [idle]   defaults: 5 2000 100000 busy
# idle: how jfabric's bw sides wait (bin/jfabric bw --idle); libfabric's server always polls its CQ.
# Needs tools/target/jfabric-tools.jar (mvn -B -DskipTests package), gcc and libfabric-dev.
set -euo pipefail

here="$(cd -P "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd -P "${here}/../.." && pwd)"
cycles="${1:-5}" write_iters="${2:-2000}" atomic_iters="${3:-100000}" idle="${4:-busy}"
jfabric="${root}/bin/jfabric"
[[ -f "${root}/tools/target/jfabric-tools.jar" ]] || {
    echo "rma-vs-libfabric: build first: mvn -B -DskipTests package" >&2; exit 1; }

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

lf_write=() lf_memcpy=() lf_atomic=() jf_write=() jf_atomic=()
echo "rma-vs-libfabric: $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, ${cycles} cycles, writes ${write_iters} x 1 MiB, fetch-adds ${atomic_iters}, jfabric bw --idle ${idle}"
for ((c = 1; c <= cycles; c++)); do
    lf="$("${here}/libfabric-rma.sh" 1 1048576 "${write_iters}" 200 64 "${atomic_iters}" 10000 write,atomic 2>&1)" || {
        echo "${lf}" >&2; exit 1; }
    lf_write+=("$(awk '$1 == "write" && $2 == "1m" && NF == 8 { print $6; exit }' <<<"${lf}")")
    lf_memcpy+=("$(awk '$1 == "memcpy" && $2 == "1m" && NF == 8 { print $6; exit }' <<<"${lf}")")
    lf_atomic+=("$(sed -n 's/^atomic fetch_add_u64.* p50=\([0-9]*\) .*/\1/p' <<<"${lf}" | head -1)")
    bw="$("${jfabric}" bw --self -o write -S 1m -I "${write_iters}" -W 200 --idle "${idle}" 2>&1)" || { echo "${bw}" >&2; exit 1; }
    jf_write+=("$(awk '$1 == "1m" { print $5; exit }' <<<"${bw}")")
    pp="$("${jfabric}" pingpong --self -o atomic -I "${atomic_iters}" 2>&1)" || { echo "${pp}" >&2; exit 1; }
    jf_atomic+=("$(sed -n 's/^rtt_ns p50=\([0-9]*\) .*/\1/p' <<<"${pp}" | head -1)")
    i=$((c - 1))
    printf 'cycle %d  load %s  write MB/sec libfabric %s jfabric %s  memcpy %s  fetch-add p50 ns libfabric %s jfabric %s\n' \
        "${c}" "$(cut -d' ' -f1 /proc/loadavg)" "${lf_write[i]}" "${jf_write[i]}" "${lf_memcpy[i]}" "${lf_atomic[i]}" \
        "${jf_atomic[i]}"
done
m_lfw=$(printf '%s\n' "${lf_write[@]}" | median)
m_jfw=$(printf '%s\n' "${jf_write[@]}" | median)
m_mc=$(printf '%s\n' "${lf_memcpy[@]}" | median)
m_lfa=$(printf '%s\n' "${lf_atomic[@]}" | median)
m_jfa=$(printf '%s\n' "${jf_atomic[@]}" | median)
echo "medians: write MB/sec libfabric ${m_lfw} jfabric ${m_jfw}; memcpy ${m_mc}; fetch-add p50 ns libfabric ${m_lfa} jfabric ${m_jfa}"
awk -v lfw="${m_lfw}" -v jfw="${m_jfw}" -v mc="${m_mc}" -v lfa="${m_lfa}" -v jfa="${m_jfa}" 'BEGIN {
    printf "ratio 1 MiB write jfabric/libfabric %.2f; write/memcpy jfabric %.2f, libfabric %.2f\n", jfw / lfw, jfw / mc, lfw / mc
    printf "ratio 8 B fetch-add p50 libfabric/jfabric %.2f (above 1: jfabric faster)\n", lfa / jfa }'
