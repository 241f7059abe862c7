//! Named moduli of widely used curves, so that `bn254` or `secp256k1-n` can stand for the prime.

/// A named modulus.
#[derive(Debug, PartialEq, Eq)]
pub struct Preset {
    /// Canonical name, lower case, `-` separated: `<curve>-<p|n|r|l>`.
    pub name: &'static str,
    /// Other accepted names.
    pub aliases: &'static [&'static str],
    /// The prime, as an expression accepted by [`super::parse_modulus_expr`].
    pub modulus: &'static str,
    /// Suggested name of the generated field type: `"Fp"` for a base field, `"Fr"` for a
    /// scalar (group-order) field.
    pub type_name: &'static str,
    /// One line: what the prime is and where it is specified.
    pub description: &'static str,
}

/// Every preset. Names and aliases are unique under [`find_preset`]'s matching rules.
///
/// The BN primes of the mcl library (`fp254bnb`, `bn381`, `bn462`) are p(z) = 36z⁴+36z³+24z²+6z+1
/// (base field) and r(z) = 36z⁴+36z³+18z²+6z+1 (group order) for the curve parameter z named
/// in the description; the tests recompute them from z.
pub static PRESETS: &[Preset] = &[
    Preset {
        name: "curve25519-p",
        aliases: &["curve25519", "ed25519-p"],
        modulus: "2^255-19",
        type_name: "Fp",
        description: "Curve25519/Ed25519 base field, p = 2^255 - 19 (RFC 7748 §4.1)",
    },
    Preset {
        name: "curve25519-l",
        aliases: &["ed25519-l"],
        modulus: "2^252+27742317777372353535851937790883648493",
        type_name: "Fr",
        description: "Curve25519/Ed25519 prime subgroup order l = 2^252 + 27742317777372353535851937790883648493 (RFC 7748 §4.1, RFC 8032 §5.1)",
    },
    Preset {
        name: "p256-p",
        aliases: &["p256", "secp256r1-p"],
        modulus: "2^256-2^224+2^192+2^96-1",
        type_name: "Fp",
        description: "NIST P-256 (secp256r1) base field, p = 2^256 - 2^224 + 2^192 + 2^96 - 1 (FIPS 186-4 D.1.2.3; SEC 2 v2 §2.4.2)",
    },
    Preset {
        name: "p256-n",
        aliases: &["secp256r1-n"],
        modulus: "0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551",
        type_name: "Fr",
        description: "NIST P-256 (secp256r1) group order n (FIPS 186-4 D.1.2.3; SEC 2 v2 §2.4.2)",
    },
    Preset {
        name: "secp256k1-p",
        aliases: &["secp256k1"],
        modulus: "2^256-2^32-977",
        type_name: "Fp",
        description: "secp256k1 base field, p = 2^256 - 2^32 - 977 (SEC 2 v2 §2.4.1)",
    },
    Preset {
        name: "secp256k1-n",
        aliases: &[],
        modulus: "0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141",
        type_name: "Fr",
        description: "secp256k1 group order n (SEC 2 v2 §2.4.1)",
    },
    Preset {
        name: "bls12-381-p",
        aliases: &["bls12-381"],
        modulus: "0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab",
        type_name: "Fp",
        description: "BLS12-381 base field, 381 bits, x = -0xd201000000010000 (draft-irtf-cfrg-pairing-friendly-curves, BLS12_381)",
    },
    Preset {
        name: "bls12-381-r",
        aliases: &[],
        modulus: "0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001",
        type_name: "Fr",
        description: "BLS12-381 group order r, 255 bits, 2-adicity 32 (draft-irtf-cfrg-pairing-friendly-curves, BLS12_381)",
    },
    Preset {
        name: "bn254-p",
        aliases: &["bn254", "alt-bn128-p"],
        modulus: "0x30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47",
        type_name: "Fp",
        description: "alt_bn128 (Ethereum's BN254) base field, BN curve with z = 4965661367192848881 (EIP-196, EIP-197); not the IETF draft's BN254, which is fp254bnb",
    },
    Preset {
        name: "bn254-r",
        aliases: &["alt-bn128-r"],
        modulus: "0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001",
        type_name: "Fr",
        description: "alt_bn128 (Ethereum's BN254) group order r, 2-adicity 28 (EIP-196, EIP-197)",
    },
    Preset {
        name: "fp254bnb-p",
        aliases: &[],
        modulus: "0x2523648240000001ba344d80000000086121000000000013a700000000000013",
        type_name: "Fp",
        description: "BN254 base field with z = -(2^62 + 2^55 + 1) (mcl BN curves: BN254 / Fp254BNb; draft-irtf-cfrg-pairing-friendly-curves, BN254)",
    },
    Preset {
        name: "fp254bnb-r",
        aliases: &[],
        modulus: "0x2523648240000001ba344d8000000007ff9f800000000010a10000000000000d",
        type_name: "Fr",
        description: "BN254 group order with z = -(2^62 + 2^55 + 1) (mcl BN curves: BN254 / Fp254BNb; draft-irtf-cfrg-pairing-friendly-curves, BN254)",
    },
    Preset {
        name: "bn381-p",
        aliases: &[],
        modulus: "0x240026400f3d82b2e42de125b00158405b710818ac00000840046200950400000000001380052e000000000000000013",
        type_name: "Fp",
        description: "BN381 base field with z = -(2^94 + 2^76 + 2^72 + 1) (mcl BN curves: BN381_1)",
    },
    Preset {
        name: "bn381-r",
        aliases: &[],
        modulus: "0x240026400f3d82b2e42de125b00158405b710818ac000007e0042f008e3e00000000001080046200000000000000000d",
        type_name: "Fr",
        description: "BN381 group order with z = -(2^94 + 2^76 + 2^72 + 1) (mcl BN curves: BN381_1)",
    },
    Preset {
        name: "bn462-p",
        aliases: &[],
        modulus: "0x240480360120023ffffffffff6ff0cf6b7d9bfca0000000000d812908f41c8020ffffffffff6ff66fc6ff687f640000000002401b00840138013",
        type_name: "Fp",
        description: "BN462 base field with z = 2^114 + 2^101 - 2^14 - 1 (mcl BN curves: BN462; draft-irtf-cfrg-pairing-friendly-curves, BN462)",
    },
    Preset {
        name: "bn462-r",
        aliases: &[],
        modulus: "0x240480360120023ffffffffff6ff0cf6b7d9bfca0000000000d812908ee1c201f7fffffffff6ff66fc7bf717f7c0000000002401b007e010800d",
        type_name: "Fr",
        description: "BN462 group order with z = 2^114 + 2^101 - 2^14 - 1 (mcl BN curves: BN462; draft-irtf-cfrg-pairing-friendly-curves, BN462)",
    },
    Preset {
        name: "p127-p",
        aliases: &["p127", "mersenne127"],
        modulus: "2^127-1",
        type_name: "Fp",
        description: "the Mersenne prime 2^127 - 1 (pseudo-Mersenne with c = 1)",
    },
    Preset {
        name: "p521-p",
        aliases: &["p521", "secp521r1-p", "mersenne521"],
        modulus: "2^521-1",
        type_name: "Fp",
        description: "NIST P-521 base field, the Mersenne prime 2^521 - 1 (FIPS 186-4 D.1.2.5; SEC 2 v2 §2.6.1)",
    },
    Preset {
        name: "p384-p",
        aliases: &["p384", "secp384r1-p"],
        modulus: "2^384-2^128-2^96+2^32-1",
        type_name: "Fp",
        description: "NIST P-384 (secp384r1) base field, p = 2^384 - 2^128 - 2^96 + 2^32 - 1 (FIPS 186-4 D.1.2.4; SEC 2 v2 §2.5.1)",
    },
    Preset {
        name: "p384-n",
        aliases: &["secp384r1-n"],
        modulus: "0xffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf581a0db248b0a77aecec196accc52973",
        type_name: "Fr",
        description: "NIST P-384 (secp384r1) group order n (FIPS 186-4 D.1.2.4; SEC 2 v2 §2.5.1)",
    },
    Preset {
        name: "p224-p",
        aliases: &["p224", "secp224r1-p"],
        modulus: "2^224-2^96+1",
        type_name: "Fp",
        description: "NIST P-224 (secp224r1) base field, p = 2^224 - 2^96 + 1, 2-adicity 96 (FIPS 186-4 D.1.2.2; SEC 2 v2 §2.3.2)",
    },
    Preset {
        name: "p224-n",
        aliases: &["secp224r1-n"],
        modulus: "0xffffffffffffffffffffffffffff16a2e0b8f03e13dd29455c5c2a3d",
        type_name: "Fr",
        description: "NIST P-224 (secp224r1) group order n (FIPS 186-4 D.1.2.2; SEC 2 v2 §2.3.2)",
    },
    Preset {
        name: "goldilocks-p",
        aliases: &["goldilocks", "ed448-p", "curve448-p"],
        modulus: "2^448-2^224-1",
        type_name: "Fp",
        description: "Ed448-Goldilocks / Curve448 base field, p = 2^448 - 2^224 - 1 (RFC 7748 §4.2)",
    },
];

/// Lower-cases ASCII letters and maps `_` to `-`, the form names are compared in.
fn normalize(name: &str) -> String {
    name.trim()
        .chars()
        .map(|c| {
            if c == '_' {
                '-'
            } else {
                c.to_ascii_lowercase()
            }
        })
        .collect()
}

/// The preset whose name or one of whose aliases equals `name`, ignoring ASCII case and
/// treating `_` and `-` alike (`BN254`, `alt_bn128_p` and `bn254-p` name the same preset).
pub fn find_preset(name: &str) -> Option<&'static Preset> {
    let wanted = normalize(name);
    PRESETS
        .iter()
        .find(|p| normalize(p.name) == wanted || p.aliases.iter().any(|a| normalize(a) == wanted))
}

/// The module name of a preset's field at a limb size in the committed `generated/` crate:
/// `bn254-p` at 64 bits is `bn254_p_64`.
pub fn module_name(preset: &str, limb_bits: u32) -> String {
    format!("{}_{}", preset.replace('-', "_"), limb_bits)
}

#[cfg(test)]
mod tests {
    use super::super::{is_probable_prime, parse_modulus_expr};
    use super::*;
    use num_bigint::{BigInt, BigUint};
    use num_traits::{One, Zero};
    use std::collections::HashSet;

    fn value(name: &str) -> BigUint {
        let preset = find_preset(name).unwrap_or_else(|| panic!("no preset {name}"));
        parse_modulus_expr(preset.modulus).unwrap_or_else(|e| panic!("{name}: {e}"))
    }

    /// p(z) = 36z⁴+36z³+24z²+6z+1 and r(z) = 36z⁴+36z³+18z²+6z+1 (Barreto–Naehrig 2005).
    fn bn_p_r(z: &BigInt) -> (BigUint, BigUint) {
        let z2 = z * z;
        let z3 = &z2 * z;
        let z4 = &z3 * z;
        let common =
            BigInt::from(36) * &z4 + BigInt::from(36) * &z3 + BigInt::from(6) * z + BigInt::one();
        let p = &common + BigInt::from(24) * &z2;
        let r = &common + BigInt::from(18) * &z2;
        (p.to_biguint().unwrap(), r.to_biguint().unwrap())
    }

    fn pow2(k: u32) -> BigInt {
        BigInt::one() << k
    }

    #[test]
    fn mcl_bn_primes_match_their_parameter() {
        let cases = [
            ("fp254bnb", -(pow2(62) + pow2(55) + 1u32), 254u64),
            ("bn381", -(pow2(94) + pow2(76) + pow2(72) + 1u32), 382),
            ("bn462", pow2(114) + pow2(101) - pow2(14) - 1u32, 462),
        ];
        for (curve, z, bits) in cases {
            let (p, r) = bn_p_r(&z);
            assert_eq!(value(&format!("{curve}-p")), p, "{curve}-p");
            assert_eq!(value(&format!("{curve}-r")), r, "{curve}-r");
            assert_eq!(p.bits(), bits, "{curve}-p bits");
            assert_eq!(r.bits(), bits, "{curve}-r bits");
        }
    }

    #[test]
    fn alt_bn128_matches_its_parameter() {
        let (p, r) = bn_p_r(&BigInt::from(4965661367192848881u64));
        assert_eq!(value("bn254-p"), p);
        assert_eq!(value("bn254-r"), r);
        assert_eq!(
            value("bn254"),
            parse_modulus_expr(
                "21888242871839275222246405745257275088696311157297823662689037894645226208583"
            )
            .unwrap()
        );
    }

    #[test]
    fn bls12_381_matches_its_parameter() {
        // p = (x-1)²(x⁴-x²+1)/3 + x, r = x⁴-x²+1 with x = -0xd201000000010000.
        let x = -BigInt::from(0xd201000000010000u64);
        let x2 = &x * &x;
        let r = &x2 * &x2 - &x2 + 1;
        let p = (&x - 1) * (&x - 1) * &r / 3 + &x;
        assert_eq!(BigInt::from(value("bls12-381-r")), r);
        assert_eq!(BigInt::from(value("bls12-381-p")), p);
    }

    #[test]
    fn every_preset_parses_and_is_prime() {
        let expected_bits = [
            ("curve25519-p", 255u64),
            ("curve25519-l", 253),
            ("p256-p", 256),
            ("p256-n", 256),
            ("secp256k1-p", 256),
            ("secp256k1-n", 256),
            ("bls12-381-p", 381),
            ("bls12-381-r", 255),
            ("bn254-p", 254),
            ("bn254-r", 254),
            ("fp254bnb-p", 254),
            ("fp254bnb-r", 254),
            ("bn381-p", 382),
            ("bn381-r", 382),
            ("bn462-p", 462),
            ("bn462-r", 462),
            ("p127-p", 127),
            ("p521-p", 521),
            ("p384-p", 384),
            ("p384-n", 384),
            ("p224-p", 224),
            ("p224-n", 224),
            ("goldilocks-p", 448),
        ];
        assert_eq!(PRESETS.len(), expected_bits.len());
        for (preset, (name, bits)) in PRESETS.iter().zip(expected_bits) {
            assert_eq!(preset.name, name);
            let p = parse_modulus_expr(preset.modulus).unwrap();
            assert_eq!(p.bits(), bits, "{name}");
            assert!(is_probable_prime(&p), "{name} is not prime");
            assert!(
                preset.type_name == "Fp" || preset.type_name == "Fr",
                "{name}"
            );
            assert_eq!(preset.type_name == "Fp", name.ends_with("-p"), "{name}");
            assert!(!preset.description.is_empty() && !preset.description.contains('\n'));
        }
        // The expression forms agree with the published hex values.
        let published = [
            (
                "curve25519-p",
                "0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffed",
            ),
            (
                "curve25519-l",
                "0x1000000000000000000000000000000014def9dea2f79cd65812631a5cf5d3ed",
            ),
            (
                "p256-p",
                "0xffffffff00000001000000000000000000000000ffffffffffffffffffffffff",
            ),
            (
                "secp256k1-p",
                "0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2f",
            ),
            (
                "p224-p",
                "0xffffffffffffffffffffffffffffffff000000000000000000000001",
            ),
        ];
        for (name, hex) in published {
            assert_eq!(value(name), parse_modulus_expr(hex).unwrap(), "{name}");
        }
    }

    #[test]
    fn names_and_aliases_are_unique() {
        let mut seen = HashSet::new();
        for preset in PRESETS {
            for name in std::iter::once(&preset.name).chain(preset.aliases) {
                assert_eq!(normalize(name), *name, "`{name}` is not in normal form");
                assert!(seen.insert(normalize(name)), "`{name}` is used twice");
                assert!(std::ptr::eq(find_preset(name).unwrap(), preset), "{name}");
            }
        }
        // Distinct presets have distinct moduli.
        let moduli: HashSet<BigUint> = PRESETS
            .iter()
            .map(|p| parse_modulus_expr(p.modulus).unwrap())
            .collect();
        assert_eq!(moduli.len(), PRESETS.len());
    }

    #[test]
    fn lookup_ignores_case_and_separator() {
        assert_eq!(find_preset("BN254").unwrap().name, "bn254-p");
        assert_eq!(find_preset("alt_bn128_p").unwrap().name, "bn254-p");
        assert_eq!(find_preset("Alt-BN128_R").unwrap().name, "bn254-r");
        assert_eq!(find_preset("BLS12_381").unwrap().name, "bls12-381-p");
        assert_eq!(find_preset(" secp256k1 ").unwrap().name, "secp256k1-p");
        assert_eq!(find_preset("Ed25519_L").unwrap().name, "curve25519-l");
        assert!(find_preset("bn255").is_none());
        assert!(find_preset("").is_none());
        assert!(find_preset("bn254 p").is_none());
        assert!(find_preset("ｂｎ254").is_none());
        assert!(value("bn254-r") < value("bn254-p") && !value("bn254-r").is_zero());
    }
}
