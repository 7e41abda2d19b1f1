#!/bin/bash
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
#
# One of the team's reference harnesses (see README.md beside it), kept in the repository so it stands alone.
# libfabric's own shm provider (C, Debian's libfabric-bin) ping-pong on this host, for side-by-side figures.
# Usage: libfabric-shm.sh [sizes] [iterations]   e.g. libfabric-shm.sh 64,4096,1048576 20000
# fi_pingpong's usec/xfer is the mean of half a round trip.
set -eu
sizes=${1:-64,4096,1048576} iters=${2:-20000}
command -v fi_pingpong >/dev/null || { apt-get update -qq >/dev/null && apt-get install -y -qq libfabric-bin >/dev/null; }
port=$((20000 + RANDOM % 20000))
IFS=, read -ra list <<<"$sizes"
for s in "${list[@]}"; do
  timeout 120 fi_pingpong -p shm -e rdm -B "$port" -I "$iters" -S "$s" >/dev/null 2>&1 & srv=$!
  sleep 0.5
  timeout 120 fi_pingpong -p shm -e rdm -P "$port" -I "$iters" -S "$s" 127.0.0.1 2>&1 | tail -1
  wait $srv || true
done
