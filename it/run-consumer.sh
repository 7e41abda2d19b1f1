#!/usr/bin/env bash
# External-project integration test (issue 17): installs the reactor's api and shm-provider into a PRIVATE local
# repository, builds it/consumer (a project outside the reactor that names only the published coordinates) against
# it, and sends one message between two JVMs: the receiver on the class path, the sender on the module path.
# Never writes to ~/.m2: the private repository is a copy of it (jars hard-linked, every other file copied) with
# io/jfabric removed, and the script fails if a hard-linked file was written. Exit 0 when the message arrived.
#
#   it/run-consumer.sh            offline (mvn -o): every plugin must already be in ~/.m2/repository
#   it/run-consumer.sh --online   lets Maven fetch what ~/.m2 lacks (a fresh machine); into the private copy only
#   it/run-consumer.sh --keep     keeps the temporary directory for a look (its path is printed)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
offline=-o
keep=0
for arg in "$@"; do
    case "$arg" in
        --online) offline= ;;
        --keep) keep=1 ;;
        *) echo "usage: $0 [--online] [--keep]" >&2; exit 2 ;;
    esac
done
seed=${JFABRIC_IT_SEED_REPO:-$HOME/.m2/repository}
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

step "private repository $tmp/repo (from $seed), jfabric $version"
mkdir -p "$tmp/repo"
if [[ -d $seed ]]; then
    # Only jars are hard-linked: Maven never rewrites a jar it did not download or install, and neither happens to
    # an existing one here. Everything else (poms, _remote.repositories, metadata, checksums) is a real copy.
    (cd "$seed" && find . -type f -name '*.jar' -print0 | xargs -0 -r cp -l --parents -t "$tmp/repo")
    (cd "$seed" && find . -type f ! -name '*.jar' -print0 | xargs -0 -r cp -p --parents -t "$tmp/repo")
    rm -rf "$tmp/repo/io/jfabric"   # whatever an earlier build left there must not satisfy the consumer
fi
touch "$tmp/stamp"

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

written=$(find "$tmp/repo" -type f -links +1 -newer "$tmp/stamp" | head -n 5)
[[ -z $written ]] || { echo "Maven wrote through a hard link into $seed:" >&2; echo "$written" >&2; exit 1; }

step "two JVMs, root $shm: receiver on the class path, sender on the module path"
domain=it$$
props=("-Djfabric.shm.dir=$shm")
java $flag_cp "${props[@]}" -cp "$tmp/consumer/target/classes:$lib/*" \
    io.jfabric.it.consumer.Consumer receiver "$domain" "$tmp" > "$tmp/receiver.out" 2>&1 &
pids+=($!)
receiver=$!
message="hello from a consumer of jfabric $version"
sender_rc=0
java $flag_mp "${props[@]}" -p "$tmp/consumer/target/classes:$lib" \
    -m io.jfabric.it.consumer/io.jfabric.it.consumer.Consumer sender "$domain" "$tmp" "$message" \
    > "$tmp/sender.out" 2>&1 || sender_rc=$?
(( sender_rc == 0 )) || kill "$receiver" 2>/dev/null || true   # it would wait out its 60 s for nothing
receiver_rc=0
wait "$receiver" || receiver_rc=$?
pids=()
sed 's/^/  /' "$tmp/receiver.out" "$tmp/sender.out"
(( sender_rc == 0 )) || { echo "sender exited $sender_rc" >&2; exit 1; }
(( receiver_rc == 0 )) || { echo "receiver exited $receiver_rc" >&2; exit 1; }
got=$(cat "$tmp/received")
[[ $got == "$message" ]] || { echo "received \"$got\", expected \"$message\"" >&2; exit 1; }

step "passed: the message arrived"
echo "1 passed, 0 failed"
