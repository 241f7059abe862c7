//! The x86-64 instruction selector: the optimised IR of the CIOS Montgomery product and of the
//! square selected as `mulx` rows on the two ADX carry chains, `add`/`adc`/`sub`/`sbb` chains
//! and `cmovc`, allocated, and run in the instruction simulator before and after allocation
//! (also with register files cut down to force spills), compared with a·b·R⁻¹ mod p and
//! a²·R⁻¹ mod p computed by num-bigint, for the 64-bit presets the x86-64 backend serves and
//! random primes of 1 to 12 limbs in several shapes; also the kernels the products emit
//! ([`chosen_kernel`]) and, with `--nocapture`, a table of the hand-written and selected
//! instruction and `mulx` counts.

use generator::backend::x86_64::inst::Reg;
use generator::backend::x86_64::regalloc::allocate;
use generator::backend::x86_64::select::{compile, mnemonics};
use generator::backend::x86_64::sim::{run_allocated, run_virtual};
use generator::backend::x86_64::{
    chosen_kernel, mul_kernel, selected_kernel, square_kernel, unsupported, Chosen, MAX_LIMBS,
};
use generator::ir::{interpret, Func};
use generator::pass::{optimize, verify_bounds};
use generator::spec::{parse_modulus_expr, FieldConsts, LimbBits, PRESETS};
use generator::strategy::pseudo_mersenne::{self, PseudoMersenne};
use generator::strategy::signed_solinas::{self, SignedSolinas};
use generator::strategy::{addsub, montgomery, wide, MulAlgorithm};
use num_bigint::BigUint;

use fieldgen_test_support::{edge_values, from_limbs, prime_of_shape, SplitMix64 as Rng};

/// The shared edge operands below p (`fieldgen_test_support::edge_values`), then `random`
/// random ones.
fn values(rng: &mut Rng, c: &FieldConsts, random: usize) -> Vec<BigUint> {
    edge_values(rng, &c.modulus, &c.r, &c.r2, c.limbs, 64, random)
}

fn limbs(c: &FieldConsts, x: &BigUint) -> Vec<u64> {
    let mut l = c.limbs_of(x);
    l.resize(c.limbs, 0);
    l
}

const SMALL_POOL: &[Reg] = &[Reg::Rax, Reg::Rcx, Reg::Rsi, Reg::Rdi, Reg::Rbx];

/// One line of the table.
struct Row {
    limbs: usize,
    mul: [(usize, usize, u32); 2],
    chosen: &'static str,
    square: [(usize, usize, u32); 2],
    chosen_sq: &'static str,
}

/// Runs the selected kernels (before and after allocation, and allocated over a small
/// register file) and the chosen ones on pairs of values below p, against num-bigint.
fn check(rng: &mut Rng, name: &str, p: &BigUint, random: usize) -> Row {
    let c = FieldConsts::new(p, LimbBits::W64).unwrap();
    assert!(unsupported(&c, MulAlgorithm::Cios).is_none(), "{name}");
    let r_inv = c.r.modpow(&(p - 2u32), p);
    let xs = values(rng, &c, random);
    let modulus = &c.modulus_limbs;
    let edges = (xs.len() - random).min(12);
    let mut pairs: Vec<(&BigUint, &BigUint)> = xs[..edges]
        .iter()
        .flat_map(|a| xs[..edges].iter().map(move |b| (a, b)))
        .collect();
    pairs.extend(xs.iter().zip(xs.iter().rev()));

    let sel = selected_kernel(&c, false).unwrap_or_else(|e| panic!("{name}: {e}"));
    let small = allocate(&sel.program, SMALL_POOL);
    let mul = chosen_kernel(&c, false);
    for &(a, b) in &pairs {
        let want = a * b * &r_inv % p;
        let (la, lb) = (limbs(&c, a), limbs(&c, b));
        let ops: [&[u64]; 2] = [&la, &lb];
        let got = run_virtual(&sel.program, &ops, modulus)
            .unwrap_or_else(|e| panic!("{name} virtual mul a={a:#x} b={b:#x}: {e}"));
        assert_eq!(
            from_limbs(&got),
            want,
            "{name} virtual mul a={a:#x} b={b:#x}"
        );
        for (what, alloc) in [("allocated", &sel.alloc), ("small pool", &small)] {
            let got = run_allocated(alloc, &ops, modulus)
                .unwrap_or_else(|e| panic!("{name} {what} mul a={a:#x} b={b:#x}: {e}"));
            assert_eq!(
                from_limbs(&got),
                want,
                "{name} {what} mul a={a:#x} b={b:#x}"
            );
        }
        let got = run_allocated(&mul.kernel().alloc, &ops, modulus)
            .unwrap_or_else(|e| panic!("{name} chosen mul a={a:#x} b={b:#x}: {e}"));
        assert_eq!(
            from_limbs(&got),
            want,
            "{name} chosen mul a={a:#x} b={b:#x}"
        );
    }
    let sel_sq = selected_kernel(&c, true).unwrap_or_else(|e| panic!("{name} square: {e}"));
    let small_sq = allocate(&sel_sq.program, SMALL_POOL);
    let square = chosen_kernel(&c, true);
    for a in &xs {
        let want = a * a * &r_inv % p;
        let la = limbs(&c, a);
        let got = run_virtual(&sel_sq.program, &[&la], modulus)
            .unwrap_or_else(|e| panic!("{name} virtual square a={a:#x}: {e}"));
        assert_eq!(from_limbs(&got), want, "{name} virtual square a={a:#x}");
        for (what, alloc) in [("allocated", &sel_sq.alloc), ("small pool", &small_sq)] {
            let got = run_allocated(alloc, &[&la], modulus)
                .unwrap_or_else(|e| panic!("{name} {what} square a={a:#x}: {e}"));
            assert_eq!(from_limbs(&got), want, "{name} {what} square a={a:#x}");
        }
        let got = run_allocated(&square.kernel().alloc, &[&la], modulus)
            .unwrap_or_else(|e| panic!("{name} chosen square a={a:#x}: {e}"));
        assert_eq!(from_limbs(&got), want, "{name} chosen square a={a:#x}");
    }
    // The contract: the selected kernel exactly when it has no more instructions, no more mulx
    // and no longer a dependency chain than the hand kernel.
    let n = c.limbs;
    let (hand, hand_sq) = (mul_kernel(&c), square_kernel(&c));
    for (k, h, s) in [(&mul, &hand, &sel), (&square, &hand_sq, &sel_sq)] {
        let wins = s.instructions() <= h.instructions()
            && s.mulx() <= h.mulx()
            && s.critical_path() <= h.critical_path();
        assert_eq!(matches!(k, Chosen::Selected(_)), wins, "{name}");
        assert!(k.kernel().instructions() <= h.instructions(), "{name}");
    }
    // One mulx per product of the IR: n² for a·b, at most the hand kernel's 2n² with the
    // reduction; no branch, and the final selection is cmovc.
    let zero_limbs = c.modulus_limbs.iter().filter(|l| **l == 0).count();
    assert_eq!(
        sel.mulx(),
        2 * n * n - n * zero_limbs,
        "{name}: {} mulx",
        sel.mulx()
    );
    for k in [&sel, &sel_sq] {
        let m = mnemonics(k);
        assert_eq!(m.get("cmovc"), Some(&n), "{name}: {m:?}");
        assert!(m.keys().all(|k| !k.starts_with('j')), "{name}: {m:?}");
    }
    let which = |k: &Chosen| match k {
        Chosen::Selected(_) => "selected",
        Chosen::Hand(_) => "hand",
    };
    Row {
        limbs: n,
        mul: [
            (hand.instructions(), hand.mulx(), hand.critical_path()),
            (sel.instructions(), sel.mulx(), sel.critical_path()),
        ],
        chosen: which(&mul),
        square: [
            (
                hand_sq.instructions(),
                hand_sq.mulx(),
                hand_sq.critical_path(),
            ),
            (sel_sq.instructions(), sel_sq.mulx(), sel_sq.critical_path()),
        ],
        chosen_sq: which(&square),
    }
}

fn table(rows: &[(String, Row)]) {
    eprintln!(
        "{:<26} {:>5} | {:>24} {:>24} {:<8} | {:>24} {:>24} {:<8}",
        "field", "limbs", "mul: hand", "selected", "chosen", "square: hand", "selected", "chosen"
    );
    let cell = |(i, m, l): (usize, usize, u32)| format!("{i} ({m} mulx, path {l})");
    for (name, r) in rows {
        eprintln!(
            "{name:<26} {:>5} | {:>24} {:>24} {:<8} | {:>24} {:>24} {:<8}",
            r.limbs,
            cell(r.mul[0]),
            cell(r.mul[1]),
            r.chosen,
            cell(r.square[0]),
            cell(r.square[1]),
            r.chosen_sq
        );
    }
}

#[test]
fn presets_against_num_bigint() {
    let mut rng = Rng(0x86e1);
    let mut rows = Vec::new();
    for name in ["bn254-p", "p256-p", "secp256k1-p", "p384-p", "bls12-381-p"] {
        let preset = PRESETS.iter().find(|p| p.name == name).expect("preset");
        let p = parse_modulus_expr(preset.modulus).expect("parses");
        rows.push((name.to_string(), check(&mut rng, name, &p, 8)));
    }
    // Every other 64-bit preset the backend serves.
    for preset in PRESETS {
        if rows.iter().any(|(n, _)| n == preset.name) {
            continue;
        }
        let p = parse_modulus_expr(preset.modulus).expect("parses");
        let Ok(c) = FieldConsts::new(&p, LimbBits::W64) else {
            continue;
        };
        if unsupported(&c, MulAlgorithm::Cios).is_some() {
            continue;
        }
        rows.push((preset.name.to_string(), check(&mut rng, preset.name, &p, 2)));
    }
    table(&rows);
    assert!(rows.len() >= 5);
}

#[test]
fn random_primes_against_num_bigint() {
    let mut rng = Rng(0x5e1);
    let mut rows = Vec::new();
    for n in 1..=MAX_LIMBS {
        let shapes: &[usize] = if n <= 4 {
            &[0, 1, 2, 3, 4, 5, 6, 7]
        } else {
            &[0, 1, 4, 6]
        };
        for &shape in shapes {
            let p = prime_of_shape(&mut rng, n, shape);
            let name = format!("random n={n} shape={shape}");
            let row = check(&mut rng, &name, &p, 3);
            rows.push((name, row));
        }
    }
    table(&rows);
}

/// The selected kernels do not depend on hash-map iteration order: `regen --check` compares
/// the emitted text with the committed files.
#[test]
fn selection_is_deterministic() {
    for name in ["bn254-p", "p256-p", "p384-p"] {
        let preset = PRESETS.iter().find(|p| p.name == name).expect("preset");
        let p = parse_modulus_expr(preset.modulus).expect("parses");
        let c = FieldConsts::new(&p, LimbBits::W64).unwrap();
        for square in [false, true] {
            let text = || {
                let k = selected_kernel(&c, square).expect("selects");
                k.alloc.insts.iter().map(|i| i.text()).collect::<Vec<_>>()
            };
            let first = text();
            assert!(first.len() > 100, "{name}");
            for _ in 0..4 {
                assert_eq!(text(), first, "{name} square={square}");
            }
        }
    }
}

/// The functions of one prime beyond the product and the square, optimised, by name: other
/// Montgomery algorithms, from_montgomery, add/sub/neg/double, the double-width functions
/// and the special-form products. They exercise rules the two kernels do not (masks not in
/// CF, selects after `add t, 1`, borrows put back into CF, `and`/`xor`/`not`).
fn more_functions(c: &FieldConsts) -> Vec<(String, Func)> {
    let mut v: Vec<(String, Func)> = Vec::new();
    for alg in [MulAlgorithm::CiosNoCarry, MulAlgorithm::ProductScanning] {
        if alg.applies_to(c) {
            v.push((format!("mul {}", alg.name()), montgomery::lower_mul(c, alg)));
        }
    }
    v.push((
        "from_montgomery".into(),
        montgomery::lower_from_montgomery(c, MulAlgorithm::Cios),
    ));
    v.push(("add".into(), addsub::lower_add(c)));
    v.push(("double".into(), addsub::lower_double(c)));
    v.push(("sub".into(), addsub::lower_sub(c)));
    v.push(("neg".into(), addsub::lower_neg(c)));
    v.push(("mul_wide".into(), wide::lower_mul_wide(c)));
    v.push(("square_wide".into(), wide::lower_square_wide(c)));
    v.push(("reduce_wide".into(), wide::lower_reduce_wide(c)));
    v.push(("add_wide".into(), wide::lower_add_wide(c)));
    v.push(("sub_wide".into(), wide::lower_sub_wide(c)));
    if let Some(pm) = PseudoMersenne::detect(c) {
        v.push(("pm mul".into(), pseudo_mersenne::lower_mul(c, &pm)));
        v.push(("pm square".into(), pseudo_mersenne::lower_square(c, &pm)));
        v.push(("pm add".into(), pseudo_mersenne::lower_add(c, &pm)));
        v.push(("pm sub".into(), pseudo_mersenne::lower_sub(c, &pm)));
        v.push(("pm neg".into(), pseudo_mersenne::lower_neg(c, &pm)));
        v.push((
            "pm canonical".into(),
            pseudo_mersenne::lower_canonical(c, &pm),
        ));
    }
    if let Some(s) = SignedSolinas::detect(c) {
        v.push(("solinas mul".into(), signed_solinas::lower_mul(c, &s)));
    }
    v.into_iter()
        .filter(|(name, f)| verify_bounds(f, name).is_ok())
        .map(|(name, f)| (name, optimize(&f)))
        .collect()
}

/// Arguments within `f`'s input bounds: 0, each limb at its bound, half of it, and random limbs.
fn bounded_arguments(rng: &mut Rng, f: &Func, random: usize) -> Vec<Vec<Vec<u64>>> {
    let below = |rng: &mut Rng, b: u64| match b.checked_add(1) {
        Some(m) => rng.next_u64() % m,
        None => rng.next_u64(),
    };
    let mut out = Vec::new();
    for edge in 0..3 {
        out.push(
            f.inputs
                .iter()
                .map(|bounds| {
                    bounds
                        .iter()
                        .map(|&b| [0, b, b >> 1][edge])
                        .collect::<Vec<u64>>()
                })
                .collect(),
        );
    }
    for _ in 0..random {
        out.push(
            f.inputs
                .iter()
                .map(|bounds| bounds.iter().map(|&b| below(rng, b)).collect())
                .collect(),
        );
    }
    out
}

/// Other IR functions of 1- to 6-limb primes, selected and run before and after allocation,
/// against the IR interpreter (itself checked against num-bigint by `ir_oracle`).
#[test]
fn other_functions_against_the_interpreter() {
    let mut rng = Rng(0x0f);
    let mut primes: Vec<BigUint> = ["bn254-p", "p256-p", "secp256k1-p", "p384-p", "curve25519-p"]
        .iter()
        .map(|name| {
            let preset = PRESETS.iter().find(|p| p.name == *name).expect("preset");
            parse_modulus_expr(preset.modulus).expect("parses")
        })
        .collect();
    for (n, shape) in [(1, 0), (1, 5), (2, 3), (3, 1), (5, 4)] {
        primes.push(prime_of_shape(&mut rng, n, shape));
    }
    let mut functions = 0;
    for p in &primes {
        let c = FieldConsts::new(p, LimbBits::W64).unwrap();
        for (name, f) in more_functions(&c) {
            functions += 1;
            let k = compile(&f, &c.modulus_limbs, &[])
                .unwrap_or_else(|e| panic!("{name} p={p:#x}: {e}"));
            let mut compared = 0;
            for args in bounded_arguments(&mut rng, &f, 12) {
                let ops: Vec<&[u64]> = args.iter().map(Vec::as_slice).collect();
                let Ok(want) = interpret(&f, &ops) else {
                    continue;
                };
                compared += 1;
                let got = run_virtual(&k.program, &ops, &c.modulus_limbs)
                    .unwrap_or_else(|e| panic!("{name} p={p:#x} {args:x?}: virtual: {e}"));
                assert_eq!(got, want, "{name} p={p:#x} {args:x?}: virtual");
                let got = run_allocated(&k.alloc, &ops, &c.modulus_limbs)
                    .unwrap_or_else(|e| panic!("{name} p={p:#x} {args:x?}: allocated: {e}"));
                assert_eq!(got, want, "{name} p={p:#x} {args:x?}: allocated");
            }
            assert!(compared >= 5, "{name} p={p:#x}: only {compared} inputs ran");
        }
    }
    eprintln!("{functions} functions selected and checked");
    assert!(functions >= 10 * primes.len());
}

/// A function written to reach the rules the field operations do not: a carry that must be
/// materialised before another chain clobbers CF, a mask of a bit held in a register, a select
/// whose mask is not in CF, a carry-in put back into CF, `not`/`and`/`xor`/`or`, shifts that
/// are not a `shld`, `MulLo` into a register and a `MulAdd` whose addends are bits. Against the
/// IR interpreter on edge and random words.
#[test]
fn every_rule_against_the_interpreter() {
    use generator::ir::Builder;
    let mut b = Builder::new(64);
    let x = b.input(vec![u64::MAX; 3]);
    let y = b.input(vec![u64::MAX; 3]);
    let zero = b.constant(0);
    let (s, c) = b.add_carry(x[0], y[0], zero);
    let (d, br) = b.sub_borrow(x[1], y[1], zero);
    let m = b.mask(c);
    let (e, c2) = b.add_carry(s, d, zero);
    let sel = b.select(m, e, x[0]);
    let n = b.not(sel);
    let a = b.and(n, y[1]);
    let xo = b.xor(a, m);
    let sh = b.shl(xo, 3);
    let sr = b.shr(x[2], 5);
    let or = b.or(sh, sr);
    let q = b.mul_lo(x[0], y[2]);
    let (lo, hi) = b.mul_add(x[1], y[0], c, br);
    let (t, c3) = b.add_carry(x[2], y[2], c2);
    let (u, b2) = b.sub_borrow(t, q, c);
    let big = b.constant(0x1234_5678_9abc_def0);
    let (v, _) = b.add_carry(u, big, b2);
    let m2 = b.mask(c3);
    let w = b.select(m2, v, lo);
    let f = optimize(&b.finish(vec![sel, or, q, lo, hi, m, w, t, c3, b2]));
    let k = compile(&f, &[], &[]).expect("selects");
    let mut rng = Rng(0xe7);
    let mut cases: Vec<[u64; 6]> = vec![[0; 6], [u64::MAX; 6], [1, 0, u64::MAX, u64::MAX, 1, 0]];
    for _ in 0..200 {
        let mut w = [0u64; 6];
        for x in &mut w {
            // Mostly edge words, so the carries and borrows go both ways.
            *x = match rng.next_u64() % 4 {
                0 => 0,
                1 => u64::MAX,
                _ => rng.next_u64(),
            };
        }
        cases.push(w);
    }
    for w in cases {
        let ops: [&[u64]; 2] = [&w[..3], &w[3..]];
        let want = interpret(&f, &ops).expect("no range obligations");
        let got = run_virtual(&k.program, &ops, &[]).unwrap_or_else(|e| panic!("{w:x?}: {e}"));
        assert_eq!(got, want, "virtual {w:x?}");
        let got = run_allocated(&k.alloc, &ops, &[]).unwrap_or_else(|e| panic!("{w:x?}: {e}"));
        assert_eq!(got, want, "allocated {w:x?}");
        let small = allocate(&k.program, SMALL_POOL);
        let got = run_allocated(&small, &ops, &[]).unwrap_or_else(|e| panic!("{w:x?}: {e}"));
        assert_eq!(got, want, "small pool {w:x?}");
    }
}
