//! The curve crates' secret paths: Weierstrass and binary-curve scalar multiplication (variable
//! and fixed base), key generation, ECDH and ECDSA signing; BN G1 and G2 scalar multiplication
//! and the pairing with a secret G1 point; the RSA schemes' blinded CRT private operation.

use std::hint::black_box;

use fieldgen_field::{Field, PrimeField};
use fieldgen_weierstrass::ecdsa::{PublicKey, SecretKey};
use fieldgen_weierstrass::PrimeGroup;

use crate::valgrind::{public_slice, secret};
use crate::Report;

/// A deterministic `CryptoRng` whose output is marked secret when the second field says so:
/// the hedged-signing randomness and the RSA blinding values are secrets the code must not
/// branch on; a PSS salt is not (the verifier recovers it).
pub struct SecretRng(pub u64, pub bool);

impl rand_core::TryRng for SecretRng {
    type Error = core::convert::Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        let mut b = [0u8; 4];
        self.try_fill_bytes(&mut b)?;
        Ok(u32::from_le_bytes(b))
    }
    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        let mut b = [0u8; 8];
        self.try_fill_bytes(&mut b)?;
        Ok(u64::from_le_bytes(b))
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        for b in dst.iter_mut() {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            *b = (self.0 >> 56) as u8;
        }
        if self.1 {
            crate::valgrind::secret_slice(dst);
        }
        Ok(())
    }
}

impl rand_core::TryCryptoRng for SecretRng {}

/// A public scalar in [1, n) from a seed (no secret yet).
fn scalar_from_seed<S: PrimeField>(seed: u64) -> S {
    let x = S::from_u64(seed | 1);
    let y = x.square().square() * x + S::from_u64(0x9e37_79b9_7f4a_7c15);
    S::conditional_select(&y, &S::ONE, y.is_zero())
}

/// The protocol checks of one prime-order group: the interface every Weierstrass and binary
/// curve shares (`PrimeGroup`), so the same calls cover both.
pub fn check_group<G: PrimeGroup>(r: &mut Report, name: &str, cofactor_ecdh: bool) {
    let start = std::time::Instant::now();
    // Lazily built generator tables (OnceLock) from public data first: their construction is
    // public and not what is checked.
    black_box(G::mul_base(&G::Scalar::ONE));
    let peer_sk =
        SecretKey::<G>::from_bytes(scalar_from_seed::<G::Scalar>(3).to_be_bytes().as_ref())
            .expect("a scalar in [1, n)");
    let peer: PublicKey<G> = *peer_sk.public_key();
    let p = *peer.as_point();

    let mut k = scalar_from_seed::<G::Scalar>(name.len() as u64 + 11);
    secret(&mut k);
    let mut sp = p;
    secret(&mut sp);
    r.run(&format!("{name}: k·P (secret k and P)"), || {
        black_box(G::mul(&sp, &k));
    });
    r.run(&format!("{name}: k·G (fixed base)"), || {
        black_box(G::mul_base(&k));
    });

    let mut d_bytes = scalar_from_seed::<G::Scalar>(name.len() as u64 + 29).to_be_bytes();
    secret(&mut d_bytes);
    let mut sk = None;
    r.run(&format!("{name}: key from bytes, public key d·G"), || {
        sk = Some(SecretKey::<G>::from_bytes(d_bytes.as_ref()).expect("a scalar in [1, n)"));
    });
    let sk = sk.expect("set above");
    r.run(&format!("{name}: ECDH"), || {
        let z = sk.diffie_hellman(&peer).expect("a finite product");
        black_box(z.as_bytes());
    });
    if cofactor_ecdh {
        r.run(&format!("{name}: cofactor ECDH"), || {
            let z = sk.diffie_hellman_cofactor(&peer).expect("a finite product");
            black_box(z.as_bytes());
        });
    }
    let prehash = [0x5au8; 32];
    r.run(&format!("{name}: ECDSA signing (RFC 6979)"), || {
        let mut sig = sk.sign_prehash(&prehash).to_bytes();
        // The signature is public.
        public_slice(&mut sig);
        black_box(sig);
    });
    r.run(
        &format!("{name}: ECDSA hedged signing (RFC 6979 §3.6)"),
        || {
            let mut sig = sk
                .sign_message_with_rng(&mut SecretRng(7, true), b"message")
                .to_bytes();
            public_slice(&mut sig);
            black_box(sig);
        },
    );
    eprintln!("  {name}: {:.1} s", start.elapsed().as_secs_f64());
}

/// BN: G1 and G2 scalar multiplication (`mul_fr`, the crate's generic constant-time path, and
/// the GLV / GLS paths `endo::g1_mul`, `endo::g2_mul`), hashing a secret message to G1 and G2
/// (RFC 9380 with the SvdW map; cofactor clearing on G2) and the
/// pairing e(P, Q) with a secret finite G1 point P (the crate documents the pairing of finite
/// points as constant time; which inputs are the identity is public), and GT exponentiation.
pub fn check_bn<C: fieldgen_bn::BnParams>(r: &mut Report, name: &str) {
    use fieldgen_bn::{groups::mul_fr, pairing, G1Projective, G2Projective};
    let start = std::time::Instant::now();
    let mut k = scalar_from_seed::<C::Fr>(name.len() as u64 + 5);
    secret(&mut k);
    let mut g1 = G1Projective::<C>::GENERATOR.double();
    let mut g2 = G2Projective::<C>::GENERATOR.double();
    secret(&mut g1);
    secret(&mut g2);
    r.run(&format!("{name}: G1 k·P (mul_fr, secret k and P)"), || {
        black_box(mul_fr(&g1, &k));
    });
    r.run(&format!("{name}: G2 k·Q (mul_fr, secret k and Q)"), || {
        black_box(mul_fr(&g2, &k));
    });
    r.run(
        &format!("{name}: G1 k·P (GLV g1_mul, secret k and P)"),
        || {
            black_box(fieldgen_bn::endo::g1_mul(&g1, &k));
        },
    );
    r.run(
        &format!("{name}: G2 k·Q (GLS g2_mul, secret k and Q)"),
        || {
            black_box(fieldgen_bn::endo::g2_mul(&g2, &k));
        },
    );
    // Hashing a secret message (RFC 9380 §10.3: hash_to_curve must not leak its input):
    // expand_message_xmd, hash_to_field, the SvdW map (square tests, root, sign fix) and, on
    // G2, the cofactor clearing with ψ.
    let mut msg = *b"a secret message to hash onto the curve, 48 byte";
    secret(&mut msg);
    let dst = b"QUUX-V01-CS02-with-BN254G1_XMD:SHA-256_SVDW_RO_";
    r.run(&format!("{name}: hash_to_g1 (secret message)"), || {
        black_box(fieldgen_bn::hash::hash_to_g1::<C>(&msg, dst).ok());
    });
    r.run(&format!("{name}: hash_to_g2 (secret message)"), || {
        black_box(fieldgen_bn::hash::hash_to_g2::<C>(&msg, dst).ok());
    });
    r.run(&format!("{name}: clear_cofactor_g2 (secret point)"), || {
        black_box(fieldgen_bn::hash::clear_cofactor_g2::<C>(&g2));
    });
    let p = mul_fr(&G1Projective::<C>::GENERATOR, &k).to_affine();
    let q = G2Projective::<C>::GENERATOR.to_affine();
    r.run(&format!("{name}: pairing e(P, Q), P secret"), || {
        black_box(pairing::<C>(&p, &q));
    });
    // GT exponentiation (GLS split, Frobenius tables, masked reads) of a secret GT element
    // by a secret scalar.
    let mut e = pairing::<C>(&G1Projective::<C>::GENERATOR.to_affine(), &q);
    secret(&mut e);
    r.run(&format!("{name}: gt_pow e^k (secret e and k)"), || {
        black_box(fieldgen_bn::pairing::gt_pow::<C>(&e, &k));
    });
    eprintln!("  {name}: {:.1} s", start.elapsed().as_secs_f64());
}

/// RSA schemes on a 1024-bit key: the CRT components are marked secret before the key is
/// built from them, so every copy the key keeps (CRT contexts, blinding seed) is secret too.
pub fn check_rsa_schemes(r: &mut Report) {
    use fieldgen_rsa_schemes::{HashAlg, Oaep, Pkcs1v15Sign, Pss, RsaPrivateKey};
    let start = std::time::Instant::now();
    let pem = include_str!("../../curves/rsa/tests/vectors/doc_key_1024.pem");
    let loaded = RsaPrivateKey::from_pkcs8_pem(pem).expect("the committed key");
    let n = loaded.public_key().modulus().to_vec();
    let e = loaded.public_key().exponent().to_vec();
    let mut d = loaded.private_exponent().to_vec();
    let (p, q) = loaded.primes();
    let (mut p, mut q) = (p.to_vec(), q.to_vec());
    let (dp, dq, qinv) = loaded.crt_values();
    let (mut dp, mut dq, mut qinv) = (dp.to_vec(), dq.to_vec(), qinv.to_vec());
    for v in [&mut d, &mut p, &mut q, &mut dp, &mut dq, &mut qinv] {
        crate::valgrind::secret_slice(v);
    }
    let mut key = None;
    r.run("rsa-schemes: key import (from_crt_components)", || {
        key = Some(
            RsaPrivateKey::from_crt_components(&n, &e, &d, &p, &q, &dp, &dq, &qinv)
                .expect("a consistent key"),
        );
    });
    let key = key.expect("set above");
    let k = key.size();
    let mut m = vec![0x17u8; k];
    m[0] = 0;
    r.run(
        "rsa-schemes: RSASP1 (blinded CRT, derived blinding)",
        || {
            let mut s = key.rsasp1(&m).expect("m < n");
            public_slice(&mut s);
            black_box(s);
        },
    );
    r.run("rsa-schemes: PKCS#1 v1.5 signing", || {
        let mut s = Pkcs1v15Sign::new(HashAlg::Sha256)
            .sign(&key, b"message")
            .expect("a 1024-bit key");
        public_slice(&mut s);
        black_box(s);
    });
    r.run("rsa-schemes: PSS signing (public salt)", || {
        let mut s = Pss::new(HashAlg::Sha256)
            .sign(&key, &mut SecretRng(3, false), b"message")
            .expect("a 1024-bit key");
        public_slice(&mut s);
        black_box(s);
    });
    let oaep = Oaep::new(HashAlg::Sha256);
    let c = oaep
        .encrypt_with_seed(key.public_key(), &[0x33u8; 32], b"secret message")
        .expect("a short message");
    r.run("rsa-schemes: RSADP and OAEP decryption", || {
        black_box(
            oaep.decrypt(&key, &mut SecretRng(5, true), &c)
                .expect("a valid ciphertext"),
        );
    });
    eprintln!(
        "  rsa-schemes (1024-bit key): {:.1} s",
        start.elapsed().as_secs_f64()
    );
}
