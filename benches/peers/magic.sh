#!/bin/sh
# The peer table of docs/magic.md, measured in one run: MiniZinc + Gecode
# (its own solveTime, one thread) beside puzzlesat (whole-process wall time,
# defaults) on the same rows. Needs `minizinc` with Gecode (Debian:
# apt-get install minizinc; its Gecode globals are included with -I) and a
# release build (cargo build --release). Usage: sh benches/peers/magic.sh [LIMIT_S]
set -u
limit=${1:-60}
here=$(dirname "$0")
mzn="$here/magic.mzn"
bin=${PUZZLESAT:-target/release/puzzlesat}
command -v minizinc >/dev/null || { echo "magic.sh: minizinc is not on PATH" >&2; exit 1; }
[ -x "$bin" ] || { echo "magic.sh: $bin missing: cargo build --release" >&2; exit 1; }

gecode() { # $1: -D data, $2: extra flags; prints solveTime or "not in ${limit} s"
    out=$(timeout $((limit + 30)) minizinc --solver gecode -I /usr/share/minizinc/gecode -p 1 -s \
        --time-limit $((limit * 1000)) $2 -D "$1" "$mzn" 2>&1)
    t=$(echo "$out" | sed -n 's/^%%%mzn-stat: solveTime=//p' | tail -1)
    sols=$(echo "$out" | sed -n 's/^%%%mzn-stat: solutions=//p' | tail -1)
    if echo "$out" | grep -q -- '----------'; then
        printf '%.2f s%s' "$t" "${sols:+ ($sols)}"
    else
        printf 'not in %s s' "$limit"
    fi
}

ours() { # $@: puzzlesat arguments; prints whole-process wall time and the count
    s=$(date +%s.%N)
    out=$(timeout $((limit + 30)) "$bin" solve magic "$@" --timeout "$limit" --json -q 2>/dev/null)
    e=$(date +%s.%N)
    st=$(echo "$out" | sed -n 's/.*"status":"\([a-z]*\)".*/\1/p')
    cnt=$(echo "$out" | sed -n 's/.*"count":\([0-9]*\).*/\1/p')
    case "$st" in
        sat) printf '%.2f s' "$(echo "$e - $s" | bc)" ;;
        all) printf '%.2f s (%s)' "$(echo "$e - $s" | bc)" "$cnt" ;;
        *) printf 'not in %s s' "$limit" ;;
    esac
}

echo "| work | MiniZinc + Gecode 6.2 (1 thread) | puzzlesat (defaults) |"
echo "| --- | --- | --- |"
for n in 8 10 12 16 20 25; do
    echo "| find N = $n | $(gecode "n=$n;order=false;find=true" "") | $(ours -n "$n") |"
done
echo "| count N = 4, source's order constraints (880) | $(gecode "n=4;order=true;find=false" -a) | $(ours -n 4 --all --symmetry order) |"
echo "| count N = 4, all (7040) | $(gecode "n=4;order=false;find=false" -a) | $(ours -n 4 --all) |"
