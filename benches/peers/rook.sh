#!/bin/sh
# The counting peer table of docs/rook-tour.md (issue 21), measured in one
# run: every numbered Hamiltonian path of the empty k x k board (rook moves
# between adjacent cells) counted by MiniZinc + Gecode (benches/peers/rook.mzn,
# successor model with circuit, one thread, -a) and by
# `puzzlesat solve rook-tour --instance instances/rook-empty-KxK.toml --count -q`
# (k = 4, 5, 6 are shipped), each the whole process's wall time, each count
# checked against the known one (directed paths, OEIS A096969; a
# disagreement is flagged and exits 3). Run from the repository root.
# Usage: sh benches/peers/rook.sh [LIMIT_S [K...]]   (default: 120; 4 5)
set -u
limit=${1:-120}
[ $# -gt 0 ] && shift
sizes=${*:-4 5}
here=$(dirname "$0")
. "$here/lib.sh"

# numbered Hamiltonian paths of the k x k grid graph (directed: OEIS A096969)
paths() {
    case $1 in
        1) echo 1 ;; 2) echo 8 ;; 3) echo 40 ;; 4) echo 552 ;; 5) echo 8648 ;;
        6) echo 458696 ;; 7) echo 27070560 ;;
        *) echo "rook.sh: no path count for k = $1 here" >&2; exit 1 ;;
    esac
}

# empty_board K: the shipped instance file of the empty k x k board
empty_board() {
    f="instances/rook-empty-$1x$1.toml"
    [ -f "$f" ] || { echo "rook.sh: $f missing (run from the repository root)" >&2; exit 1; }
    echo "$f"
}

header
for k in $sizes; do
    expected=$(paths "$k") || exit 1
    board=$(empty_board "$k") || exit 1
    row "empty ${k}x$k board" "$expected" "$here/rook.mzn" "k=$k" rook-tour --instance "$board"
done
finish
