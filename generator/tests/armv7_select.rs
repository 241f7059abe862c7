//! The ARMv7 instruction selector: the optimised IR of the CIOS Montgomery product and of the
//! square selected as `umaal` and `adds`/`adcs` chains, spilled, allocated, and run in the
//! instruction simulator before and after allocation, compared with a·b·R⁻¹ mod p and
//! a²·R⁻¹ mod p computed by num-bigint, for every
//! 32-bit preset the ARMv7 backend serves and random primes of 1 to 16 limbs in several
//! shapes; also the kernels the products emit ([`chosen_kernel`]) and, with `--nocapture`, a
//! table of the hand-written and selected instruction counts.

use generator::backend::armv7::sim::{run_allocated, run_virtual};
use generator::backend::armv7::{
    chosen_kernel, mul_kernel, selected_kernel, square_kernel, unsupported, Chosen, MAX_LIMBS,
};
use generator::spec::{parse_modulus_expr, FieldConsts, LimbBits, PRESETS};
use generator::strategy::MulAlgorithm;
use num_bigint::BigUint;

use fieldgen_test_support::{edge_values, prime_of_shape_32, SplitMix64 as Rng};

fn words(c: &FieldConsts, x: &BigUint) -> Vec<u32> {
    let mut l: Vec<u32> = c
        .limbs_of(x)
        .iter()
        .map(|&l| u32::try_from(l).unwrap())
        .collect();
    l.resize(c.limbs, 0);
    l
}

/// The shared edge operands below p (`fieldgen_test_support::edge_values`), then `random`
/// random ones.
fn values(rng: &mut Rng, c: &FieldConsts, random: usize) -> Vec<BigUint> {
    edge_values(rng, &c.modulus, &c.r, &c.r2, c.limbs, 32, random)
}

/// Runs the selected multiplication and squaring kernels (before and after allocation) and
/// the chosen ones on pairs of `xs`, against num-bigint. Returns the
/// instruction counts.
fn check(rng: &mut Rng, name: &str, p: &BigUint, random: usize) -> Row {
    let c = FieldConsts::new(p, LimbBits::W32).unwrap();
    assert!(unsupported(&c, MulAlgorithm::Cios).is_none(), "{name}");
    let r_inv = c.r.modpow(&(p - 2u32), p);
    let xs = values(rng, &c, random);
    let modulus: Vec<u32> = c
        .modulus_limbs
        .iter()
        .map(|&l| u32::try_from(l).unwrap())
        .collect();
    let n0 = u32::try_from(c.n0_inv).unwrap();
    let edges = (xs.len() - random).min(12);
    let mut pairs: Vec<(&BigUint, &BigUint)> = xs[..edges]
        .iter()
        .flat_map(|a| xs[..edges].iter().map(move |b| (a, b)))
        .collect();
    pairs.extend(xs.iter().zip(xs.iter().rev()));

    let sel = selected_kernel(&c, false).unwrap_or_else(|e| panic!("{name}: {e}"));
    let mul = chosen_kernel(&c, false);
    let square = chosen_kernel(&c, true);
    for &(a, b) in &pairs {
        let want = words(&c, &(a * b * &r_inv % p));
        let (la, lb) = (words(&c, a), words(&c, b));
        let ops: [&[u32]; 2] = [&la, &lb];
        let got = run_virtual(&sel.program, &ops, &modulus, n0)
            .unwrap_or_else(|e| panic!("{name} virtual selected a={a:#x} b={b:#x}: {e}"));
        assert_eq!(got, want, "{name} virtual selected a={a:#x} b={b:#x}");
        let got = run_allocated(&sel.alloc, &ops, &modulus, n0)
            .unwrap_or_else(|e| panic!("{name} allocated selected a={a:#x} b={b:#x}: {e}"));
        assert_eq!(got, want, "{name} allocated selected a={a:#x} b={b:#x}");
        let got = run_allocated(mul.alloc(), &ops, &modulus, n0)
            .unwrap_or_else(|e| panic!("{name} chosen mul a={a:#x} b={b:#x}: {e}"));
        assert_eq!(got, want, "{name} chosen mul a={a:#x} b={b:#x}");
    }
    let sel_sq = selected_kernel(&c, true).unwrap_or_else(|e| panic!("{name} square: {e}"));
    for a in &xs {
        let want = words(&c, &(a * a * &r_inv % p));
        let la = words(&c, a);
        let got = run_virtual(&sel_sq.program, &[&la], &modulus, n0)
            .unwrap_or_else(|e| panic!("{name} virtual selected square a={a:#x}: {e}"));
        assert_eq!(got, want, "{name} virtual selected square a={a:#x}");
        let got = run_allocated(&sel_sq.alloc, &[&la], &modulus, n0)
            .unwrap_or_else(|e| panic!("{name} allocated selected square a={a:#x}: {e}"));
        assert_eq!(got, want, "{name} allocated selected square a={a:#x}");
        let got = run_allocated(square.alloc(), &[&la], &modulus, n0)
            .unwrap_or_else(|e| panic!("{name} chosen square a={a:#x}: {e}"));
        assert_eq!(got, want, "{name} chosen square a={a:#x}");
    }
    // The contract: the selected kernel exactly when it is no longer than the hand kernel.
    let hand = mul_kernel(&c).instructions();
    assert_eq!(
        matches!(mul, Chosen::Selected(_)),
        sel.instructions() <= hand,
        "{name}"
    );
    assert!(mul.instructions() <= hand, "{name}");
    let hand_sq = square_kernel(&c).instructions();
    assert_eq!(
        matches!(square, Chosen::Selected(_)),
        sel_sq.instructions() <= hand_sq,
        "{name} square"
    );
    assert!(square.instructions() <= hand_sq, "{name} square");
    // Every product of the IR is one umaal/umull/mul: at least the n² of a·b, at most the
    // hand kernel's n(2n + 1) plus the sums a row's end turns into umaal (0·0 + a + b).
    let n = c.limbs;
    assert!(
        sel.multiplies() >= n * n && sel.multiplies() <= n * (2 * n + 3),
        "{name}: {} multiplies",
        sel.multiplies()
    );
    let which = |k: &Chosen| match k {
        Chosen::Selected(_) => "selected",
        Chosen::Hand(..) => "hand",
    };
    Row {
        limbs: n,
        hand,
        selected: sel.instructions(),
        chosen: which(&mul),
        hand_sq,
        selected_sq: sel_sq.instructions(),
        chosen_sq: which(&square),
    }
}

/// One line of the table.
struct Row {
    limbs: usize,
    hand: usize,
    selected: usize,
    chosen: &'static str,
    hand_sq: usize,
    selected_sq: usize,
    chosen_sq: &'static str,
}

fn table(rows: &[(String, Row)]) {
    eprintln!(
        "{:<24} {:>5} | {:>9} {:>8} {:<8} | {:>12} {:>8} {:<8}",
        "field", "limbs", "mul: hand", "selected", "chosen", "square: hand", "selected", "chosen"
    );
    for (name, r) in rows {
        eprintln!(
            "{name:<24} {:>5} | {:>9} {:>8} {:<8} | {:>12} {:>8} {:<8}",
            r.limbs, r.hand, r.selected, r.chosen, r.hand_sq, r.selected_sq, r.chosen_sq
        );
    }
}

#[test]
fn presets_against_num_bigint() {
    let mut rng = Rng(0xa7e1);
    let mut rows = Vec::new();
    for preset in PRESETS {
        let p = parse_modulus_expr(preset.modulus).expect("parses");
        let Ok(c) = FieldConsts::new(&p, LimbBits::W32) else {
            continue;
        };
        if unsupported(&c, MulAlgorithm::Cios).is_some() {
            continue;
        }
        let row = check(&mut rng, preset.name, &p, 6);
        rows.push((preset.name.to_string(), row));
    }
    table(&rows);
    assert!(rows.len() >= 10, "{} presets", rows.len());
}

#[test]
fn random_primes_against_num_bigint() {
    let mut rng = Rng(0x5e7);
    let mut rows = Vec::new();
    for n in [1, 2, 3, 5, 8, 12, MAX_LIMBS] {
        for shape in [0, 1, 4, 6] {
            let p = prime_of_shape_32(&mut rng, n, shape);
            let name = format!("random n={n} shape={shape}");
            let row = check(&mut rng, &name, &p, 4);
            rows.push((name, row));
        }
    }
    table(&rows);
}

/// The selected kernels do not depend on hash-map iteration order: `regen --check` compares
/// the emitted text with the committed files.
#[test]
fn selection_is_deterministic() {
    for name in ["bn254-p", "p256-n", "bls12-381-p"] {
        let preset = PRESETS.iter().find(|p| p.name == name).expect("preset");
        let p = parse_modulus_expr(preset.modulus).expect("parses");
        let c = FieldConsts::new(&p, LimbBits::W32).unwrap();
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
