#!/usr/bin/env bash
# Regenerates the fi_tostr golden fixtures in api/src/test/resources/golden/tostr/ from the real libfabric.
#
# Needs gcc and libfabric 1.17's headers and library (Debian: apt-get install libfabric-dev). The Java tests
# only read the committed fixtures; run this when the generator changes, then review the diff and commit it.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
dest="${here}/../resources/golden/tostr"
work="$(mktemp -d)"
trap 'rm -rf "${work}"' EXIT

cc="${CC:-gcc}"
"${cc}" -std=c11 -D_DEFAULT_SOURCE -Wall -Wextra -Werror -o "${work}/tostr_golden" "${here}/tostr_golden.c" -lfabric

version="$(printf '#include <stdio.h>\n#include <rdma/fabric.h>\nint main(void){int x=0;puts(fi_tostr(&x,FI_TYPE_VERSION));return 0;}\n' \
    | "${cc}" -x c -o "${work}/version" - -lfabric && "${work}/version")"
case "${version}" in
    1.17.*) ;;
    *) echo "libfabric ${version} found; the fixtures pin libfabric 1.17's fi_tostr. Refusing to overwrite them." >&2
       exit 1 ;;
esac

mkdir -p "${dest}"
"${work}/tostr_golden" "${work}"
for f in "${work}"/*.txt; do
    cp "${f}" "${dest}/"
done
echo "fixtures from libfabric ${version} written to ${dest}:"
(cd "${dest}" && grep -c '^@@ ' ./*.txt)
