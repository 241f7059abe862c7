//! The generator's front end on fuzzer text: prime expressions, polynomials, the options the
//! CLI and the proc macros pass to the library, and BN curve parameters. Bad input must give an
//! error value, never a panic; what parses is checked against an independent reading where one
//! is easy to write (plain decimal and hex moduli against num-bigint, a polynomial's exponents
//! against the text that lists them).
//!
//! The proc macros' own attribute parsing (`macros/src/settings.rs`) lives in the proc-macro
//! crate, which cannot export it: its trybuild tests cover it, and the library calls it makes
//! are the ones fuzzed here. The CLI's clap layer is not fuzzed; the options it builds are.

use generator::binary::{
    generate_binary_field_for, parse_binary_modulus, BinaryFieldOptions, BinarySpec, BinaryTarget,
};
use generator::spec::{parse_modulus, validate_prime, LimbBits};
use generator::strategy::{MulAlgorithm, Strategy};
use generator::{generate_prime_field_for, PrimeFieldOptions, Target};
use num_bigint::BigUint;

use crate::Input;

/// Longest text handed to the parsers. The generator refuses moduli above its bit limit itself;
/// this only keeps each execution short (a long prime expression is mostly one slow
/// primality test).
const MAX_TEXT: usize = 200;

fn text(bytes: &[u8]) -> String {
    let t = String::from_utf8_lossy(bytes);
    t.chars().take(MAX_TEXT).collect()
}

/// Target `generator_frontend`.
pub fn run(data: &[u8]) {
    let mut input = Input::new(data);
    match input.byte() % 5 {
        0 => modulus(&text(input.rest())),
        1 => polynomial(&text(input.rest())),
        2 => prime_options(&mut input),
        3 => binary_options(&mut input),
        _ => bn(&mut input),
    }
}

fn modulus(t: &str) {
    let Ok((v, preset)) = parse_modulus(t) else {
        return;
    };
    let s = t.trim();
    if preset.is_none() {
        // A plain number reads the same through num-bigint.
        let plain = if let Some(h) = s.strip_prefix("0x") {
            (!h.is_empty() && h.bytes().all(|c| c.is_ascii_hexdigit()))
                .then(|| BigUint::parse_bytes(h.as_bytes(), 16))
                .flatten()
        } else if s.bytes().all(|c| c.is_ascii_digit()) {
            BigUint::parse_bytes(s.as_bytes(), 10)
        } else {
            None
        };
        if let Some(want) = plain {
            assert_eq!(v, want, "parse_modulus({t:?})");
        }
    }
    if v.bits() <= 1100 {
        let _ = validate_prime(&v);
    }
}

fn polynomial(t: &str) {
    let Ok((poly, preset)) = parse_binary_modulus(t) else {
        return;
    };
    let exps = poly.exponents();
    if preset.is_none() {
        // Every exponent the text names with an odd count is a term; nothing else is.
        let mut want = std::collections::BTreeMap::<usize, bool>::new();
        let mut readable = true;
        for term in t.split('+').map(str::trim) {
            let e = match term {
                "1" => Some(0),
                "x" => Some(1),
                _ => term
                    .strip_prefix("x^")
                    .and_then(|d| d.parse::<usize>().ok()),
            };
            match e {
                Some(e) if e <= 4096 => *want.entry(e).or_default() ^= true,
                _ => readable = false,
            }
        }
        if readable {
            let want: Vec<usize> = want
                .into_iter()
                .filter(|&(_, odd)| odd)
                .map(|(e, _)| e)
                .collect();
            let mut got = exps.clone();
            got.sort_unstable();
            assert_eq!(got, want, "parse_binary_modulus({t:?}) exponents");
        }
    }
    if poly.degree().is_some_and(|d| d <= 1100) {
        let _ = BinarySpec::new(&poly, LimbBits::W64);
        let _ = BinarySpec::new(&poly, LimbBits::W32);
    }
}

fn limb_bits(input: &mut Input) -> Result<LimbBits, ()> {
    // Mostly 32 or 64; other values must be refused.
    let b = match input.byte() % 4 {
        0 => 32,
        1 => 64,
        _ => input.u32(),
    };
    LimbBits::from_bits(b).map_err(|_| assert!(b != 32 && b != 64, "{b} refused"))
}

fn prime_options(input: &mut Input) {
    let Ok(limb_bits) = limb_bits(input) else {
        return;
    };
    // None (the default) or one of every algorithm.
    let mul = match usize::from(input.byte()) % (MulAlgorithm::ALL.len() + 1) {
        0 => None,
        k => Some(MulAlgorithm::ALL[k - 1]),
    };
    let strategy = match input.byte() % 5 {
        0 => Strategy::Auto,
        1 => Strategy::Montgomery,
        2 => Strategy::PseudoMersenne,
        3 => Strategy::Solinas,
        _ => Strategy::Unsaturated,
    };
    let radix = match input.byte() {
        0..=127 => None,
        r => Some(u32::from(r - 128)),
    };
    let target = Target::ALL[input.byte() as usize % Target::ALL.len()];
    let name = text(input.chunk());
    let modulus = text(input.rest());
    // Generation runs the whole pipeline; keep to moduli the parser sizes as small enough to
    // finish quickly (the bit limit itself is checked by the parser, not here).
    if parse_modulus(&modulus).is_ok_and(|(v, _)| v.bits() > 640) {
        return;
    }
    let options = PrimeFieldOptions {
        modulus,
        name,
        limb_bits,
        mul,
        strategy,
        radix,
    };
    let _ = generate_prime_field_for(&options, target);
}

fn binary_options(input: &mut Input) {
    let Ok(limb_bits) = limb_bits(input) else {
        return;
    };
    let target = match input.byte() % 3 {
        0 => BinaryTarget::Auto,
        1 => BinaryTarget::Portable64,
        _ => BinaryTarget::Portable32,
    };
    let name = text(input.chunk());
    let poly = text(input.rest());
    if parse_binary_modulus(&poly).is_ok_and(|(p, _)| p.degree().is_some_and(|d| d > 600)) {
        return;
    }
    let options = BinaryFieldOptions {
        poly,
        name,
        limb_bits,
    };
    let _ = generate_binary_field_for(&options, target);
}

fn bn(input: &mut Input) {
    let b = u64::from(input.byte());
    let xi_a = u64::from(input.byte());
    let z: String = text(input.rest()).chars().take(40).collect();
    let _ = generator::bn::derive(&z, b, xi_a, None);
}
