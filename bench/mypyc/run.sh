#!/bin/bash
# The mypyc experiment of issue 6: the same commit pure and with runner/engine.py + runner/referee.py
# compiled, timed by bench/peers.py in alternation (each process also times the peers).
#   bash bench/mypyc/run.sh [WORKDIR]     needs: pip install mypy '.[bench]', a C compiler
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
work=${1:-/tmp/maumau-mypyc}
rm -rf "$work" && mkdir -p "$work/pure" "$work/compiled"
for tree in pure compiled; do
  git -C "$repo" archive HEAD | tar -x -C "$work/$tree"
  (cd "$work/$tree" && git apply "$here/source.patch")  # typing the compiler needs; behaviour unchanged
done
(cd "$work/compiled" && python "$here/build.py" runner/engine.py runner/referee.py >/dev/null)
for run in 1 2; do
  for tree in pure compiled; do
    PYTHONPATH="$work/$tree" python "$work/$tree/bench/peers.py" --players 4 --logs off,memory --runs 3 --seconds 1 \
      --out "$work/peers-$tree-$run.md" >/dev/null
    echo "$tree run $run: $work/peers-$tree-$run.md"
  done
done
