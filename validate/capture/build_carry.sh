#!/usr/bin/env bash
# Builds on the development machine what the GPU scripts take prebuilt, into
# the git-ignored build-gpu/ (carry it to the GPU machine with the run):
#
#   bash validate/capture/build_carry.sh [cli] [capture] [smoke] [mpi] [python]   (default: cli smoke python)
#
#   build-gpu/cli    build/bankcheck, build/bench/bench.replay and bench.capture_host, with every
#                    shared library they load except the C library's own, and
#                    RPATH $ORIGIN/lib (on the GPU machine: cp -r build-gpu/cli/. build/)
#   build-gpu/capture  build/bankcheck and, beside it where `bankcheck capture`
#                    looks for them, the capture library and patch fatbin
#                    Use: BANKCHECK=build-gpu/capture/bankcheck
#   build-gpu/smoke  the pieces of validate/capture/gpu_smoke.sh: the capture library
#                    and patches, the smoke driver and the programs it captures.
#                    Use: B=build-gpu/smoke OUT=DIR bash validate/capture/gpu_smoke.sh
#   build-gpu/mpi    OpenMPI's mpirun, components and libraries, relocatable
#                    (OPAL_PREFIX), for validate/mpi_scaling.sh
#   build-gpu/python the Python module for the GPU machine's Python (PYTHON, default
#                    python3.12: its 3.12.3), through which validate/'s scripts read
#                    ncu pages, kernel names and SASS text (validate/harness/native.py
#                    finds it there); built by the project's CMake as `pip install .`
#                    builds it (BANKCHECK_PYTHON), in build-python-gpu/
#
# capture and smoke are CMake's targets, nothing built by hand: the files of
# each part and the targets that build them are the list CMake writes,
# build/capture_carry.txt (cmake/BankcheckCapture.cmake). They are built against
# the sanitizer in .deps/sanitizer (the wheel of the GPU machine's CUDA version:
# scripts/setup.sh installs it) and packed with the shared libraries they load
# in lib/, every RPATH $ORIGIN/lib, the library's the GPU machine's
# compute-sanitizer first. The GPU machine has nvcc and CMake but not the
# project's dependencies (Boost, nlohmann-json, CLI11, ...): it builds nothing.
#
# BUILD (default build) is the CMake build folder; CARRY (default build-gpu) where the parts go;
# NO_BUILD=1 packs what BUILD holds without building (ctest capture.carry).
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
CARRY=${CARRY:-build-gpu}
what=("$@")
[ ${#what[@]} -gt 0 ] || what=(cli smoke python)
command -v patchelf >/dev/null || { echo "build_carry: patchelf is needed (apt-get install patchelf)" >&2; exit 2; }

# The libraries a file loads, outside the C library's own and the ones the GPU
# machine's driver and toolkit provide.
carried_libraries() {
  ldd "$1" | awk '/=> \// {print $3}' |
    grep -vE '/(libc|libm|libdl|libpthread|librt|libutil|ld-linux[^/]*|libsanitizer-public|libcuda)\.so' || true
}
# carry_part PART: CMake's files of PART (BUILD/capture_carry.txt), built unless NO_BUILD, into CARRY/PART.
carry_part() {
  local part=$1 list=$BUILD/capture_carry.txt
  [ -f "$list" ] || { echo "build_carry: no $list (CMake writes it where the capture is built: docs/capture.md)" >&2; exit 2; }
  local targets=() files=() target file
  while read -r p target file; do
    [ "$p" = "$part" ] && targets+=("$target") && files+=("$file")
  done <"$list"
  if [ -z "${NO_BUILD:-}" ]; then cmake --build "$BUILD" --target "${targets[@]}" >/dev/null; fi
  local c=$CARRY/$part
  rm -rf "$c" && mkdir -p "$c/lib"
  for file in "${files[@]}"; do
    [ -f "$file" ] || { echo "build_carry: $file is not built (target ${targets[*]})" >&2; exit 1; }
    cp "$file" "$c/"
    local f
    f=$c/$(basename "$file")
    if readelf -d "$f" 2>/dev/null | grep -q NEEDED; then  # a program or library, not the fatbin or cubin
      carried_libraries "$f" | xargs -r -I{} cp -L -n {} "$c/lib/"
      patchelf --remove-rpath "$f"
      case $f in
      *.so) patchelf --force-rpath --set-rpath '/usr/local/cuda/compute-sanitizer:$ORIGIN/lib' "$f" ;;
      *) patchelf --force-rpath --set-rpath '$ORIGIN/lib' "$f" ;;
      esac
    fi
  done
  echo "$c: $(ls "$c" | tr '\n' ' ')($(ls "$c/lib" | wc -l) libraries, $(du -sh "$c" | cut -f1))"
}

for w in "${what[@]}"; do
  case $w in
  cli)
    cmake --build "$BUILD" --target bankcheck bench.replay bench.capture_host bankcheck_capture_patches >/dev/null
    rm -rf "$CARRY/cli" && mkdir -p "$CARRY/cli/lib"
    cp "$BUILD/bankcheck" "$BUILD/bench/bench.replay" "$BUILD/bench/bench.capture_host" "$CARRY/cli/"
    for exe in "$CARRY/cli/bankcheck" "$CARRY/cli/bench.replay" "$CARRY/cli/bench.capture_host"; do
      ldd "$exe" | awk '/=> \// {print $3}' | grep -vE '/(libc|libm|libdl|libpthread|librt|ld-linux[^/]*)\.so' |
        xargs -r -I{} cp -L -n {} "$CARRY/cli/lib/"
      patchelf --remove-rpath "$exe"
      patchelf --force-rpath --set-rpath '$ORIGIN/lib' "$exe"
    done
    echo "$CARRY/cli: $(ls "$CARRY/cli" | tr '\n' ' ')($(ls "$CARRY/cli/lib" | wc -l) libraries)"
    ;;
  capture | smoke)
    carry_part "$w"
    ;;
  mpi)
    # Debian's OpenMPI, relocated under build-gpu/mpi for a machine without
    # it (run with OPAL_PREFIX=build-gpu/mpi: validate/mpi_scaling.sh).
    m=$CARRY/mpi
    rm -rf "$m" && mkdir -p "$m/bin" "$m/lib/x86_64-linux-gnu" "$m/share"
    cp -L "$(command -v orterun)" "$m/bin/orterun"
    cp -a /usr/lib/x86_64-linux-gnu/openmpi "$m/lib/x86_64-linux-gnu/"
    rm -rf "$m/lib/x86_64-linux-gnu/openmpi/include"  # headers: not needed to run
    cp -a /usr/share/openmpi "$m/share/"
    find "$m/bin" "$m/lib" -type f \( -name orterun -o -name '*.so*' \) -print0 | xargs -0 ldd 2>/dev/null |
      awk '/=> \// {print $3}' | sort -u | grep -vE '/(libc|libm|libdl|libpthread|librt|ld-linux[^/]*)\.so' |
      grep -v "^$PWD" | xargs -r -I{} cp -L -n {} "$m/lib/x86_64-linux-gnu/"
    echo "$m: $(du -sh "$m" | cut -f1)"
    ;;
  python)
    py=${PYTHON:-python3.12}
    "$py" -c "" 2>/dev/null || { echo "build_carry: $py does not run (the GPU machine's Python; PYTHON=... names another)" >&2; exit 2; }
    nb=.deps/nanobind/nanobind/cmake
    [ -f "$nb/nanobind-config.cmake" ] || { echo "build_carry: no $nb (scripts/setup.sh fetches nanobind)" >&2; exit 2; }
    cmake -S . -B build-python-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DBANKCHECK_PYTHON=ON \
      -DPython_EXECUTABLE="$("$py" -c 'import sys; print(sys.executable)')" -Dnanobind_DIR="$PWD/$nb" >/dev/null
    cmake --build build-python-gpu --target bankcheck_python >/dev/null
    rm -rf "$CARRY/python" && mkdir -p "$CARRY/python"
    cp build-python-gpu/python/bankcheck*.so "$CARRY/python/"
    echo "$CARRY/python: $(ls "$CARRY/python" | tr '\n' ' ')($(du -sh "$CARRY/python" | cut -f1))"
    ;;
  *) echo "build_carry: unknown part '$w' (cli, capture, smoke, mpi, python)" >&2; exit 2 ;;
  esac
done
