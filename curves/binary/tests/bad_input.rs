//! Bad input is an error value, never a panic: points off the curve, x = 0 (the point of
//! order 2), points of small order and points outside the subgroup of order n (checked to
//! be so by the GF(2)[x] reference of `common`), the identity, wrong lengths and tags,
//! out-of-range coordinates, x with no y, bad secret keys, malformed DER signatures and
//! SPKI for another curve.

mod common;

use common::{to_big, to_ref, Reference, F163, F233, F239, F283, F409, F571};
use fieldgen_binary_curves::curves::*;
use fieldgen_binary_curves::ecdh::diffie_hellman_bytes;
use fieldgen_binary_curves::ecdsa::{PublicKey, SecretKey, Signature};
use fieldgen_binary_curves::{sec1, AffinePoint, BinaryCurve, Error, PrimeGroup, ProjectivePoint};
use fieldgen_field::{Field, PrimeField};
use num_bigint::BigUint;
use num_traits::Zero;

fn reference_of<C: BinaryCurve>(exps: &[u64]) -> Reference {
    let a = if C::A_IS_ONE { "1" } else { "0" };
    Reference::new(exps, a, &to_big(&C::B).to_str_radix(16))
}

/// Tr(β) over GF(2^m) in the reference: Σ β^(2^i), i < m.
fn ref_trace(r: &Reference, beta: &BigUint) -> BigUint {
    let mut t = BigUint::zero();
    let mut p = beta.clone();
    for _ in 0..r.m {
        t ^= &p;
        p = r.mul(&p, &p);
    }
    t
}

fn unc<C: BinaryCurve>(x: &C::Base, y: &C::Base) -> Vec<u8> {
    [
        &[4u8][..],
        x.to_be_bytes().as_ref(),
        y.to_be_bytes().as_ref(),
    ]
    .concat()
}

fn points<C: PrimeGroup + BinaryCurve>(exps: &[u64]) {
    let r = reference_of::<C>(exps);
    let n = C::Base::BYTES;
    let (gx, gy) = (C::GENERATOR_X, C::GENERATOR_Y);
    let dec = PublicKey::<C>::from_sec1_bytes;
    assert!(dec(&unc::<C>(&gx, &gy)).is_ok());
    // Off the curve.
    let bad_y = gy + C::Base::ONE;
    assert!(!r.on_curve(&Some((to_big(&gx), to_big(&bad_y)))));
    assert_eq!(dec(&unc::<C>(&gx, &bad_y)).unwrap_err(), Error::NotOnCurve);
    // x = 0: (0, √b) has order 2.
    let t2y: C::Base = Option::from(C::B.sqrt()).unwrap();
    let t2 = Some((BigUint::zero(), to_big(&t2y)));
    assert!(r.on_curve(&t2) && r.double(&t2).is_none());
    assert_eq!(
        dec(&unc::<C>(&C::Base::ZERO, &t2y)).unwrap_err(),
        Error::NotInSubgroup
    );
    let zero_x = [&[2u8][..], &vec![0u8; n]].concat();
    assert_eq!(dec(&zero_x).unwrap_err(), Error::NotInSubgroup);
    let zero_x3 = [&[3u8][..], &vec![0u8; n]].concat();
    assert_eq!(dec(&zero_x3).unwrap_err(), Error::NotOnCurve);
    // Points outside the subgroup and of small order (h·T = O, T ≠ O, by the reference).
    let nn = <C::Scalar as PrimeField>::modulus_le_bytes();
    let n_be: Vec<u8> = nn.as_ref().iter().rev().copied().collect();
    let (mut outside, mut small, mut no_y) = (0, 0, 0);
    for i in 1u32..40 {
        if outside > 0 && small > 0 && no_y > 0 {
            break;
        }
        let x = C::Base::from_be_bytes(&{
            let mut b = <C::Base as Field>::Bytes::default_bytes();
            b.as_mut()[n - 4..].copy_from_slice(&(i * 0x01000193).to_be_bytes());
            b
        });
        let x: C::Base = Option::from(x).unwrap();
        let enc = [&[2u8][..], x.to_be_bytes().as_ref()].concat();
        match sec1::decode::<C>(&enc) {
            Err(e) => {
                // No y: Tr(x + a + b/x²) = 1 in the reference.
                assert_eq!(e, Error::NotOnCurve);
                let xb = to_big(&x);
                let beta = &xb ^ &r.a ^ r.mul(&r.b, &r.inv(&r.mul(&xb, &xb)));
                assert!(num_traits::One::is_one(&ref_trace(&r, &beta)));
                assert_eq!(dec(&enc).unwrap_err(), Error::NotOnCurve);
                no_y += 1;
            }
            Ok(p) => {
                let pr = to_ref(&p);
                assert!(r.on_curve(&pr));
                let in_sub = r.mul_scalar(&pr, &n_be).is_none();
                assert_eq!(dec(&enc).is_ok(), in_sub, "{}", C::NAME);
                if !in_sub {
                    assert_eq!(dec(&enc).unwrap_err(), Error::NotInSubgroup);
                    outside += 1;
                    // n·P has order dividing h: a small-order point, rejected too.
                    let t = p
                        .to_projective()
                        .mul_le_bytes_vartime(nn.as_ref())
                        .to_affine();
                    let tr = to_ref(&t);
                    assert!(tr.is_some());
                    assert!(r
                        .mul_scalar(&tr, &[u8::try_from(<C as BinaryCurve>::COFACTOR).unwrap()])
                        .is_none());
                    for c in [false, true] {
                        let e = sec1::encode(&t, c);
                        assert_eq!(dec(&e).unwrap_err(), Error::NotInSubgroup);
                    }
                    small += 1;
                }
            }
        }
    }
    assert!(
        outside > 0 && small > 0 && no_y > 0,
        "{}: {outside} {small} {no_y}",
        C::NAME
    );
    // The identity.
    assert_eq!(dec(&[0]).unwrap_err(), Error::Identity);
    assert_eq!(sec1::encode(&AffinePoint::<C>::identity(), true), vec![0u8]);
    assert_eq!(dec(&[0, 0]).unwrap_err(), Error::InvalidLength);
    // Lengths and tags.
    let good = unc::<C>(&gx, &gy);
    assert_eq!(dec(&[]).unwrap_err(), Error::InvalidLength);
    assert_eq!(
        dec(&good[..good.len() - 1]).unwrap_err(),
        Error::InvalidLength
    );
    assert_eq!(
        dec(&[&good[..], &[0]].concat()).unwrap_err(),
        Error::InvalidLength
    );
    assert_eq!(
        dec(&[&[2u8][..], &good[1..]].concat()).unwrap_err(),
        Error::InvalidLength
    );
    let mut hybrid = good.clone();
    hybrid[0] = 6;
    assert_eq!(dec(&hybrid).unwrap_err(), Error::InvalidTag);
    hybrid[0] = 5;
    assert_eq!(dec(&hybrid).unwrap_err(), Error::InvalidTag);
    // Coordinates with a bit at or above x^m.
    let mut high = good.clone();
    high[1] |= 0x80;
    assert_eq!(dec(&high).unwrap_err(), Error::CoordinateOutOfRange);
    let mut high = good.clone();
    high[1 + n] |= 0x80;
    assert_eq!(dec(&high).unwrap_err(), Error::CoordinateOutOfRange);
    let mut highc = good[..1 + n].to_vec();
    highc[0] = 2;
    highc[1] |= 0x80;
    assert_eq!(dec(&highc).unwrap_err(), Error::CoordinateOutOfRange);
    // The projective identity and x_be_bytes.
    assert!(bool::from(
        C::x_be_bytes(&C::mul(&C::generator(), &C::Scalar::ZERO)).is_none()
    ));
    let _ = ProjectivePoint::<C>::IDENTITY;
}

trait DefaultBytes {
    fn default_bytes() -> Self;
}
impl<B: fieldgen_field::ByteArray> DefaultBytes for B {
    fn default_bytes() -> Self {
        B::zeroed()
    }
}

fn protocol<C: PrimeGroup + BinaryCurve>() {
    let nb = C::Scalar::BYTES;
    let n = <C::Scalar as PrimeField>::modulus_le_bytes();
    let n_be: Vec<u8> = n.as_ref().iter().rev().copied().collect();
    // Secret keys: 0, n, all ones, wrong lengths.
    assert_eq!(
        SecretKey::<C>::from_bytes(&vec![0; nb]).unwrap_err(),
        Error::InvalidScalar
    );
    assert_eq!(
        SecretKey::<C>::from_bytes(&n_be).unwrap_err(),
        Error::InvalidScalar
    );
    assert_eq!(
        SecretKey::<C>::from_bytes(&vec![0xff; nb]).unwrap_err(),
        Error::InvalidScalar
    );
    assert_eq!(
        SecretKey::<C>::from_bytes(&vec![1; nb - 1]).unwrap_err(),
        Error::InvalidLength
    );
    assert_eq!(
        SecretKey::<C>::from_bytes(&vec![1; nb + 1]).unwrap_err(),
        Error::InvalidLength
    );
    let mut one = vec![0u8; nb];
    one[nb - 1] = 1;
    let sk = SecretKey::<C>::from_bytes(&one).unwrap();
    let g = sk.public_key().to_sec1_bytes(false);
    assert!(diffie_hellman_bytes::<C>(&one, &g).is_ok());
    assert!(diffie_hellman_bytes::<C>(&vec![0; nb], &g).is_err());
    assert!(diffie_hellman_bytes::<C>(&one, &g[..g.len() - 1]).is_err());
    assert_eq!(
        diffie_hellman_bytes::<C>(&one, &[0]).err(),
        Some(Error::Identity)
    );
    // Signatures.
    let sig = sk.sign_message(b"message");
    assert!(sk.public_key().verify_message(b"message", &sig).is_ok());
    assert_eq!(
        sk.public_key()
            .verify_message(b"messagf", &sig)
            .unwrap_err(),
        Error::InvalidSignature
    );
    let der = sig.to_der();
    assert_eq!(
        Signature::<C>::from_der(&[]).unwrap_err(),
        Error::MalformedDer
    );
    assert_eq!(
        Signature::<C>::from_der(&der[..der.len() - 1]).unwrap_err(),
        Error::MalformedDer
    );
    assert_eq!(
        Signature::<C>::from_der(&[&der[..], &[0]].concat()).unwrap_err(),
        Error::MalformedDer
    );
    let mut long_form = der.clone();
    long_form.splice(1..2, [0x81, der[1]]);
    assert_eq!(
        Signature::<C>::from_der(&long_form).unwrap_err(),
        Error::MalformedDer
    );
    let zero_r = [0x30, 0x06, 0x02, 0x01, 0x00, 0x02, 0x01, 0x01];
    assert_eq!(
        Signature::<C>::from_der(&zero_r).unwrap_err(),
        Error::InvalidScalar
    );
    // r = n as a minimal DER INTEGER (a sign octet only when the top bit is set).
    let r_int: Vec<u8> = if n_be[0] & 0x80 != 0 {
        [&[0u8][..], &n_be].concat()
    } else {
        n_be.clone()
    };
    let r_len = u8::try_from(r_int.len()).unwrap();
    let mut r_is_n = vec![0x30, r_len + 2 + 3, 0x02, r_len];
    r_is_n.extend_from_slice(&r_int);
    r_is_n.extend_from_slice(&[0x02, 0x01, 0x01]);
    if r_is_n.len() < 128 {
        assert_eq!(
            Signature::<C>::from_der(&r_is_n).unwrap_err(),
            Error::InvalidScalar
        );
    }
    assert_eq!(
        Signature::<C>::from_slice(&vec![1; 2 * nb - 1]).unwrap_err(),
        Error::InvalidLength
    );
    assert_eq!(
        Signature::<C>::from_slice(&vec![0; 2 * nb]).unwrap_err(),
        Error::InvalidScalar
    );
    // SPKI: garbage and truncated DER.
    assert_eq!(
        PublicKey::<C>::from_spki_der(&[0x30, 0x00]).unwrap_err(),
        Error::InvalidSpki
    );
    assert_eq!(
        PublicKey::<C>::from_spki_der(&[]).unwrap_err(),
        Error::InvalidSpki
    );
}

/// An SPKI for sect283k1 given to sect283r1 (same field, other OID) is refused.
#[test]
fn spki_other_curve() {
    let sk = SecretKey::<Sect283k1>::from_bytes(&[1u8; 36]).unwrap();
    let point = sk.public_key().to_sec1_bytes(false);
    let spki = spki::SubjectPublicKeyInfoOwned {
        algorithm: spki::AlgorithmIdentifierOwned {
            oid: spki::ObjectIdentifier::new_unwrap("1.2.840.10045.2.1"),
            parameters: Some(spki::ObjectIdentifier::new_unwrap("1.3.132.0.16").into()),
        },
        subject_public_key: spki::der::asn1::BitString::from_bytes(&point).unwrap(),
    };
    let der = spki::der::Encode::to_der(&spki).unwrap();
    assert!(PublicKey::<Sect283k1>::from_spki_der(&der).is_ok());
    assert_eq!(
        PublicKey::<Sect283r1>::from_spki_der(&der).unwrap_err(),
        Error::InvalidSpki
    );
}

macro_rules! bad {
    ($($test:ident: $curve:ty, $f:expr;)*) => {$(
        #[test]
        fn $test() {
            points::<$curve>($f);
            protocol::<$curve>();
        }
    )*};
}

bad! {
    sect163k1: Sect163k1, F163;
    sect163r2: Sect163r2, F163;
    sect233k1: Sect233k1, F233;
    sect233r1: Sect233r1, F233;
    sect239k1: Sect239k1, F239;
    sect283k1: Sect283k1, F283;
    sect283r1: Sect283r1, F283;
    sect409k1: Sect409k1, F409;
    sect409r1: Sect409r1, F409;
    sect571k1: Sect571k1, F571;
    sect571r1: Sect571r1, F571;
}
