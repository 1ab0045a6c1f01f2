//! Permutation groups and lex-leader symmetry breaking.
