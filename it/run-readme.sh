#!/usr/bin/env bash
# A newcomer's first hour, in CI (issue 31): clones this repository's committed HEAD into a temporary directory and,
# there, runs the README's command lines as a newcomer types them, in the README's order: every indented line that
# starts with `mvn`, `bin/` or `java`, its trailing `# comment` dropped, with the quick start saved as QuickStart.java
# from the README's java block first. Two kinds of line are not run: `mvn -B test` (CI's first step runs it) and
# lines with a placeholder (NAME, FILE). A line commented "host A" (a server) runs in the background while the next
# line, "host B" (its client), runs with <host A> = 127.0.0.1, and both with `-d lo` after `-p tcp` (loopback only,
# for the data too). Every line must exit 0; the quick
# start must print its "received hello" line; and once all have run, the shm root must be empty (clean removed the
# quick start's domain, and pingpong and bw remove their own).
#
# Maven in the clone uses a private local repository seeded from ~/.m2 (it/private-repo.sh), so the README's
# `mvn install` never reaches ~/.m2; the provider's root is a private directory (JFABRIC_SHM_DIR, as the README
# says). Exit 0 when every line passed.
#
#   it/run-readme.sh            offline (mvn -o): every plugin must already be in ~/.m2/repository
#   it/run-readme.sh --online   lets Maven fetch what ~/.m2 lacks, into the private copy only
#   it/run-readme.sh --keep     keeps the temporary directory (its path is printed)
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
start=$SECONDS
tmp=$(mktemp -d "${TMPDIR:-/tmp}/jfabric-readme.XXXXXX")
shm_parent=/dev/shm; [[ -d $shm_parent && -w $shm_parent ]] || shm_parent=$tmp
shm=$(mktemp -d "$shm_parent/jfabric-readme.XXXXXX")
cleanup() {
    local rc=$?
    [[ -z ${server_pid:-} ]] || kill "$server_pid" 2>/dev/null || true
    if (( keep )); then echo "kept $tmp and $shm"; else rm -rf "$tmp" "$shm"; fi
    (( rc == 0 )) || echo "run-readme: FAILED (exit $rc) after $((SECONDS - start)) s" >&2
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
step() { printf '[%3d s] %s\n' "$((SECONDS - start))" "$*"; }

clone=$tmp/clone
step "clone $(git -C "$root" rev-parse --short HEAD) into $clone; private repository $tmp/repo; shm root $shm"
git clone -q --no-hardlinks "$root" "$clone"
seed_private_repo "$tmp/repo"
mkdir -p "$clone/.mvn"
printf '%s\n' "-Dmaven.repo.local=$tmp/repo" ${offline:+"$offline"} > "$clone/.mvn/maven.config"
export JFABRIC_SHM_DIR=$shm

# The quick start, as the README says: "Save it as QuickStart.java".
awk '/^```java$/ { inside = 1; block = ""; next }
     inside && /^```$/ { inside = 0; if (block ~ /public final class QuickStart/) printf "%s", block; next }
     inside { block = block $0 "\n" }' "$clone/README.md" > "$clone/QuickStart.java"
[[ -s $clone/QuickStart.java ]] || { echo "no QuickStart class in the README's java blocks" >&2; exit 1; }

# Each line keeps its comment after a tab, so that "host A"/"host B" pairs can be told apart below.
mapfile -t lines < <(grep -E '^    (mvn |bin/|java )' "$clone/README.md" | sed -E 's/^    //; s/ {2,}# */\t/; s/ +$//')
(( ${#lines[@]} >= 10 )) || { echo "only ${#lines[@]} command lines in the README" >&2; exit 1; }
ran=0
skipped=0
server_pid=
server_out=
for entry in "${lines[@]}"; do
    line=${entry%%$'\t'*}
    comment=; [[ $entry == *$'\t'* ]] && comment=${entry#*$'\t'}
    if [[ $line == "mvn -B test" ]]; then
        step "skip: $line (CI's own first step)"; skipped=$((skipped + 1)); continue
    fi
    if [[ $line =~ (^|[[:space:]])(NAME|FILE)([[:space:]]|$) ]]; then
        step "skip: $line (a placeholder)"; skipped=$((skipped + 1)); continue
    fi
    out=$tmp/out.$ran
    if [[ $comment == *"host A"* || $comment == *"host B"* ]]; then
        # both hosts are this one: libfabric 1.17's tcp carries the data over its first interface (eth0) whatever
        # address the client is given, unless the domain is named; loopback is the only address a run may use
        line=${line/-p tcp /-p tcp -d lo }
    fi
    if [[ $comment == *"host A"* ]]; then
        # A server of a two-host pair: it waits for the "host B" line that follows, which runs on this host over
        # loopback (<host A> is 127.0.0.1). Both must exit 0.
        step "\$ $line &   (host A, in the background)"
        (cd "$clone" && exec timeout 300 bash -c "$line") > "$out" 2>&1 &
        server_pid=$!
        server_out=$out
        sleep 2
        ran=$((ran + 1))
        continue
    fi
    line=${line//<host A>/127.0.0.1}
    limit=300; [[ $line == mvn* ]] && limit=900
    step "\$ $line"
    rc=0
    (cd "$clone" && timeout "$limit" bash -c "$line") > "$out" 2>&1 || rc=$?
    tail -n 4 "$out" | sed 's/^/    /'
    (( rc == 0 )) || { echo "exit $rc:" >&2; tail -n 40 "$out" >&2; exit 1; }
    if [[ -n $server_pid ]]; then
        rc=0
        wait "$server_pid" || rc=$?
        step "host A's line ended (exit $rc)"
        tail -n 4 "$server_out" | sed 's/^/    /'
        (( rc == 0 )) || { echo "host A's line: exit $rc:" >&2; tail -n 40 "$server_out" >&2; exit 1; }
        server_pid=
    fi
    if [[ $line == *QuickStart.java* ]]; then
        grep -qE '^received hello at fi_shm://[^ ]+/quickstart\?gen=[0-9]+$' "$out" ||
            { echo "the quick start did not print its 'received hello at ...' line" >&2; exit 1; }
    fi
    ran=$((ran + 1))
done
[[ -z $server_pid ]] || { echo "a 'host A' line had no 'host B' line after it" >&2; exit 1; }
check_private_repo "$tmp/repo"
left=$(find "$shm" -mindepth 1 | head -n 5)
[[ -z $left ]] || { echo "left in the shm root after the README's commands:" >&2; echo "$left" >&2; exit 1; }
step "passed: $ran README command lines ran and exited 0, $skipped skipped; the shm root is empty"
