# shellcheck shell=bash
# What the fidelity campaigns' GPU scripts share, sourced once W (the scratch
# folder) and R (the results folder packed at the end) are set:
#
#   probe_environment LINE...   environment.txt's header, also on stdout: UTC date,
#                               the GPU with its driver and clocks, ncu, nvcc, the git
#                               commit, then each LINE (the collectors copy these lines into the
#                               measured sets' headers, so their form stays put)
#   ncu_profile NAME LIMIT ARGS...
#                               one Nsight Compute run under `timeout LIMIT`, clocks
#                               left as they are (ARGS: ncu's options, then the program
#                               and its arguments) into $W/NAME.ncu-rep, its log in
#                               $R/NAME.ncu.log; its source page as $R/NAME.sass.csv
#                               and, with NCU_RAW=1, its raw page as $R/NAME.raw.csv
probe_environment() {
  {
    date -u +"date %Y-%m-%dT%H:%M:%SZ"
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv 2>&1
    echo "ncu: $(ncu --version 2>&1 | tail -n 1)"
    echo "nvcc: $(nvcc --version 2>&1 | tail -n 1)"
    echo "git: $(git rev-parse HEAD 2>/dev/null || echo 'not a git checkout')"
    local line
    for line in "$@"; do echo "$line"; done
  } > "$R/environment.txt"
  cat "$R/environment.txt"
}

ncu_profile() {
  local name=$1 limit=$2 t0=$SECONDS
  shift 2
  timeout "$limit" ncu --clock-control none -f -o "$W/$name" "$@" > "$R/$name.ncu.log" 2>&1
  echo "$name: ncu exit $? after $((SECONDS - t0)) s"
  ncu -i "$W/$name.ncu-rep" --page source --print-source sass --csv > "$R/$name.sass.csv" 2>&1
  [[ ${NCU_RAW:-0} == 1 ]] && ncu -i "$W/$name.ncu-rep" --page raw --csv > "$R/$name.raw.csv" 2>&1
  echo "$name: $(grep -c '^"Kernel Name"' "$R/$name.sass.csv") source blocks"
}
