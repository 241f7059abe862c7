//! Symmetric Karatsuba-like formulae over GF(2), shared by the portable limb product
//! ([`super::holes`]) and the PCLMULQDQ word product ([`super::x86`]).
//!
//! A k-term formula multiplies a = Σ a_i·X^i and b = Σ b_i·X^i (i < k) with the products
//! P_S = (Σ_{i∈S} a_i)(Σ_{i∈S} b_i) for a list of subsets S; over GF(2), P_S expands to
//! Σ_{i∈S} a_i·b_i + Σ_{i<j∈S} (a_i·b_j + a_j·b_i), so each output coefficient
//! c_t = Σ_{i+j=t} a_i·b_j is a sum of some P_S when the products span it (P. L. Montgomery,
//! "Five, six, and seven-term Karatsuba-like formulae", IEEE Trans. Computers 54(3), 2005:
//! 3, 6 and 13 products for 2, 3 and 5 terms).

use std::collections::BTreeMap;

/// A symmetric k-term formula: the products (Σ_{i∈S} a_i)(Σ_{i∈S} b_i) for the subsets S
/// (bit i = term i). The output combinations are derived by [`combinations`].
pub struct Formula {
    pub k: usize,
    pub subsets: &'static [u32],
}

/// Karatsuba (2 terms, 3 products), the 3-term formula (6 products) and a 5-term formula with
/// 13 products, the count of Montgomery (2005); this set of subsets was found by an exhaustive
/// search over GF(2) (the products are linearly independent and span every output
/// coefficient, checked by [`combinations`] and the unit test below). Of the 13-product sets
/// a randomised search found, it needs the fewest xors: 16 for the sums of one operand's
/// terms, 28 for the outputs before [`xor_program`] shares partial sums.
pub const FORMULAS: [Formula; 3] = [
    Formula {
        k: 2,
        subsets: &[0b01, 0b10, 0b11],
    },
    Formula {
        k: 3,
        subsets: &[0b001, 0b010, 0b011, 0b100, 0b101, 0b110],
    },
    Formula {
        k: 5,
        subsets: &[
            0b00001, 0b00010, 0b00011, 0b00100, 0b00101, 0b01000, 0b01110, 0b10000, 0b10100,
            0b10111, 0b11000, 0b11101, 0b11111,
        ],
    },
];

/// The coordinates of a symmetric product over GF(2): bit i for a_i·b_i, then one bit per
/// pair i < j for a_i·b_j + a_j·b_i.
fn coords(k: usize, s: u32) -> u64 {
    let mut v = 0u64;
    let mut idx = k;
    for i in 0..k {
        if s >> i & 1 == 1 {
            v |= 1 << i;
        }
    }
    for i in 0..k {
        for j in i + 1..k {
            if s >> i & 1 == 1 && s >> j & 1 == 1 {
                v |= 1 << idx;
            }
            idx += 1;
        }
    }
    v
}

/// Output coefficient t = Σ_{i+j=t} a_i·b_j in the same coordinates.
fn target(k: usize, t: usize) -> u64 {
    let mut v = 0u64;
    let mut idx = k;
    if t.is_multiple_of(2) && t / 2 < k {
        v |= 1 << (t / 2);
    }
    for i in 0..k {
        for j in i + 1..k {
            if i + j == t {
                v |= 1 << idx;
            }
            idx += 1;
        }
    }
    v
}

/// For each output coefficient t = 0..2k−1, the set of products (bit p = product p) whose sum
/// it is, by Gaussian elimination over GF(2); `None` when a coefficient is not in their span.
pub fn combinations(f: &Formula) -> Option<Vec<u64>> {
    let mut basis: Vec<(u64, u64)> = Vec::new();
    for (p, &s) in f.subsets.iter().enumerate() {
        let (mut v, mut m) = (coords(f.k, s), 1u64 << p);
        for &(b, bm) in &basis {
            if v >> (63 - b.leading_zeros()) & 1 == 1 {
                v ^= b;
                m ^= bm;
            }
        }
        if v == 0 {
            return None;
        }
        basis.push((v, m));
    }
    (0..2 * f.k - 1)
        .map(|t| {
            let (mut v, mut m) = (target(f.k, t), 0u64);
            for &(b, bm) in &basis {
                if v >> (63 - b.leading_zeros()) & 1 == 1 {
                    v ^= b;
                    m ^= bm;
                }
            }
            (v == 0).then_some(m)
        })
        .collect()
}

/// A program of two-input xors computing sums of `inputs` values: values 0..inputs are the
/// inputs, value inputs + s is step s, the xor of two earlier values.
pub struct XorProgram {
    pub steps: Vec<(usize, usize)>,
    /// Each sum's value; `None` for an empty sum.
    pub outputs: Vec<Option<usize>>,
}

/// Xors for the sums `sets` (bit p = value p) of `inputs` values, sharing partial sums: while
/// some pair of values occurs in two or more of the remaining sums, the most frequent pair
/// (the lowest on ties) becomes a step and replaces its two values there (Paar's greedy
/// common-subexpression heuristic, C. Paar, "Optimized arithmetic for Reed–Solomon encoders",
/// ISIT 1997); what is left of each sum is then xored in order.
pub fn xor_program(inputs: usize, sets: &[u64]) -> XorProgram {
    let mut sums: Vec<Vec<usize>> = sets
        .iter()
        .map(|&s| (0..inputs).filter(|&p| s >> p & 1 == 1).collect())
        .collect();
    let mut steps = Vec::new();
    loop {
        let mut count: BTreeMap<(usize, usize), usize> = BTreeMap::new();
        for s in &sums {
            for (i, &x) in s.iter().enumerate() {
                for &y in &s[i + 1..] {
                    *count.entry((x, y)).or_default() += 1;
                }
            }
        }
        let Some((&(x, y), &c)) = count
            .iter()
            .max_by_key(|&(&(x, y), &c)| (c, usize::MAX - x, usize::MAX - y))
        else {
            break;
        };
        if c < 2 {
            break;
        }
        let v = inputs + steps.len();
        steps.push((x, y));
        for s in &mut sums {
            if s.contains(&x) && s.contains(&y) {
                s.retain(|&z| z != x && z != y);
                s.push(v);
            }
        }
    }
    let outputs = sums
        .into_iter()
        .map(|s| {
            let mut it = s.into_iter();
            let first = it.next()?;
            Some(it.fold(first, |acc, z| {
                steps.push((acc, z));
                inputs + steps.len() - 1
            }))
        })
        .collect();
    XorProgram { steps, outputs }
}

/// A formula's two xor programs: `terms` forms one operand's subset sums (inputs = its k
/// terms, outputs in the order of `subsets`), `outputs` the output coefficients (inputs = the
/// products, outputs c_0..c_(2k−2)).
pub struct Programs {
    pub terms: XorProgram,
    pub outputs: XorProgram,
}

/// The [`xor_program`]s of `f`.
pub fn programs(f: &Formula) -> Programs {
    let subsets: Vec<u64> = f.subsets.iter().map(|&s| u64::from(s)).collect();
    let combos = combinations(f).expect("formula spans its outputs");
    Programs {
        terms: xor_program(f.k, &subsets),
        outputs: xor_program(subsets.len(), &combos),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formulas_span_their_outputs() {
        for f in &FORMULAS {
            let combos = combinations(f).expect("independent products spanning the outputs");
            assert_eq!(combos.len(), 2 * f.k - 1);
            // Each combination, expanded, is exactly the schoolbook coefficient.
            for (t, combo) in combos.iter().enumerate() {
                let mut v = 0u64;
                for (p, &s) in f.subsets.iter().enumerate() {
                    if combo >> p & 1 == 1 {
                        v ^= coords(f.k, s);
                    }
                }
                assert_eq!(v, target(f.k, t));
            }
        }
        assert_eq!(FORMULAS[2].subsets.len(), 13);
    }

    /// Every output of the xor program, expanded to input sets, is the sum asked for; the
    /// 5-term formula's outputs need fewer xors than summing each one alone.
    #[test]
    fn xor_program_computes_its_sums() {
        for f in &FORMULAS {
            let combos = combinations(f).unwrap();
            let prog = xor_program(f.subsets.len(), &combos);
            let mut sets: Vec<u64> = (0..f.subsets.len()).map(|p| 1 << p).collect();
            for &(x, y) in &prog.steps {
                assert!(x < sets.len() && y < sets.len());
                sets.push(sets[x] ^ sets[y]);
            }
            for (out, &want) in prog.outputs.iter().zip(&combos) {
                assert_eq!(out.map_or(0, |v| sets[v]), want);
            }
            let alone: usize = combos
                .iter()
                .map(|c| c.count_ones().saturating_sub(1) as usize)
                .sum();
            assert!(prog.steps.len() <= alone);
            if f.k == 5 {
                assert!(prog.steps.len() < alone, "{} xors", prog.steps.len());
            }
        }
        // Sums of operand terms (inputs = terms, sets = subsets) share prefixes too.
        let f = &FORMULAS[2];
        let subsets: Vec<u64> = f.subsets.iter().map(|&s| u64::from(s)).collect();
        let prog = xor_program(f.k, &subsets);
        let alone: usize = subsets.iter().map(|c| c.count_ones() as usize - 1).sum();
        assert!(prog.steps.len() < alone);
    }
}
