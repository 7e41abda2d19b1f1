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
# Aeron IPC ping-pong (three JVMs: media driver, Pong, Ping) on this host: the Java peer anchor.
# Prints Aeron's RTT histogram summary. Usage: aeron-ipc.sh [messages] [length]
set -eu
N=${1:-2000000} L=${2:-32}
V=1.51.0
J=$HOME/.m2/repository/io/aeron/aeron-all/$V/aeron-all-$V.jar
[ -f "$J" ] || mvn -q org.apache.maven.plugins:maven-dependency-plugin:3.8.1:get -Dartifact=io.aeron:aeron-all:$V >/dev/null
D=/dev/shm/aeron-anchor-$$
O="--add-opens java.base/jdk.internal.misc=ALL-UNNAMED -XX:+UseParallelGC"
P="-Daeron.dir=$D -Dagrona.disable.bounds.checks=true -Daeron.sample.ping.channel=aeron:ipc -Daeron.sample.pong.channel=aeron:ipc -Daeron.sample.exclusive.publications=true"
java $O -cp $J -Daeron.dir=$D -Daeron.dir.delete.on.shutdown=true -Daeron.threading.mode=SHARED -Daeron.shared.idle.strategy=backoff io.aeron.driver.MediaDriver >/dev/null 2>&1 & drv=$!
sleep 2
java $O -cp $J $P io.aeron.samples.Pong >/dev/null 2>&1 & pong=$!
sleep 1
echo n | java $O -cp $J $P -Daeron.sample.messages=$N -Daeron.sample.messageLength=$L -Daeron.sample.warmup.messages=200000 io.aeron.samples.Ping > "$D.out" 2>&1 || true
awk '/Histogram/{h=1; next} h && NF==4 && $2 ~ /^0\./ {
  if (!a && $2>=0.5) {printf "aeron rtt_us p50=%s", $1; a=1}
  if (!b && $2>=0.99) {printf " p99=%s", $1; b=1}
  if (!c && $2>=0.999) {printf " p99.9=%s", $1; c=1}}
  /#\[Mean/{gsub(/,/,""); m=$3} /#\[Max/{gsub(/[],]/,""); x=$3; n=$7}
  END {printf " mean=%s max=%s count=%s\n", m, x, n}' "$D.out"
kill $pong $drv 2>/dev/null; wait 2>/dev/null; rm -rf "$D" "$D.out"
