//! Table 2 of Cambazard, O'Sullivan & Smith, "A Constraint-based Approach to
//! Enigma 1225" (Choco, dual-core 2 GHz MacBook): the published numbers, kept
//! only to print them next to ours (`--table`) and to test against them.
//! Nothing is computed from them.

/// One published row.
#[derive(Clone, Copy, Debug)]
pub struct PaperRow {
    /// board side
    pub n: usize,
    /// optimal total
    pub optimum: u64,
    /// seconds
    pub seconds: f64,
    /// complete partitions explored
    pub explored: u64,
    /// partitions of n without a 1
    pub total_partitions: u64,
}

const fn row(
    n: usize,
    optimum: u64,
    seconds: f64,
    explored: u64,
    total_partitions: u64,
) -> PaperRow {
    PaperRow {
        n,
        optimum,
        seconds,
        explored,
        total_partitions,
    }
}

/// Table 2, every row (n = 3..25, 30, 35, …, 55).
pub const TABLE2: &[PaperRow] = &[
    row(3, 15, 0.01, 1, 1),
    row(4, 40, 0.01, 2, 2),
    row(5, 55, 0.02, 2, 2),
    row(6, 180, 0.06, 3, 4),
    row(7, 275, 0.04, 4, 4),
    row(8, 544, 0.09, 6, 7),
    row(9, 753, 0.09, 7, 8),
    row(10, 1_300, 0.2, 7, 12),
    row(11, 1_703, 0.12, 12, 14),
    row(12, 2_664, 0.15, 14, 21),
    row(13, 3_365, 0.19, 19, 24),
    row(14, 4_900, 0.28, 19, 34),
    row(15, 6_027, 0.24, 29, 41),
    row(16, 8_320, 0.32, 28, 55),
    row(17, 10_025, 0.23, 41, 66),
    row(18, 13_284, 0.25, 39, 88),
    row(19, 15_743, 0.35, 60, 105),
    row(20, 20_200, 0.46, 57, 137),
    row(21, 23_613, 0.42, 76, 165),
    row(22, 29_524, 0.52, 70, 210),
    row(23, 34_115, 0.53, 100, 253),
    row(24, 41_760, 0.87, 100, 320),
    row(25, 47_777, 1.08, 133, 383),
    row(30, 101_700, 3.38, 204, 1_039),
    row(35, 185_327, 8.84, 446, 2_573),
    row(40, 320_800, 30.44, 642, 6_153),
    row(45, 508_677, 66.24, 1_230, 13_959),
    row(50, 782_500, 208.89, 1_672, 30_701),
    row(55, 1_137_827, 405.3, 3_059, 65_121),
];

/// The published row for n, if any.
pub fn table2_row(n: usize) -> Option<&'static PaperRow> {
    TABLE2.iter().find(|r| r.n == n)
}
