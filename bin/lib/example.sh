# shellcheck shell=bash
# Sourced by bin/example-*: run_example NAME MAIN ARGS... runs one example's main class from
# examples/target/jfabric-examples.jar ($root must be set), with the --add-exports Agrona 2.x needs and $JAVA_OPTS
# (word-split) after it. Java is $JAVA_HOME/bin/java when JAVA_HOME is set, else `java` on the PATH. With a provider
# other than shm (-p tcp, --provider verbs, ...) the example runs on a JDK 22+ with the ofi provider's jar and native
# access, as bin/jfabric does (lib/ofi-runtime.sh says where they are looked for); if either is missing it says so
# and exits 1. If the examples' jar is missing this does not build it; it says how and exits 1.
source "$(dirname "${BASH_SOURCE[0]}")/ofi-runtime.sh"

run_example() {
    local name="$1" main="$2" jar="${root}/examples/target/jfabric-examples.jar" java="java" provider="shm" i
    shift 2
    if [[ ! -f "${jar}" ]]; then
        echo "${name}: ${jar} is missing; build it first:" >&2
        echo "    (cd '${root}' && mvn -B -DskipTests package)" >&2
        exit 1
    fi
    if [[ -n "${JAVA_HOME:-}" ]]; then
        java="${JAVA_HOME}/bin/java"
    fi
    local args=("$@")
    for ((i = 0; i + 1 < ${#args[@]}; i++)); do
        if [[ "${args[i]}" == "-p" || "${args[i]}" == "--provider" ]]; then
            provider="${args[i + 1]}"
        fi
    done
    if [[ "${provider}" == "shm" ]]; then
        # shellcheck disable=SC2086 # JAVA_OPTS holds several options on purpose
        exec "${java}" --add-exports java.base/jdk.internal.misc=ALL-UNNAMED ${JAVA_OPTS:-} -cp "${jar}" "${main}" "$@"
    fi
    ofi_runtime "${root}" "${java}"
    if [[ -z "${ofi_jar}" || -z "${ofi_java}" ]]; then
        echo "${name}: -p ${provider} runs over native libfabric through the ofi provider, which needs" >&2
        [[ -z "${ofi_jar}" ]] && echo "    its jar, ${root}/ofi-provider/target/jfabric-ofi-provider-*.jar:" \
            "build it with a JDK 22+ (cd '${root}' && mvn -B -DskipTests package)" >&2
        [[ -n "${ofi_jar}" ]] && echo "    a JDK 22+: set JFABRIC_OFI_JAVA to its bin/java (or JAVA_HOME to it)" >&2
        exit 1
    fi
    # shellcheck disable=SC2086 # JAVA_OPTS holds several options on purpose
    exec "${ofi_java}" --add-exports java.base/jdk.internal.misc=ALL-UNNAMED --enable-native-access=ALL-UNNAMED \
        ${JAVA_OPTS:-} -cp "${jar}:${ofi_jar}" "${main}" "$@"
}
