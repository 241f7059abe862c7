//! The AArch64 instruction selector: lowered and optimised IR of the field operations (every
//! Montgomery multiplication algorithm, squaring, addition, subtraction, negation, the
//! double-width functions and the special-form reductions) selected, allocated and run in the
//! instruction simulator before and after allocation, compared with the IR interpreter (itself
//! checked against num-bigint by `ir_oracle`) on random inputs and edge values, for preset
//! primes and random 1- and 9-limb primes. Also the size of the selected CIOS multiplication
//! next to the hand-written kernel.

use generator::backend::aarch64::select::{compile, mnemonics, Given, Selected};
use generator::backend::aarch64::sim::{run_allocated, run_virtual};
use generator::backend::aarch64::{chosen_kernel, mul_kernel, unsupported};
use generator::ir::{interpret, Func};
use generator::pass::{optimize, verify_bounds};
use generator::spec::{find_preset, parse_modulus_expr, FieldConsts, LimbBits, PRESETS};
use generator::strategy::pseudo_mersenne::{self, PseudoMersenne};
use generator::strategy::signed_solinas::{self, SignedSolinas};
use generator::strategy::unsaturated::{self, Unsaturated};
use generator::strategy::{addsub, montgomery, reduced_bounds, square, wide, MulAlgorithm};
use num_bigint::BigUint;
use num_traits::One;

use fieldgen_test_support::{prime_of_shape, SplitMix64 as Rng};

fn preset(name: &str) -> BigUint {
    parse_modulus_expr(find_preset(name).expect("preset").modulus).expect("parses")
}

/// The modulus and n0' of `c`, as the kernels are given them.
fn given(c: &FieldConsts) -> Given<'_> {
    Given {
        modulus: Some(&c.modulus_limbs),
        n0: Some(c.n0_inv),
    }
}

/// The functions of one prime worth selecting, optimised, by name.
fn functions(c: &FieldConsts) -> Vec<(String, Func)> {
    let mut v: Vec<(String, Func)> = Vec::new();
    for alg in [
        MulAlgorithm::Cios,
        MulAlgorithm::CiosNoCarry,
        MulAlgorithm::ProductScanning,
    ] {
        if alg.applies_to(c) {
            v.push((format!("mul {}", alg.name()), montgomery::lower_mul(c, alg)));
        }
    }
    v.push((
        "from_montgomery".into(),
        montgomery::lower_from_montgomery(c, MulAlgorithm::Cios),
    ));
    v.push(("square".into(), square::lower_square(c)));
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
        v.push((
            "pm mul_small".into(),
            pseudo_mersenne::lower_mul_small(c, &pm),
        ));
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
        v.push(("solinas square".into(), signed_solinas::lower_square(c, &s)));
    }
    if Unsaturated::detect(c).is_some() {
        let m = Unsaturated::default_limbs(c, None);
        if let Ok(u) = Unsaturated::with_limbs(c, m) {
            v.push(("unsaturated mul".into(), unsaturated::lower_mul(&u)));
            v.push(("unsaturated square".into(), unsaturated::lower_square(&u)));
        }
    }
    // Only functions whose range obligations hold are emitted by the generator.
    v.into_iter()
        .filter(|(name, f)| verify_bounds(f, name).is_ok())
        .map(|(name, f)| (name, optimize(&f)))
        .collect()
}

/// The largest value of the form 2^k − 1 at most `b`.
fn all_ones_below(b: u64) -> u64 {
    let k = 64 - b.leading_zeros();
    let ones = if k == 64 { u64::MAX } else { (1u64 << k) - 1 };
    if ones <= b {
        ones
    } else {
        ones >> 1
    }
}

/// Argument vectors for `f`: edge values (0, 1, p − 1, every limb at its bound, all-ones limbs
/// under the bounds) and random limbs within the bounds, random values below p when the bounds
/// are those of a reduced value.
fn arguments(rng: &mut Rng, c: &FieldConsts, f: &Func, random: usize) -> Vec<Vec<Vec<u64>>> {
    let reduced = reduced_bounds(c);
    let candidates = |rng: &mut Rng, bounds: &[u64]| -> Vec<Vec<u64>> {
        let n = bounds.len();
        let fit = |x: &BigUint| {
            let mut l = c.limbs_of(&(x % (BigUint::one() << (64 * n))));
            l.resize(n, 0);
            l
        };
        let mut v = vec![
            vec![0; n],
            fit(&BigUint::one()),
            fit(&(&c.modulus - 1u32)),
            bounds.to_vec(),
            bounds.iter().map(|&b| all_ones_below(b)).collect(),
        ];
        v.push(bounds.iter().map(|b| b >> 1).collect());
        for _ in 0..random {
            if bounds == reduced.as_slice() {
                v.push(fit(&rng.below(&c.modulus)));
            }
            v.push(
                bounds
                    .iter()
                    .map(|&b| match b.checked_add(1) {
                        Some(m) => rng.next_u64() % m,
                        None => rng.next_u64(),
                    })
                    .collect(),
            );
        }
        v.retain(|l| l.iter().zip(bounds).all(|(x, b)| x <= b));
        v
    };
    let per_arg: Vec<Vec<Vec<u64>>> = f.inputs.iter().map(|b| candidates(rng, b)).collect();
    let count = per_arg.iter().map(Vec::len).max().unwrap_or(1);
    let mut out = Vec::new();
    // Edge values crossed with each other, then random values paired up.
    for i in 0..count.min(6) {
        for j in 0..count.min(6) {
            out.push(
                per_arg
                    .iter()
                    .enumerate()
                    .map(|(k, c)| c[if k == 0 { i } else { j } % c.len()].clone())
                    .collect(),
            );
        }
    }
    for i in 0..count {
        out.push(
            per_arg
                .iter()
                .enumerate()
                .map(|(k, c)| c[(i + 3 * k) % c.len()].clone())
                .collect(),
        );
    }
    out
}

/// Selects `f`, runs it before and after allocation on `args`, and compares with the IR
/// interpreter; returns how many argument vectors the interpreter accepted.
fn check(c: &FieldConsts, name: &str, f: &Func, sel: &Selected, args: &[Vec<Vec<u64>>]) -> usize {
    let mut compared = 0;
    for a in args {
        let ops: Vec<&[u64]> = a.iter().map(Vec::as_slice).collect();
        let Ok(want) = interpret(f, &ops) else {
            continue;
        };
        compared += 1;
        let modulus = &c.modulus_limbs;
        let got = run_virtual(&sel.program, &ops, modulus, c.n0_inv)
            .unwrap_or_else(|e| panic!("{name} p={:#x} args={a:x?}: virtual: {e}", c.modulus));
        assert_eq!(got, want, "{name} p={:#x} args={a:x?}: virtual", c.modulus);
        let got = run_allocated(&sel.alloc, &ops, modulus, c.n0_inv)
            .unwrap_or_else(|e| panic!("{name} p={:#x} args={a:x?}: allocated: {e}", c.modulus));
        assert_eq!(
            got, want,
            "{name} p={:#x} args={a:x?}: allocated",
            c.modulus
        );
    }
    compared
}

/// Every function of `p` that fits the register file matches the interpreter; the
/// Montgomery, add/sub and special-form field operations must fit at up to 8 limbs.
fn check_prime(rng: &mut Rng, p: &BigUint, random: usize) {
    let c = FieldConsts::new(p, LimbBits::W64).expect("a prime");
    let fs = functions(&c);
    assert!(fs.len() >= 11, "p={p:#x}: {} functions", fs.len());
    for (name, f) in &fs {
        let sel = match compile(f, given(&c)) {
            Ok(s) => s,
            Err(e) => {
                // Double-width values of 9 limbs are 18 result registers: too many to return.
                assert!(c.limbs > 8 || name.contains("wide"), "{name} p={p:#x}: {e}");
                eprintln!("{} limbs, {name}: not selected ({e})", c.limbs);
                continue;
            }
        };
        let args = arguments(rng, &c, f, random);
        let compared = check(&c, name, f, &sel, &args);
        assert!(
            compared >= 10,
            "{name} p={p:#x}: only {compared} inputs ran"
        );
    }
}

#[test]
fn preset_primes() {
    let mut rng = Rng(0x5e1);
    for name in ["bn254-p", "p256-p", "secp256k1-p", "p384-p", "curve25519-p"] {
        check_prime(&mut rng, &preset(name), 12);
    }
}

#[test]
fn random_1_and_9_limb_primes() {
    let mut rng = Rng(0x91);
    for (n, shape) in [(1, 0), (1, 2), (1, 7), (9, 0), (9, 2)] {
        let p = prime_of_shape(&mut rng, n, shape);
        check_prime(&mut rng, &p, 6);
    }
}

/// The selected IR CIOS multiplication next to the hand-written CIOS kernel (with `SELECT_DUMP`
/// set in the environment, the selected kernels are printed).
#[test]
fn cios_counts_against_the_hand_kernel() {
    for name in ["bn254-p", "p256-p"] {
        let c = FieldConsts::new(&preset(name), LimbBits::W64).expect("a prime");
        let n = c.limbs;
        let f = optimize(&montgomery::lower_mul(&c, MulAlgorithm::Cios));
        let sel = compile(&f, given(&c)).expect("fits");
        let hand = mul_kernel(&c);
        if std::env::var_os("SELECT_DUMP").is_some() {
            for i in &sel.alloc.insts {
                eprintln!("    {}", i.text());
            }
        }
        eprintln!(
            "{name}: selected IR CIOS {} instructions, {} mul/umulh, {} registers ({:?}); hand kernel {} instructions, {} mul/umulh, {} registers",
            sel.instructions(),
            sel.multiplies(),
            sel.alloc.pressure,
            mnemonics(&sel.program),
            hand.instructions(),
            hand.multiplies(),
            hand.alloc.pressure,
        );
        // The IR drops no more products than the hand kernel: at most 2n² + n, at least
        // 2n² (the quotient products fold only with n0' = 1).
        assert!(sel.multiplies() >= 2 * n * n && sel.multiplies() <= 2 * (2 * n * n + n));
        assert!(hand.multiplies() <= sel.multiplies());
        // With the adc/add fusion and ldp pairing the selected kernel is as short as the hand
        // kernel on a modulus without zero limbs; P-256's zero limb splits the IR's rows (six
        // more instructions), so the product keeps the hand kernel there.
        assert!(
            name != "bn254-p" || sel.instructions() <= hand.instructions(),
            "{name}: {} selected against {} hand-written",
            sel.instructions(),
            hand.instructions()
        );
    }
}

/// The kernels the products emit ([`chosen_kernel`]: selected from the IR where no longer than
/// the hand kernel, else hand-written), run in the simulator after allocation on every 64-bit
/// preset the AArch64 backend serves, against a·b·R⁻¹ mod p and a²·R⁻¹ mod p in num-bigint:
/// 0, 1, p − 1 crossed with each other and random values below p.
#[test]
fn chosen_product_kernels_against_num_bigint() {
    let mut rng = Rng(0xa64);
    let mut selected = 0;
    for preset in PRESETS {
        let p = parse_modulus_expr(preset.modulus).expect("parses");
        let Ok(c) = FieldConsts::new(&p, LimbBits::W64) else {
            continue;
        };
        if unsupported(&c, MulAlgorithm::Cios).is_some() {
            continue;
        }
        let r_inv = (BigUint::one() << (64 * c.limbs)).modpow(&(&p - 2u32), &p);
        let limbs = |x: &BigUint| {
            let mut l = c.limbs_of(x);
            l.resize(c.limbs, 0);
            l
        };
        let mut values = vec![BigUint::ZERO, BigUint::one(), &p - 1u32];
        for _ in 0..8 {
            values.push(rng.below(&p));
        }
        for square in [false, true] {
            let k = chosen_kernel(&c, square);
            if matches!(k, generator::backend::aarch64::Chosen::Selected(_)) {
                selected += 1;
            }
            for (i, a) in values.iter().enumerate() {
                let b = if square {
                    a
                } else {
                    &values[(i * 7 + 3) % values.len()]
                };
                let (la, lb) = (limbs(a), limbs(b));
                let ops: Vec<&[u64]> = if square { vec![&la] } else { vec![&la, &lb] };
                let got = run_allocated(k.alloc(), &ops, &c.modulus_limbs, c.n0_inv)
                    .unwrap_or_else(|e| panic!("{} square={square}: {e}", preset.name));
                let want = limbs(&(a * b * &r_inv % &p));
                assert_eq!(
                    got, want,
                    "{} square={square} a={a:#x} b={b:#x}",
                    preset.name
                );
            }
        }
    }
    // bn254-p and p256-n among others take the selected multiplication.
    assert!(selected >= 2, "{selected} selected kernels");
}
