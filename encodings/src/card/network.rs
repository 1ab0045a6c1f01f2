//! **Cardinality networks** of Asín, Nieuwenhuis, Oliveras &
//! Rodríguez-Carbonell, "Cardinality networks: a theoretical and empirical
//! study" (Constraints 16(2), 2011), on top of Batcher's odd-even merge
//! ("Sorting networks and their applications", AFIPS 1968).
//!
//! With `m` a power of two, `card_m(x₁ … x_n)` (n a multiple of m, padded
//! with false) returns `m` outputs `y₁ ≥ … ≥ y_m` with `y_j` ⇔ "at least j
//! inputs are true" for `j ≤ m`:
//!
//! ```text
//! card_m(x) = sort_m(x)                                   if n = m
//!           = smerge_m(card_m(x₁…x_m), card_m(x_{m+1}…x_n))[1..m]  otherwise
//! sort_m    = Batcher odd-even merge sort
//! smerge_m(a, b) (|a| = |b| = m, m+1 outputs):
//!   d = smerge(odd a, odd b),  e = smerge(even a, even b)
//!   c₁ = d₁;  (c_{2i}, c_{2i+1}) = comparator(d_{i+1}, e_i)  for i = 1 … m/2
//! ```
//!
//! A comparator `(a, b) ↦ (a ∨ b, a ∧ b)` has *upward* clauses
//! `a → c, b → c, a ∧ b → d` (enough for `Σ ≤ k`, assumption `¬y_{k+1}`) and
//! *downward* clauses `c → a ∨ b, d → a, d → b` (for `Σ ≥ k`, assumption
//! `y_k`) — the "half" encodings of the paper, used per direction.
//!
//! The network is first built symbolically; comparators with a constant or
//! twice the same input are simplified away, and clauses (and variables) are
//! emitted only for the cone of influence of the output a bound asks for, in
//! the direction it needs. So `Σ ≤ k` costs only the comparators that can
//! reach `y_{k+1}`, and a later bound reuses everything already emitted.

use crate::ClauseDatabase;
use rustsat::types::Lit;

/// A wire of the symbolic network.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Node {
    Const(bool),
    Input(Lit),
    /// index into `gates`
    Gate(usize),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    /// `out = a ∨ b` (the comparator's max)
    Max,
    /// `out = a ∧ b` (the comparator's min)
    Min,
}

#[derive(Clone, Debug)]
struct Gate {
    op: Op,
    a: Node,
    b: Node,
    lit: Option<Lit>,
    up: bool,
    down: bool,
}

/// A cardinality network with lazily emitted clauses.
#[derive(Clone, Debug)]
pub struct CardNetwork {
    gates: Vec<Gate>,
    outputs: Vec<Node>,
    /// number of outputs that count exactly (`m`, or all for a full sort)
    m: usize,
}

/// What an output is once its clauses exist.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Output {
    /// a constant (e.g. `y_j` for `j` beyond the padded inputs' reach)
    Const(bool),
    /// a literal
    Lit(Lit),
}

impl CardNetwork {
    /// A network whose first `m` outputs count exactly; `m` is rounded up to
    /// a power of two, and a full sorting network is used when `m ≥ n`.
    pub fn new(xs: &[Lit], m: usize) -> Self {
        let mut net = CardNetwork {
            gates: Vec::new(),
            outputs: Vec::new(),
            m: 0,
        };
        let n = xs.len();
        let mut inputs: Vec<Node> = xs.iter().map(|&l| Node::Input(l)).collect();
        let m = m.max(1).next_power_of_two();
        if m >= n {
            let size = n.max(1).next_power_of_two();
            inputs.resize(size, Node::Const(false));
            net.outputs = net.sort(&inputs);
            net.m = n;
        } else {
            inputs.resize(n.div_ceil(m) * m, Node::Const(false));
            net.outputs = net.card(&inputs, m);
            net.m = m;
        }
        net
    }

    /// How many outputs count exactly (`y_j` for `j ≤ capacity()`).
    pub fn capacity(&self) -> usize {
        self.m
    }

    /// A comparator: (max, min), simplified on constants and equal inputs.
    fn comparator(&mut self, a: Node, b: Node) -> (Node, Node) {
        use Node::Const;
        match (a, b) {
            (Const(false), o) | (o, Const(false)) => (o, Const(false)),
            (Const(true), o) | (o, Const(true)) => (Const(true), o),
            _ if a == b => (a, a),
            (Node::Input(x), Node::Input(y)) if x == !y => (Const(true), Const(false)),
            _ => {
                let mut gate = |op| {
                    self.gates.push(Gate {
                        op,
                        a,
                        b,
                        lit: None,
                        up: false,
                        down: false,
                    });
                    Node::Gate(self.gates.len() - 1)
                };
                (gate(Op::Max), gate(Op::Min))
            }
        }
    }

    /// Batcher's odd-even merge of two sorted (descending) sequences of the
    /// same power-of-two length.
    fn merge(&mut self, a: &[Node], b: &[Node]) -> Vec<Node> {
        debug_assert_eq!(a.len(), b.len());
        if a.len() == 1 {
            let (c, d) = self.comparator(a[0], b[0]);
            return vec![c, d];
        }
        let (ao, ae) = odd_even(a);
        let (bo, be) = odd_even(b);
        let v = self.merge(&ao, &bo);
        let w = self.merge(&ae, &be);
        let n = a.len();
        let mut z = Vec::with_capacity(2 * n);
        z.push(v[0]);
        for i in 0..n - 1 {
            let (c, d) = self.comparator(w[i], v[i + 1]);
            z.push(c);
            z.push(d);
        }
        z.push(w[n - 1]);
        z
    }

    /// Batcher's odd-even merge sort (power-of-two length).
    fn sort(&mut self, a: &[Node]) -> Vec<Node> {
        if a.len() <= 1 {
            return a.to_vec();
        }
        let h = a.len() / 2;
        let l = self.sort(&a[..h]);
        let r = self.sort(&a[h..]);
        self.merge(&l, &r)
    }

    /// The simplified merge: the top `m + 1` outputs of merging two sorted
    /// sequences of length `m`.
    fn smerge(&mut self, a: &[Node], b: &[Node]) -> Vec<Node> {
        let m = a.len();
        if m == 1 {
            let (c, d) = self.comparator(a[0], b[0]);
            return vec![c, d];
        }
        let (ao, ae) = odd_even(a);
        let (bo, be) = odd_even(b);
        let d = self.smerge(&ao, &bo);
        let e = self.smerge(&ae, &be);
        let mut c = Vec::with_capacity(m + 1);
        c.push(d[0]);
        for i in 1..=m / 2 {
            let (hi, lo) = self.comparator(d[i], e[i - 1]);
            c.push(hi);
            c.push(lo);
        }
        c
    }

    /// `card_m` over a multiple of `m` inputs.
    fn card(&mut self, a: &[Node], m: usize) -> Vec<Node> {
        if a.len() == m {
            return self.sort(a);
        }
        let first = self.card(&a[..m], m);
        let rest = self.card(&a[m..], m);
        let mut c = self.smerge(&first, &rest);
        c.truncate(m);
        c
    }

    /// Emits (once) the clauses of node's cone in one direction and returns
    /// its literal.
    fn emit<DB: ClauseDatabase>(&mut self, db: &mut DB, node: Node, up: bool) -> Output {
        let g = match node {
            Node::Const(b) => return Output::Const(b),
            Node::Input(l) => return Output::Lit(l),
            Node::Gate(g) => g,
        };
        let done = if up {
            self.gates[g].up
        } else {
            self.gates[g].down
        };
        if let (true, Some(l)) = (done, self.gates[g].lit) {
            return Output::Lit(l);
        }
        let (a, b, op) = (self.gates[g].a, self.gates[g].b, self.gates[g].op);
        let lit_of = |o: Output| match o {
            Output::Lit(l) => l,
            Output::Const(_) => unreachable!("comparators on constants are simplified away"),
        };
        let a = lit_of(self.emit(db, a, up));
        let b = lit_of(self.emit(db, b, up));
        let out = *self.gates[g].lit.get_or_insert_with(|| db.fresh());
        match (op, up) {
            (Op::Max, true) => {
                db.add(&[!a, out]); // a → a ∨ b
                db.add(&[!b, out]); // b → a ∨ b
            }
            (Op::Max, false) => db.add(&[!out, a, b]), // a ∨ b → a ∨ b
            (Op::Min, true) => db.add(&[!a, !b, out]), // a ∧ b → a ∧ b
            (Op::Min, false) => {
                db.add(&[!out, a]); // a ∧ b → a
                db.add(&[!out, b]); // a ∧ b → b
            }
        }
        if up {
            self.gates[g].up = true;
        } else {
            self.gates[g].down = true;
        }
        Output::Lit(out)
    }

    /// `y_j` ("at least j inputs true", `1 ≤ j ≤ capacity()`) with the
    /// clauses of its cone in direction `up` (true count ≥ j forces it) or
    /// down (it forces count ≥ j).
    pub fn at_least_output<DB: ClauseDatabase>(
        &mut self,
        db: &mut DB,
        j: usize,
        up: bool,
    ) -> Output {
        debug_assert!(1 <= j && j <= self.m);
        self.emit(db, self.outputs[j - 1], up)
    }
}

/// Elements at odd positions (1st, 3rd, … = indices 0, 2, …) and at even ones.
fn odd_even(a: &[Node]) -> (Vec<Node>, Vec<Node>) {
    (
        a.iter().step_by(2).copied().collect(),
        a.iter().skip(1).step_by(2).copied().collect(),
    )
}
