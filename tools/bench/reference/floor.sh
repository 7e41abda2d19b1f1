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
# Inter-process latency floor on this host (see Floor.java). Usage: floor.sh [round_trips]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
n=${1:-2000000}
f=/dev/shm/jfabric-floor-$$
java "$here/Floor.java" pong "$n" "$f" & pong=$!
java "$here/Floor.java" ping "$n" "$f"
wait $pong
