#!/usr/bin/env bash
# Throughput (matches/s) of one tournament on the local process pool, on --backend dask with a
# LocalCluster, and on a scheduler + workers started by hand; checks the JSON standings are equal.
# Usage: bench/dask_throughput.sh [DEALS] [ROUNDS]   (needs `dask` on PATH: pip install 'maumau[dask]')
set -euo pipefail
deals=${1:-500}
rounds=${2:-3}
workers=2
port=${PORT:-8786}
out=$(mktemp -d)
tournament=(tournament -r strafpunten -b random -b random -b random -b random --deals "$deals" --seed 11 --format json -q)
matches=$((deals * 4))  # one table of 4, every deal under 4 rotations

dask scheduler --port "$port" --no-dashboard >"$out/scheduler.log" 2>&1 &
scheduler=$!
sleep 3
dask worker "tcp://127.0.0.1:$port" --nworkers "$workers" --nthreads 1 >"$out/workers.log" 2>&1 &
cluster_workers=$!
trap 'kill $cluster_workers; sleep 2; kill $scheduler; rm -rf "$out"' EXIT
sleep 5

run() {  # NAME ARGS...: one run, its wall time and rate
    local name=$1; shift
    rm -rf "$out/$name"
    local start end
    start=$(date +%s.%N)
    maumau "${tournament[@]}" --out "$out/$name" "$@" >"$out/$name.json"
    end=$(date +%s.%N)
    python3 -c "print(f'{\"$name\":<10} {$end - $start:6.2f} s  {$matches / ($end - $start):7.1f} matches/s')"
}

echo "$matches matches of strafpunten (4 random bots), $workers workers, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
for round in $(seq "$rounds"); do
    run processes --workers "$workers"
    run local --backend dask --workers "$workers"
    run cluster --backend dask --scheduler "tcp://127.0.0.1:$port"
done
cmp "$out/processes.json" "$out/local.json" && cmp "$out/processes.json" "$out/cluster.json" && echo "standings: byte-identical"
