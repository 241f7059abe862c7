//! RSA keys from a real key generator: `openssl genrsa` when the `openssl` binary is on PATH,
//! else this crate's own key generation (`MontN::generate_crt_key`). Which source ran is printed;
//! the checks are the same either way and always run. For each key size 1536..4096: `modexp`
//! with the private exponent d and `modexp_vartime` with e against num-bigint, the CRT private
//! operation (`MontNCrtKey::private_op`, primes of half the size) against num-bigint, and the
//! round trip through the public operation.

mod common;

use std::process::Command;

use common::{be, Rng, Samplers};
use num_bigint::BigUint;
use num_integer::Integer;

/// The parts of an RSA key.
struct Key {
    n: BigUint,
    e: u64,
    d: BigUint,
    p: BigUint,
    q: BigUint,
}

/// `openssl genrsa` of `bits` bits, parsed from `openssl rsa -text`; None when the binary is
/// missing. A present binary that fails is a test failure.
fn openssl_key(bits: usize) -> Option<Key> {
    if Command::new("openssl").arg("version").output().is_err() {
        return None;
    }
    let dir = std::env::temp_dir().join(format!("fieldgen-rsa-keys-{}-{bits}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pem = dir.join(format!("key{bits}.pem"));
    let st = Command::new("openssl")
        .args(["genrsa", "-out"])
        .arg(&pem)
        .arg(bits.to_string())
        .output()
        .unwrap();
    assert!(st.status.success(), "openssl genrsa failed: {:?}", st);
    let out = Command::new("openssl")
        .args(["rsa", "-noout", "-text", "-in"])
        .arg(&pem)
        .output()
        .unwrap();
    assert!(out.status.success(), "openssl rsa -text failed");
    let _ = std::fs::remove_dir_all(&dir);
    let text = String::from_utf8(out.stdout).unwrap();
    let field = |name: &str| -> BigUint {
        let start = text
            .find(&format!("\n{name}:"))
            .unwrap_or_else(|| panic!("no {name} in openssl output"));
        let hex: String = text[start + name.len() + 2..]
            .lines()
            .skip(1)
            .take_while(|l| l.starts_with(' '))
            .flat_map(|l| l.trim().split(':').map(str::to_string).collect::<Vec<_>>())
            .collect();
        BigUint::parse_bytes(hex.as_bytes(), 16).unwrap()
    };
    let e_line = text
        .lines()
        .find(|l| l.starts_with("publicExponent:"))
        .unwrap();
    let e: u64 = e_line.split_whitespace().nth(1).unwrap().parse().unwrap();
    Some(Key {
        n: field("modulus"),
        e,
        d: field("privateExponent"),
        p: field("prime1"),
        q: field("prime2"),
    })
}

macro_rules! key_test {
    ($test:ident, $bits:expr, $full:ty, $half:ty) => {
        #[test]
        fn $test() {
            const B: usize = $bits / 8;
            const H: usize = $bits / 16;
            let mut rng = Rng($bits);
            let key = match openssl_key($bits) {
                Some(k) => {
                    println!("{}-bit key from openssl genrsa", $bits);
                    k
                }
                None => {
                    println!(
                        "{}-bit key from our generate_crt_key (no openssl binary)",
                        $bits
                    );
                    let k =
                        <$half>::generate_crt_key(&mut |b| rng.fill_low_bytes(b), 65537).unwrap();
                    let p = BigUint::from_bytes_be(&k.p.modulus_be());
                    let q = BigUint::from_bytes_be(&k.q.modulus_be());
                    let lambda = (&p - 1u32).lcm(&(&q - 1u32));
                    let d = BigUint::from(65537u32).modinv(&lambda).unwrap();
                    Key {
                        n: &p * &q,
                        e: 65537,
                        d,
                        p,
                        q,
                    }
                }
            };
            assert_eq!(key.n.bits(), $bits);
            assert_eq!(&key.p * &key.q, key.n);
            let ctx = <$full>::new(&be::<B>(&key.n)).unwrap();
            let crt =
                <$half>::crt_key_from_primes(&be::<H>(&key.p), &be::<H>(&key.q), key.e).unwrap();
            assert_eq!(BigUint::from_bytes_be(&crt.modulus_be()), key.n);
            let d = be::<B>(&key.d);
            for round in 0..2 {
                let m = rng.below_by_bytes(&key.n);
                let want = m.modpow(&key.d, &key.n);
                let c = BigUint::from_bytes_be(&ctx.modexp(&be::<B>(&m), &d));
                assert_eq!(c, want, "modexp with d");
                assert_eq!(
                    BigUint::from_bytes_be(&crt.private_op(&be::<B>(&m))),
                    want,
                    "CRT private operation"
                );
                let back = ctx.modexp_vartime(&be::<B>(&c), &key.e.to_be_bytes());
                assert_eq!(BigUint::from_bytes_be(&back), m, "public operation");
                if round == 0 {
                    // n − 1 as the base, and the exponent n − 1.
                    let nm1 = &key.n - 1u32;
                    let got = ctx.modexp(&be::<B>(&nm1), &nm1.to_bytes_be());
                    assert_eq!(BigUint::from_bytes_be(&got), nm1.modpow(&nm1, &key.n));
                }
            }
        }
    };
}

key_test!(rsa1536, 1536, fieldgen_rsa::Mont1536, fieldgen_rsa::Mont768);
key_test!(
    rsa2048,
    2048,
    fieldgen_rsa::Mont2048,
    fieldgen_rsa::Mont1024
);
key_test!(
    rsa3072,
    3072,
    fieldgen_rsa::Mont3072,
    fieldgen_rsa::Mont1536
);
key_test!(
    rsa4096,
    4096,
    fieldgen_rsa::Mont4096,
    fieldgen_rsa::Mont2048
);
