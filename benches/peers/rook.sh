#!/bin/sh
# The counting peer table of docs/rook-tour.md (issue 21), measured in one
# run: every numbered Hamiltonian path of the empty k x k board (rook moves
# between adjacent cells) counted by MiniZinc + Gecode (benches/peers/rook.mzn,
# successor model with circuit, one thread, -a) and by
# `puzzlesat solve rook-tour --instance <empty k x k> --count -q`, each the
# whole process's wall time, each count checked against the known one
# (directed paths, twice OEIS A096969; a disagreement is flagged and exits 3).
# Usage: sh benches/peers/rook.sh [LIMIT_S [K...]]   (default: 120; 4 5)
set -u
limit=${1:-120}
[ $# -gt 0 ] && shift
sizes=${*:-4 5}
here=$(dirname "$0")
. "$here/lib.sh"
boards=$(mktemp -d)
trap 'rm -rf "$boards"' EXIT

# numbered Hamiltonian paths of the k x k grid graph (2 x OEIS A096969)
paths() {
    case $1 in
        1) echo 1 ;; 2) echo 8 ;; 3) echo 40 ;; 4) echo 552 ;; 5) echo 8648 ;;
        6) echo 458696 ;; 7) echo 27070560 ;;
        *) echo "rook.sh: no path count for k = $1 here" >&2; exit 1 ;;
    esac
}

# empty_board K: the instance file of the empty k x k board
empty_board() {
    f="$boards/empty-$1x$1.toml"
    {
        printf 'name = "empty %sx%s"\nrows = %s\ncols = %s\ngrid = """\n' "$1" "$1" "$1" "$1"
        i=0
        while [ "$i" -lt "$1" ]; do
            j=0 line=
            while [ "$j" -lt "$1" ]; do line="$line. "; j=$((j + 1)); done
            echo "$line"
            i=$((i + 1))
        done
        echo '"""'
    } > "$f"
    echo "$f"
}

header
for k in $sizes; do
    expected=$(paths "$k") || exit 1
    row "empty ${k}x$k board" "$expected" "$here/rook.mzn" "k=$k" rook-tour --instance "$(empty_board "$k")"
done
finish
