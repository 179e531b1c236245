#!/usr/bin/env bash
# ctest capture.carry: what validate/capture/build_carry.sh packs for the GPU
# machine (parts capture and smoke) is CMake's targets and nothing else:
#   - each part's folder holds exactly the files CMake lists for it
#     (BUILD/capture_carry.txt), beside lib/;
#   - each is the target's file: byte for byte, or for a program or library,
#     whose RPATH the packing rewrites, the same code and data sections;
#   - every library a packed program or library needs (its own and those of
#     lib/) is in lib/ or one the GPU machine provides (the C library's, the
#     driver's, the sanitizer's), and its RPATH reaches lib/.
# Skipped where the parts are not built (the patch fatbin builds with target
# gpu_programs where no GPU is).
#   carry_check.sh SOURCE_DIR BUILD_DIR WORK_DIR
set -uo pipefail
src=$1 build=$2 work=$3
list=$build/capture_carry.txt
command -v patchelf >/dev/null || { echo "skipped: no patchelf (scripts/setup.sh installs it)"; exit 77; }
[ -f "$list" ] || { echo "skipped: no $list (the capture is not built here)"; exit 77; }
missing=$(while read -r _ target file; do [ -f "$file" ] || echo "$file (target $target)"; done <"$list" | sort -u)
if [ -n "$missing" ]; then
  echo "skipped: not built: $(echo "$missing" | tr '\n' ' ')(cmake --build BUILD --target gpu_programs)"
  exit 77
fi
rm -rf "$work" && mkdir -p "$work"
if ! out=$(BUILD=$build CARRY=$work NO_BUILD=1 bash "$src/validate/capture/build_carry.sh" capture smoke 2>&1); then
  echo "$out"
  echo "build_carry.sh failed"
  exit 1
fi
echo "$out"
provided='^(libc\.so\.6|libm\.so\.6|libutil\.so\.1|libdl\.so\.2|libpthread\.so\.0|librt\.so\.1|ld-linux-x86-64\.so\.2|libcuda\.so\.1|libsanitizer-public\.so)$'
failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}
needed() { readelf -d "$1" 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'; }
sections() {  # the bytes of the sections that hold code and data, whatever the RPATH
  local s
  for s in .text .rodata .data .init_array .nv_fatbin; do
    objcopy -O binary --only-section="$s" "$1" /dev/stdout 2>/dev/null | sha256sum
  done
}
for part in capture smoke; do
  dir=$work/$part
  want=$(awk -v p="$part" '$1 == p {n = split($3, a, "/"); print a[n]}' "$list" | sort)
  have=$(find "$dir" -mindepth 1 -maxdepth 1 ! -name lib -printf '%f\n' | sort)
  [ "$want" = "$have" ] || fail "$part: packed [$(echo $have)], CMake lists [$(echo $want)]"
  while read -r p _ file; do
    [ "$p" = "$part" ] || continue
    packed=$dir/$(basename "$file")
    [ -f "$packed" ] || continue
    if [ -z "$(needed "$file")" ]; then
      cmp -s "$file" "$packed" || fail "$packed differs from $file"
      continue
    fi
    [ "$(sections "$file")" = "$(sections "$packed")" ] || fail "$packed: code or data differ from $file"
    rpath=$(readelf -d "$packed" | sed -n 's/.*(RPATH).*\[\(.*\)\]/\1/p')
    case $rpath in *'$ORIGIN/lib'*) ;; *) fail "$packed: RPATH '$rpath' does not reach lib/" ;; esac
  done <"$list"
  for f in "$dir"/* "$dir"/lib/*; do
    [ -f "$f" ] || continue
    for n in $(needed "$f"); do
      echo "$n" | grep -qE "$provided" || [ -f "$dir/lib/$n" ] || fail "$f needs $n, neither in lib/ nor on the GPU machine"
    done
  done
  echo "$part: $(echo $have); lib/: $(ls "$dir/lib" | tr '\n' ' ')"
done
[ "$failures" -eq 0 ] || exit 1
echo ok
