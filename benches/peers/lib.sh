# Shared by the counting peer scripts (queens.sh, rook.sh; sourced): one
# table row per instance, MiniZinc + Gecode (1 thread, -a) beside
# puzzlesat --count, both whole-process wall time, both counts checked
# against the expected one. Needs `minizinc` with Gecode (Debian: apt-get
# install minizinc) and a release build (cargo build --release).
# The caller sets `limit` (seconds per run); PUZZLESAT overrides the binary.
bin=${PUZZLESAT:-target/release/puzzlesat}
disagree=0
command -v minizinc >/dev/null || { echo "peers: minizinc is not on PATH" >&2; exit 1; }
command -v bc >/dev/null || { echo "peers: bc is not on PATH (apt-get install bc)" >&2; exit 1; }
[ -x "$bin" ] || { echo "peers: $bin missing: cargo build --release" >&2; exit 1; }

now() { date +%s.%N; }

# gecode_count MODEL DATA: sets wall (seconds) and count (empty: not done in $limit s)
gecode_count() {
    start=$(now)
    out=$(timeout "$limit" minizinc --solver gecode -p 1 -s -a -D "$2" "$1" 2>/dev/null)
    wall=$(echo "$(now) - $start" | bc)
    count=
    # "==========": the search space is exhausted, the count is exact
    if echo "$out" | grep -q '^==========$'; then
        count=$(echo "$out" | sed -n 's/^%%%mzn-stat: solutions=//p' | tail -1)
    fi
}

# ours_count PUZZLESAT_SOLVE_ARGS...: sets wall and count (empty: not exact in $limit s)
ours_count() {
    start=$(now)
    out=$(timeout $((limit + 30)) "$bin" solve "$@" --count -q --timeout "$limit" 2>/dev/null)
    wall=$(echo "$(now) - $start" | bc)
    count=$(echo "$out" | sed -n 's/^exactly \([0-9]*\) .*/\1/p')
}

# cell SECONDS COUNT: one table cell
cell() {
    if [ -n "$2" ]; then printf '%.2f s (%s)' "$1" "$2"; else printf 'not in %s s' "$limit"; fi
}

header() {
    echo "| work | expected | MiniZinc + Gecode 6.2 (1 thread, -a) | puzzlesat --count | Gecode / puzzlesat | counts |"
    echo "| --- | ---: | ---: | ---: | ---: | --- |"
}

# row LABEL EXPECTED MODEL DATA PUZZLESAT_SOLVE_ARGS...: measures both, prints the row
row() {
    label=$1 expected=$2 model=$3 data=$4
    shift 4
    gecode_count "$model" "$data"
    g_wall=$wall g_count=$count
    ours_count "$@"
    o_wall=$wall o_count=$count
    ratio=-
    if [ -n "$g_count" ] && [ -n "$o_count" ]; then
        ratio=$(printf '%.2f' "$(echo "$g_wall / $o_wall" | bc -l)")
    fi
    verdict=agree
    for c in "$g_count" "$o_count"; do
        if [ -n "$c" ] && [ "$c" != "$expected" ]; then
            verdict="DISAGREE: expected $expected"
            disagree=1
        fi
    done
    echo "| $label | $expected | $(cell "$g_wall" "$g_count") | $(cell "$o_wall" "$o_count") | $ratio | $verdict |"
}

# finish: a non-zero exit when any count disagreed
finish() {
    [ "$disagree" = 0 ] || { echo "peers: counts disagree with the expected ones (above)" >&2; exit 3; }
}
