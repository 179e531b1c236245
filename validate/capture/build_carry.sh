#!/usr/bin/env bash
# Builds on the development machine what the GPU scripts take prebuilt, into
# the git-ignored build-gpu/ (carry it to the GPU machine with the run):
#
#   bash validate/capture/build_carry.sh [cli] [capture] [smoke] [mpi]      (default: cli smoke)
#
#   build-gpu/cli    build/bankcheck, build/bench/bench.replay and bench.capture_host, with every
#                    shared library they load except the C library's own, and
#                    RPATH $ORIGIN/lib (on the GPU machine: cp -r build-gpu/cli/. build/)
#   build-gpu/capture  build/bankcheck and, beside it where `bankcheck capture`
#                    looks for them, the capture library and patch fatbin as CMake
#                    built them (against the sanitizer in .deps/sanitizer: the GPU
#                    machine's CUDA version), with the shared libraries they load in
#                    lib/; the library's RPATH is the GPU machine's compute-sanitizer,
#                    then lib/. Use: BANKCHECK=build-gpu/capture/bankcheck
#   build-gpu/smoke  the capture pieces of validate/capture/gpu_smoke.sh, built
#                    against the sanitizer in .deps/sanitizer (the wheel of the
#                    GPU machine's CUDA version: scripts/setup.sh installs it);
#                    the library's RPATH points at the GPU machine's toolkit.
#                    Use: PREBUILT_B=build-gpu/smoke OUT=DIR bash validate/capture/gpu_smoke.sh
#   build-gpu/mpi    OpenMPI's mpirun, components and libraries, relocatable
#                    (OPAL_PREFIX), for validate/mpi_scaling.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
what=("$@")
[ ${#what[@]} -gt 0 ] || what=(cli smoke)
command -v patchelf >/dev/null || { echo "build_carry: patchelf is needed (apt-get install patchelf)" >&2; exit 2; }

for w in "${what[@]}"; do
  case $w in
  cli)
    ninja -C build bankcheck bench.replay bench.capture_host bankcheck_capture_patches >/dev/null
    rm -rf build-gpu/cli && mkdir -p build-gpu/cli/lib
    cp build/bankcheck build/bench/bench.replay build/bench/bench.capture_host build-gpu/cli/
    for exe in build-gpu/cli/bankcheck build-gpu/cli/bench.replay build-gpu/cli/bench.capture_host; do
      ldd "$exe" | awk '/=> \// {print $3}' | grep -vE '/(libc|libm|libdl|libpthread|librt|ld-linux[^/]*)\.so' |
        xargs -r -I{} cp -L -n {} build-gpu/cli/lib/
      patchelf --remove-rpath "$exe"
      patchelf --force-rpath --set-rpath '$ORIGIN/lib' "$exe"
    done
    echo "build-gpu/cli: $(ls build-gpu/cli | tr '\n' ' ')($(ls build-gpu/cli/lib | wc -l) libraries)"
    ;;
  capture)
    ninja -C build bankcheck bankcheck_capture_injection bankcheck_capture_patches >/dev/null
    c=build-gpu/capture
    rm -rf "$c" && mkdir -p "$c/lib"
    cp build/bankcheck build/libbankcheck_capture.so build/bankcheck_capture_patches.fatbin "$c/"
    for f in "$c/bankcheck" "$c/libbankcheck_capture.so"; do
      ldd "$f" | awk '/=> \// {print $3}' | grep -vE '/(libc|libm|libdl|libpthread|librt|ld-linux[^/]*|libsanitizer-public)\.so' |
        xargs -r -I{} cp -L -n {} "$c/lib/"
      patchelf --remove-rpath "$f"
    done
    patchelf --force-rpath --set-rpath '$ORIGIN/lib' "$c/bankcheck"
    patchelf --force-rpath --set-rpath '/usr/local/cuda/compute-sanitizer:$ORIGIN/lib' "$c/libbankcheck_capture.so"
    echo "build-gpu/capture: $(ls "$c" | tr '\n' ' ')($(ls "$c/lib" | wc -l) libraries, $(du -sh "$c" | cut -f1))"
    ;;
  smoke)
    san=$(dirname "$(dirname "$(find .deps/sanitizer -name sanitizer_patching.h | head -n 1)")")
    [ -d "$san/include" ] || { echo "build_carry: no sanitizer headers under .deps/sanitizer" >&2; exit 2; }
    tmp=$(mktemp -d)
    BUILD_ONLY=1 SKIP_PYTHON=1 SAN=$san OUT=$tmp bash validate/capture/gpu_smoke.sh
    if grep -q 'rc=[1-9]' "$tmp/summary.txt"; then
      echo "build_carry: a smoke build step failed (logs in $tmp)" >&2
      exit 1
    fi
    rm -rf build-gpu/smoke && mkdir -p build-gpu && mv "$tmp/build" build-gpu/smoke
    patchelf --set-rpath /usr/local/cuda/compute-sanitizer build-gpu/smoke/libbankcheck_capture.so
    rm -rf "$tmp"
    echo "build-gpu/smoke: $(ls build-gpu/smoke | tr '\n' ' ')"
    ;;
  mpi)
    # Debian's OpenMPI, relocated under build-gpu/mpi for a machine without
    # it (run with OPAL_PREFIX=build-gpu/mpi: validate/mpi_scaling.sh).
    m=build-gpu/mpi
    rm -rf "$m" && mkdir -p "$m/bin" "$m/lib/x86_64-linux-gnu" "$m/share"
    cp -L "$(command -v orterun)" "$m/bin/orterun"
    cp -a /usr/lib/x86_64-linux-gnu/openmpi "$m/lib/x86_64-linux-gnu/"
    rm -rf "$m/lib/x86_64-linux-gnu/openmpi/include"  # headers: not needed to run
    cp -a /usr/share/openmpi "$m/share/"
    find "$m/bin" "$m/lib" -type f \( -name orterun -o -name '*.so*' \) -print0 | xargs -0 ldd 2>/dev/null |
      awk '/=> \// {print $3}' | sort -u | grep -vE '/(libc|libm|libdl|libpthread|librt|ld-linux[^/]*)\.so' |
      grep -v "^$PWD" | xargs -r -I{} cp -L -n {} "$m/lib/x86_64-linux-gnu/"
    echo "build-gpu/mpi: $(du -sh "$m" | cut -f1)"
    ;;
  *) echo "build_carry: unknown part '$w' (cli, capture, smoke, mpi)" >&2; exit 2 ;;
  esac
done
