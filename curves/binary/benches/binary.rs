//! Group operations, ECDH and ECDSA of the SEC 2 binary curves beside the system OpenSSL
//! (the `openssl` crate) in the same run, and the 1996 GF(2^155) exchange:
//! `cargo bench -p fieldgen-binary-curves --bench binary`. On the Koblitz curves the
//! variable-time wNAF and τNAF paths have rows of their own (`mul_vartime_*`, `double_mul_*`).
//! Rows are `<curve>/<operation>/<implementation>`; compare within a row group. OpenSSL's
//! "add" and "double" are EC_POINT_add / EC_POINT_dbl on its own (affine) representation.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use fieldgen_binary_curves::curves::*;
use fieldgen_binary_curves::ecdsa::{PublicKey, SecretKey};
use fieldgen_binary_curves::ell1996;
use fieldgen_binary_curves::tnaf;
use fieldgen_binary_curves::{PrimeGroup, SecCurve};
use fieldgen_field::{ByteArray, Field};
use fieldgen_weierstrass::protocol::hash_to_scalar;
use openssl::bn::{BigNum, BigNumContext};
use openssl::derive::Deriver;
use openssl::ec::{EcGroup, EcKey, EcPoint};
use openssl::ecdsa::EcdsaSig;
use openssl::nid::Nid;
use openssl::pkey::PKey;
use sha2::Digest;

const MSG: &[u8] = b"fieldgen binary-curve benchmark message";

/// A fixed secret below n: `len` octets, the top one small.
fn key_bytes(len: usize, tweak: u8) -> Vec<u8> {
    // Octet i is (i mod 256)·29 + tweak, odd.
    let mut v: Vec<u8> = (0..=u8::MAX)
        .cycle()
        .take(len)
        .map(|i| i.wrapping_mul(29).wrapping_add(tweak) | 1)
        .collect();
    v[0] = 0; // below n for every curve: n has a nonzero top octet
    v[1] |= 0x80;
    v
}

fn scalar_of<G: PrimeGroup>(bytes: &[u8]) -> G::Scalar {
    let mut b = <G::Scalar as Field>::Bytes::zeroed();
    b.as_mut().copy_from_slice(bytes);
    Option::from(<G::Scalar as Field>::from_be_bytes(&b)).unwrap()
}

fn bench_curve<G>(c: &mut Criterion, label: &str, nid: Nid)
where
    G: SecCurve,
{
    let len = G::Scalar::BYTES;
    let (d1, d2) = (key_bytes(len, 3), key_bytes(len, 7));
    let sk = SecretKey::<G>::from_bytes(&d1).unwrap();
    let sk2 = SecretKey::<G>::from_bytes(&d2).unwrap();
    let pk2: PublicKey<G> = *sk2.public_key();
    let p = *sk.public_key().as_point();
    let q = *pk2.as_point();
    let k = scalar_of::<G>(&d2);
    let h = <G::Digest as Digest>::digest(MSG);
    let sig = sk.sign_prehash(&h);
    let pk = *sk.public_key();
    c.bench_function(&format!("{label}/add/fieldgen"), |b| {
        b.iter(|| black_box(p) + black_box(q))
    });
    c.bench_function(&format!("{label}/double/fieldgen"), |b| {
        b.iter(|| black_box(p).double())
    });
    c.bench_function(&format!("{label}/mul_var_base/fieldgen"), |b| {
        b.iter(|| G::mul(&black_box(p), &black_box(k)))
    });
    c.bench_function(&format!("{label}/mul_fixed_base/fieldgen"), |b| {
        b.iter(|| G::mul_base(&black_box(k)))
    });
    c.bench_function(&format!("{label}/ecdh/fieldgen"), |b| {
        b.iter(|| sk.diffie_hellman(black_box(&pk2)).unwrap())
    });
    c.bench_function(&format!("{label}/sign/fieldgen"), |b| {
        b.iter(|| sk.sign_prehash(black_box(&h)))
    });
    c.bench_function(&format!("{label}/verify/fieldgen"), |b| {
        b.iter(|| pk.verify_prehash(black_box(&h), black_box(&sig)).unwrap())
    });
    // The variable-time paths of the Koblitz curves: width-5 NAF against width-5 τNAF for
    // k·P, and the interleaved u1·G + u2·Q of verification both ways.
    if let Some(t) = G::koblitz() {
        let kb = k.to_le_bytes();
        c.bench_function(&format!("{label}/mul_vartime_wnaf/fieldgen"), |b| {
            b.iter(|| black_box(p).mul_le_bytes_vartime(black_box(kb.as_ref())))
        });
        c.bench_function(&format!("{label}/mul_vartime_tnaf/fieldgen"), |b| {
            b.iter(|| {
                tnaf::mul_vartime(&t.params, &black_box(p), black_box(kb.as_ref()), 5).unwrap()
            })
        });
        c.bench_function(&format!("{label}/tnaf_recode/fieldgen"), |b| {
            b.iter(|| {
                let rho = t.params.partmod_delta_vartime(black_box(kb.as_ref()));
                t.params.tnaf_vartime(&rho, 5).unwrap()
            })
        });
        let u1 = scalar_of::<G>(&d1);
        c.bench_function(&format!("{label}/double_mul_wnaf/fieldgen"), |b| {
            b.iter(|| mul_base_add_wnaf_vartime::<G>(&black_box(u1), &black_box(q), &black_box(k)))
        });
        // ECDSA verification as `verify_prehash` does it, with the wNAF kernel in place of the
        // curve's: the "before" of the verify row in the same run.
        c.bench_function(&format!("{label}/verify_wnaf/fieldgen"), |b| {
            b.iter(|| {
                let e = hash_to_scalar::<G::Scalar>(black_box(&h));
                let w = sig.s().invert_vartime().unwrap();
                let rp = mul_base_add_wnaf_vartime::<G>(&(e * w), pk.as_point(), &(*sig.r() * w));
                assert!(G::x_mod_n_eq_vartime(&rp, sig.r()));
            })
        });
        let (u1b, kb) = (u1.to_le_bytes(), k.to_le_bytes());
        c.bench_function(&format!("{label}/double_mul_tnaf/fieldgen"), |b| {
            b.iter(|| {
                t.mul_base_add_vartime(
                    black_box(u1b.as_ref()),
                    &black_box(q),
                    black_box(kb.as_ref()),
                )
                .unwrap()
            })
        });
    }

    // OpenSSL on the same keys.
    let group = EcGroup::from_curve_name(nid).unwrap();
    let mut ctx = BigNumContext::new().unwrap();
    let key_of = |d: &[u8], ctx: &mut BigNumContext| {
        let bn = BigNum::from_slice(d).unwrap();
        let mut pt = EcPoint::new(&group).unwrap();
        pt.mul_generator2(&group, &bn, ctx).unwrap();
        EcKey::from_private_components(&group, &bn, &pt).unwrap()
    };
    let ok1 = key_of(&d1, &mut ctx);
    let ok2 = key_of(&d2, &mut ctx);
    let kbn = BigNum::from_slice(&d2).unwrap();
    let op = ok1.public_key().to_owned(&group).unwrap();
    let oq = ok2.public_key().to_owned(&group).unwrap();
    c.bench_function(&format!("{label}/add/openssl"), |b| {
        let mut r = EcPoint::new(&group).unwrap();
        b.iter(|| {
            r.add(&group, black_box(&op), black_box(&oq), &mut ctx)
                .unwrap()
        })
    });
    c.bench_function(&format!("{label}/double/openssl"), |b| {
        let mut r = EcPoint::new(&group).unwrap();
        b.iter(|| {
            r.add(&group, black_box(&op), black_box(&op), &mut ctx)
                .unwrap()
        })
    });
    c.bench_function(&format!("{label}/mul_var_base/openssl"), |b| {
        let mut r = EcPoint::new(&group).unwrap();
        b.iter(|| {
            r.mul2(&group, black_box(&op), black_box(&kbn), &mut ctx)
                .unwrap()
        })
    });
    c.bench_function(&format!("{label}/mul_fixed_base/openssl"), |b| {
        let mut r = EcPoint::new(&group).unwrap();
        b.iter(|| r.mul_generator2(&group, black_box(&kbn), &mut ctx).unwrap())
    });
    let pkey1 = PKey::from_ec_key(ok1.clone()).unwrap();
    let peer =
        PKey::from_ec_key(EcKey::from_public_key(&group, ok2.public_key()).unwrap()).unwrap();
    c.bench_function(&format!("{label}/ecdh/openssl"), |b| {
        b.iter(|| {
            let mut d = Deriver::new(&pkey1).unwrap();
            d.set_peer(black_box(&peer)).unwrap();
            d.derive_to_vec().unwrap()
        })
    });
    c.bench_function(&format!("{label}/sign/openssl"), |b| {
        b.iter(|| EcdsaSig::sign(black_box(&h), &ok1).unwrap())
    });
    let osig = EcdsaSig::sign(&h, &ok1).unwrap();
    let opub = EcKey::from_public_key(&group, ok1.public_key()).unwrap();
    c.bench_function(&format!("{label}/verify/openssl"), |b| {
        b.iter(|| assert!(osig.verify(black_box(&h), &opub).unwrap()))
    });
}

fn curves(c: &mut Criterion) {
    bench_curve::<Sect163k1>(c, "sect163k1", Nid::SECT163K1);
    bench_curve::<Sect163r2>(c, "sect163r2", Nid::SECT163R2);
    bench_curve::<Sect233k1>(c, "sect233k1", Nid::SECT233K1);
    bench_curve::<Sect233r1>(c, "sect233r1", Nid::SECT233R1);
    bench_curve::<Sect283k1>(c, "sect283k1", Nid::SECT283K1);
    bench_curve::<Sect283r1>(c, "sect283r1", Nid::SECT283R1);
    bench_curve::<Sect409k1>(c, "sect409k1", Nid::SECT409K1);
    bench_curve::<Sect409r1>(c, "sect409r1", Nid::SECT409R1);
    bench_curve::<Sect571k1>(c, "sect571k1", Nid::SECT571K1);
    bench_curve::<Sect571r1>(c, "sect571r1", Nid::SECT571R1);
}

fn ell(c: &mut Criterion) {
    let a: Vec<u8> = (0..=u8::MAX)
        .take(ell1996::SCALAR_BYTES)
        .map(|i| i.wrapping_mul(37) ^ 0x5a)
        .collect();
    let b: Vec<u8> = (0..=u8::MAX)
        .take(ell1996::SCALAR_BYTES)
        .map(|i| i.wrapping_mul(101) ^ 0xc3)
        .collect();
    c.bench_function("ell1996/exchange_plain/fieldgen", |bn| {
        bn.iter(|| ell1996::exchange_plain(black_box(&a), black_box(&b)))
    });
    let table = ell1996::base_table();
    c.bench_function("ell1996/exchange_table/fieldgen", |bn| {
        bn.iter(|| ell1996::exchange_with_table(&table, black_box(&a), black_box(&b)))
    });
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1))
        .sample_size(20)
}

criterion_group! {
    name = benches;
    config = config();
    targets = curves, ell
}
criterion_main!(benches);
