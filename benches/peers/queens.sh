#!/bin/sh
# The counting peer table of docs/queens.md (issue 21), measured in one run:
# all N-queens placements counted by MiniZinc + Gecode (benches/peers/queens.mzn,
# one thread, -a) and by `puzzlesat solve queens -n N --count -q`, each the
# whole process's wall time, each count checked against OEIS A000170 (a
# disagreement is flagged in the row and exits 3). A count not finished in
# LIMIT seconds shows as "not in LIMIT s".
# Usage: sh benches/peers/queens.sh [LIMIT_S [N...]]   (default: 120; 8 10 11 12 13)
# GECODE_ALLDIFF=native uses Gecode's all-different propagator instead of
# the binary decomposition (slower here; see queens.mzn).
set -u
limit=${1:-120}
[ $# -gt 0 ] && shift
sizes=${*:-8 10 11 12 13}
here=$(dirname "$0")
. "$here/lib.sh"
case ${GECODE_ALLDIFF:-decomposed} in
    native) native=true ;;
    decomposed) native=false ;;
    *) echo "queens.sh: GECODE_ALLDIFF is native or decomposed" >&2; exit 1 ;;
esac

# OEIS A000170: placements of n non-attacking queens on an n x n board
a000170() {
    case $1 in
        1) echo 1 ;; 2|3) echo 0 ;; 4) echo 2 ;; 5) echo 10 ;; 6) echo 4 ;; 7) echo 40 ;;
        8) echo 92 ;; 9) echo 352 ;; 10) echo 724 ;; 11) echo 2680 ;; 12) echo 14200 ;;
        13) echo 73712 ;; 14) echo 365596 ;; 15) echo 2279184 ;; 16) echo 14772512 ;;
        *) echo "queens.sh: no A000170 term for n = $1 here" >&2; exit 1 ;;
    esac
}

header
for n in $sizes; do
    expected=$(a000170 "$n") || exit 1
    row "queens n = $n" "$expected" "$here/queens.mzn" "n=$n;native=$native" queens -n "$n"
done
finish
