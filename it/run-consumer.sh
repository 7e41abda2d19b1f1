#!/usr/bin/env bash
# External-project integration test (issue 17): installs the reactor's api and shm-provider into a PRIVATE local
# repository, builds it/consumer (a project outside the reactor that names only the published coordinates) against
# it, and checks the provider as a user sees it:
#   - jfabric-shm-provider's jar is the explicit module io.jfabric.shm: it exports exactly io.jfabric.shm,
#     io.jfabric.shm.config and io.jfabric.shm.stat (no internal package, not even to a named module, nothing
#     opened) and provides io.jfabric.spi.FabricProvider with io.jfabric.shm.ShmProvider;
#   - a named module that imports an internal package (io.jfabric.shm.region) does not compile;
#   - one message between two JVMs, twice: receiver on the class path and sender on the module path, then receiver
#     on the module path and sender on the class path. On the module path the consumer requires only io.jfabric.api
#     and the provider comes in by service binding (no --add-modules); each JVM says how it loaded the provider;
#   - it/monitor, a named module that requires io.jfabric.shm, compiled with javac against the installed jars, reads
#     the second round's live domain with DomainStat.read on the module path.
# Never writes to ~/.m2: the private repository is a copy of it (it/private-repo.sh: jars hard-linked, the rest copied) with
# io/jfabric removed, and the script fails if a hard-linked file was written. Exit 0 when every check passed.
#
#   it/run-consumer.sh            offline (mvn -o): every plugin must already be in ~/.m2/repository
#   it/run-consumer.sh --online   lets Maven fetch what ~/.m2 lacks (a fresh machine); into the private copy only
#   it/run-consumer.sh --keep     keeps the temporary directory for a look (its path is printed)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/it/private-repo.sh"
offline=-o
keep=0
for arg in "$@"; do
    case "$arg" in
        --online) offline= ;;
        --keep) keep=1 ;;
        *) echo "usage: $0 [--online] [--keep]" >&2; exit 2 ;;
    esac
done
flag_cp='--add-exports java.base/jdk.internal.misc=ALL-UNNAMED'   # Agrona on the class path
flag_mp='--add-exports java.base/jdk.internal.misc=org.agrona'    # Agrona on the module path
start=$SECONDS

tmp=$(mktemp -d "${TMPDIR:-/tmp}/jfabric-it.XXXXXX")
shm_parent=/dev/shm; [[ -d $shm_parent && -w $shm_parent ]] || shm_parent=$tmp
shm=$(mktemp -d "$shm_parent/jfabric-it.XXXXXX")   # the provider's root: a private directory, 0700
pids=()
cleanup() {
    local rc=$?
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    if (( keep )); then echo "kept $tmp and $shm"; else rm -rf "$tmp" "$shm"; fi
    (( rc == 0 )) || echo "run-consumer: FAILED (exit $rc) after $((SECONDS - start)) s" >&2
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

step() { printf '[%3d s] %s\n' "$((SECONDS - start))" "$*"; }

version=$(sed -n '/<artifactId>jfabric-parent<\/artifactId>/,/<version>/s:.*<version>\(.*\)</version>.*:\1:p' \
    "$root/pom.xml" | head -n 1)
[[ -n $version ]] || { echo "no version in $root/pom.xml" >&2; exit 1; }

step "private repository $tmp/repo (from ${JFABRIC_IT_SEED_REPO:-$HOME/.m2/repository}), jfabric $version"
seed_private_repo "$tmp/repo"

mvn_private=(mvn -B -q $offline "-Dmaven.repo.local=$tmp/repo")

step "install api and shm-provider (with parent, sources and javadoc) into the private repository"
"${mvn_private[@]}" -f "$root/pom.xml" -pl api,shm-provider -am -Dmaven.test.skip=true install \
    > "$tmp/install.log" 2>&1 || { cat "$tmp/install.log" >&2; exit 1; }
for a in jfabric-api jfabric-shm-provider; do
    for c in "" -sources -javadoc; do
        f=$tmp/repo/io/jfabric/$a/$version/$a-$version$c.jar
        [[ -s $f ]] || { echo "missing after install: $f" >&2; exit 1; }
    done
done
[[ -s $tmp/repo/io/jfabric/jfabric-parent/$version/jfabric-parent-$version.pom ]] || {
    echo "missing after install: jfabric-parent $version pom" >&2; exit 1; }

step "build it/consumer against the private repository"
cp -r "$root/it/consumer" "$tmp/consumer"
"${mvn_private[@]}" -f "$tmp/consumer/pom.xml" "-Djfabric.version=$version" package \
    > "$tmp/consumer.log" 2>&1 || { cat "$tmp/consumer.log" >&2; exit 1; }
lib=$tmp/consumer/target/lib
ls "$lib"
for a in jfabric-api jfabric-shm-provider; do   # the consumer got the jars just built, not older ones
    cmp -s "$lib/$a-$version.jar" "$root/${a#jfabric-}/target/$a-$version.jar" || {
        echo "$lib/$a-$version.jar differs from the reactor's" >&2; exit 1; }
done

check_private_repo "$tmp/repo"

passed=0
provider_jar=$lib/jfabric-shm-provider-$version.jar
step "module descriptor of $(basename "$provider_jar")"
describe=$(jar --describe-module --file "$provider_jar")
sed 's/^/  /' <<<"$describe"
expected_exports='io.jfabric.shm io.jfabric.shm.config io.jfabric.shm.stat'
expected_provides='provides io.jfabric.spi.FabricProvider with io.jfabric.shm.ShmProvider'
first=$(head -n 1 <<<"$describe")
[[ $first == "io.jfabric.shm@$version "*'!/module-info.class' ]] || {
    echo "not the explicit (module-info), non-open module io.jfabric.shm@$version: $first" >&2; exit 1; }
exports=$(sed -n 's/^exports //p' <<<"$describe" | sort | paste -sd ' ' -)
[[ $exports == "$expected_exports" ]] || {
    echo "exports \"$exports\", expected exactly \"$expected_exports\"; internal packages must stay unexported" >&2
    exit 1; }
opened=$(grep -E '^(qualified exports|opens|qualified opens) ' <<<"$describe" || true)
[[ -z $opened ]] || { echo "internal packages exported to named modules or opened:" >&2; echo "$opened" >&2; exit 1; }
provides=$(grep '^provides ' <<<"$describe" || true)
[[ $provides == "$expected_provides" ]] || {
    echo "provides \"$provides\", expected \"$expected_provides\"" >&2; exit 1; }
passed=$((passed + 1))

step "a named module that imports an internal package of io.jfabric.shm does not compile"
internal=$tmp/internal
mkdir -p "$internal/src/io/jfabric/it/internal"
printf '%s\n' 'module io.jfabric.it.internal { requires io.jfabric.shm; }' > "$internal/src/module-info.java"
printf '%s\n' 'package io.jfabric.it.internal;' \
    'final class Internal { static final Class<?> REGION = io.jfabric.shm.region.RegionFile.class; }' \
    > "$internal/src/io/jfabric/it/internal/Internal.java"
if javac --release 17 -p "$lib" -d "$internal/out" "$internal/src/module-info.java" \
    "$internal/src/io/jfabric/it/internal/Internal.java" > "$internal/javac.out" 2>&1; then
    echo "io.jfabric.shm.region is reachable from a named module" >&2; exit 1
fi
grep -F 'package io.jfabric.shm.region is declared in module io.jfabric.shm, which does not export it' \
    "$internal/javac.out" || { cat "$internal/javac.out" >&2; exit 1; }
passed=$((passed + 1))

step "compile it/monitor (requires io.jfabric.shm) on the module path"
monitor=$tmp/monitor
javac --release 17 -Xlint:all -Werror -p "$lib" -d "$monitor" \
    $(find "$root/it/monitor/src/main/java" -name '*.java') > "$tmp/monitor.log" 2>&1 ||
    { cat "$tmp/monitor.log" >&2; exit 1; }

props=("-Djfabric.shm.dir=$shm")
classes=$tmp/consumer/target/classes
# consumer MODE ROLE ARGS...: MODE "class" (unnamed module, =ALL-UNNAMED) or "module" (named module, =org.agrona)
consumer() {
    local mode=$1; shift
    if [[ $mode == class ]]; then
        java $flag_cp "${props[@]}" -cp "$classes:$lib/*" io.jfabric.it.consumer.Consumer "$@"
    else
        java $flag_mp "${props[@]}" -p "$classes:$lib" -m io.jfabric.it.consumer/io.jfabric.it.consumer.Consumer "$@"
    fi
}
# How each JVM must have loaded the provider.
provider_line() {
    if [[ $1 == class ]]; then
        echo "$2: provider module unnamed"
    else
        echo "$2: provider module io.jfabric.shm explicit, exports $expected_exports"
    fi
}
# round NAME RECEIVER_MODE SENDER_MODE [monitor]: one message; with "monitor", it/monitor reads the live domain
# between the receiver's start and the sender's.
round() {
    local name=$1 rmode=$2 smode=$3 with_monitor=${4:-}
    local dir=$tmp/$name domain=it$$$name
    mkdir -p "$dir"
    step "$name: two JVMs, root $shm: receiver on the $rmode path, sender on the $smode path"
    consumer "$rmode" receiver "$domain" "$dir" > "$dir/receiver.out" 2>&1 &
    local receiver=$!
    pids+=("$receiver")
    if [[ -n $with_monitor ]]; then
        local waited=0
        while [[ ! -e $dir/receiver.addr ]]; do
            kill -0 "$receiver" 2>/dev/null && (( waited < 600 )) || {
                sed 's/^/  /' "$dir/receiver.out"; echo "receiver did not publish its address" >&2; exit 1; }
            sleep 0.1; waited=$((waited + 1))
        done
        java $flag_mp -p "$monitor:$lib" -m io.jfabric.it.monitor/io.jfabric.it.monitor.Monitor \
            "$shm/$domain.domain" "$domain" > "$dir/monitor.out" 2>&1 ||
            { sed 's/^/  /' "$dir/monitor.out"; echo "monitor failed" >&2; exit 1; }
    fi
    local message="hello from a consumer of jfabric $version ($name)"
    local sender_rc=0
    consumer "$smode" sender "$domain" "$dir" "$message" > "$dir/sender.out" 2>&1 || sender_rc=$?
    (( sender_rc == 0 )) || kill "$receiver" 2>/dev/null || true   # it would wait out its 60 s for nothing
    local receiver_rc=0
    wait "$receiver" || receiver_rc=$?
    pids=()
    sed 's/^/  /' "$dir/receiver.out" ${with_monitor:+"$dir/monitor.out"} "$dir/sender.out"
    (( sender_rc == 0 )) || { echo "sender exited $sender_rc" >&2; exit 1; }
    (( receiver_rc == 0 )) || { echo "receiver exited $receiver_rc" >&2; exit 1; }
    local got
    got=$(cat "$dir/received")
    [[ $got == "$message" ]] || { echo "received \"$got\", expected \"$message\"" >&2; exit 1; }
    grep -qxF "$(provider_line "$rmode" receiver)" "$dir/receiver.out" ||
        { echo "receiver: expected \"$(provider_line "$rmode" receiver)\"" >&2; exit 1; }
    grep -qxF "$(provider_line "$smode" sender)" "$dir/sender.out" ||
        { echo "sender: expected \"$(provider_line "$smode" sender)\"" >&2; exit 1; }
    passed=$((passed + 1))
}

round cp-to-mp class module
round mp-to-cp module class monitor

step "passed: descriptor, encapsulation, both messages arrived, the monitor read the domain"
echo "$passed passed, 0 failed"
