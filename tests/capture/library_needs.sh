#!/usr/bin/env bash
# ctest capture.library_needs: what the injected library needs, as the
# dynamic loader reads it (its NEEDED entries), is the Compute Sanitizer API
# and the C and C++ runtimes, nothing else: it is loaded into every captured
# program, so a library it needs (OpenMPI, which the CLI's layers bring) is
# loaded into the user's program too.
#   library_needs.sh LIBRARY
set -uo pipefail
lib=$1
allowed='^(libsanitizer-public\.so|libstdc\+\+\.so\.6|libgcc_s\.so\.1|libm\.so\.6|libc\.so\.6|ld-linux-x86-64\.so\.2|libdl\.so\.2|libpthread\.so\.0|librt\.so\.1)$'
needs=$(readelf -d "$lib" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p') || { echo "readelf cannot read $lib"; exit 1; }
[ -n "$needs" ] || { echo "$lib: no NEEDED entries read"; exit 1; }
echo "$lib needs: $(echo "$needs" | tr '\n' ' ')"
extra=$(echo "$needs" | grep -vE "$allowed")
if [ -n "$extra" ]; then
  echo "$lib needs what a captured program should not load: $(echo "$extra" | tr '\n' ' ')"
  exit 1
fi
echo ok
