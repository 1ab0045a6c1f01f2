//! Lexicographic order `x ≤lex y` over literal vectors (false < true).
