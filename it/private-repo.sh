# Sourced by the it/ scripts: a private Maven local repository seeded from the user's, so that what a script
# installs never reaches ~/.m2.
#
#   seed_private_repo DIR    makes DIR a copy of ${JFABRIC_IT_SEED_REPO:-~/.m2/repository} without io/jfabric:
#                            jars hard-linked (Maven never rewrites a jar it did not download or install), every
#                            other file (poms, _remote.repositories, metadata, checksums) a real copy; then touches
#                            DIR.stamp.
#   check_private_repo DIR   fails when Maven wrote through a hard link (into the seed) since DIR.stamp.

seed_private_repo() {
    local repo=$1 seed=${JFABRIC_IT_SEED_REPO:-$HOME/.m2/repository}
    mkdir -p "$repo"
    if [[ -d $seed ]]; then
        (cd "$seed" && find . -type f -name '*.jar' -print0 | xargs -0 -r cp -l --parents -t "$repo")
        (cd "$seed" && find . -type f ! -name '*.jar' -print0 | xargs -0 -r cp -p --parents -t "$repo")
        rm -rf "$repo/io/jfabric"   # whatever an earlier build left there must not satisfy a consumer
    fi
    touch "$repo.stamp"
}

check_private_repo() {
    local repo=$1 written
    written=$(find "$repo" -type f -links +1 -newer "$repo.stamp" | head -n 5)
    [[ -z $written ]] || { echo "Maven wrote through a hard link into the seed repository:" >&2; echo "$written" >&2; return 1; }
}
