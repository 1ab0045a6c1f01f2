#!/bin/sh
# The small magic counts of docs/magic.md (issue 28, item 5), measured in one
# run: MiniZinc + Gecode (benches/peers/magic.mzn, one thread, -a; first-fail,
# smallest value, complete) and `puzzlesat solve magic -n N --count -q`
# (its defaults), each the whole process's wall time, each count checked
# against the known one (OEIS A006052 times the 8 symmetries; a disagreement
# is flagged in the row and exits 3). Each row runs REPEAT times (default 3),
# the two programs back to back.
# Usage: sh benches/peers/magic-count.sh [LIMIT_S [REPEAT]]   (default: 60 3)
set -u
limit=${1:-60}
repeat=${2:-3}
here=$(dirname "$0")
. "$here/lib.sh"
mzn="$here/magic.mzn"
header
for i in $(seq "$repeat"); do
    row "magic N = 4, the source's order constraints" 880 "$mzn" "n=4;order=true;find=false" magic -n 4 --symmetry order
    row "magic N = 4, all" 7040 "$mzn" "n=4;order=false;find=false" magic -n 4
done
finish
