#!/usr/bin/env bash
# The ofi provider's data-path JMH benchmark (io.jfabric.ofi.bench.OfiDataPathBenchmark): the Java cost above the
# native call of inject, send and an empty CQ read on tcp;ofi_rxm, each jfabric call against the same native
# function called straight through FFM. Builds the test classes and their class path with Maven (private local
# repository), then runs JMH on Temurin 25. Arguments go to JMH (default: OfiDataPathBenchmark; a first argument
# that is not an option names the benchmarks instead, e.g. SlotPoolBenchmark: the slot pools alone).
#     ofi-provider/bench/jmh.sh                       # ~2.5 minutes on 2 cores
#     ofi-provider/bench/jmh.sh -p threading=SAFE     # one threading model
#     ofi-provider/bench/jmh.sh SlotPoolBenchmark     # the pools without a native call
#     ofi-provider/bench/jmh.sh -prof io.jfabric.ofi.bench.ThreadCpuProfiler  # + CPU time per op (loaded hosts)
set -euo pipefail
cd "$(dirname "$0")/.."
repo="${MAVEN_REPO:-/root/.m2-ofi/repository}"
java="${JFABRIC_OFI_JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}"
mvn -B -q -o -Dmaven.repo.local="${repo}" test-compile dependency:build-classpath -Dmdep.includeScope=test \
    -Dmdep.outputFile=target/test.classpath >/dev/null
gcc -O2 -Wall -shared -fPIC -o target/libjfnop.so src/test/c/jf_nop.c
cp="target/test-classes:target/classes:$(cat target/test.classpath)"
if [[ $# -gt 0 && "$1" != -* ]]; then
    exec "${java}" --enable-native-access=ALL-UNNAMED -cp "${cp}" org.openjdk.jmh.Main "$@"
fi
exec "${java}" --enable-native-access=ALL-UNNAMED -cp "${cp}" org.openjdk.jmh.Main OfiDataPathBenchmark "$@"
