# shellcheck shell=bash
# Sourced by bin/jfabric and bin/example-*: where the ofi provider (native libfabric: -p tcp, verbs, ...) can run.
# It needs Java 22+. ofi_runtime ROOT JAVA sets
#     ofi_jar   the provider's jar (ofi-provider/target/jfabric-ofi-provider-*.jar), empty when it is not built;
#     ofi_java  a JDK 22+ java: $JFABRIC_OFI_JAVA, else JAVA when it is 22+, else Temurin 25 at its usual path;
#               empty when there is none (or no jar).
ofi_feature() { "$1" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p'; }

ofi_runtime() {
    local root="$1" java="$2" candidate
    ofi_jar="$(ls "${root}"/ofi-provider/target/jfabric-ofi-provider-*[0-9T].jar 2>/dev/null | head -n 1 || true)"
    ofi_java=""
    if [[ -n "${ofi_jar}" ]]; then
        for candidate in "${JFABRIC_OFI_JAVA:-}" "${java}" /usr/lib/jvm/temurin-25-jdk-amd64/bin/java; do
            if [[ -n "${candidate}" ]] && command -v "${candidate}" >/dev/null 2>&1 &&
               (( $(ofi_feature "${candidate}" || echo 0) >= 22 )); then
                ofi_java="${candidate}"
                break
            fi
        done
    fi
}
