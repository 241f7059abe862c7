//! Differential tests against the system OpenSSL (the `openssl` crate; OpenSSL 3 keeps the
//! SEC 2 binary curves): fresh keys both ways (OpenSSL's d gives OpenSSL's Q with us, and
//! our d gives our Q in OpenSSL), compressed and uncompressed encodings decoded both ways,
//! ECDH shared secrets equal both ways, cofactor ECDH equal to OpenSSL's plain ECDH with the
//! secret h·d mod n (computed by OpenSSL's BIGNUM), ECDSA signatures verified both ways.
//! Two rounds per curve; FIELDGEN_BINARY_FULL=1 runs twenty.

// The system OpenSSL is a dev-dependency on 64-bit hosts only (see Cargo.toml).
#![cfg(target_pointer_width = "64")]

mod common;

use fieldgen_binary_curves::curves::*;
use fieldgen_binary_curves::ecdsa::{PublicKey, SecretKey, Signature};
use fieldgen_binary_curves::{BinaryCurve, PrimeGroup};
use fieldgen_field::{Field, PrimeField};
use openssl::bn::{BigNum, BigNumContext};
use openssl::derive::Deriver;
use openssl::ec::{EcGroup, EcKey, EcPoint, PointConversionForm};
use openssl::ecdsa::EcdsaSig;
use openssl::nid::Nid;
use openssl::pkey::{PKey, Private};
use sha2::Digest;

fn ossl_shared(ours: &EcKey<Private>, peer: &EcKey<Private>) -> Vec<u8> {
    let a = PKey::from_ec_key(ours.clone()).unwrap();
    let peer_pub = EcKey::from_public_key(peer.group(), peer.public_key()).unwrap();
    let b = PKey::from_ec_key(peer_pub).unwrap();
    let mut d = Deriver::new(&a).unwrap();
    d.set_peer(&b).unwrap();
    d.derive_to_vec().unwrap()
}

fn encode(group: &EcGroup, p: &openssl::ec::EcPointRef, form: PointConversionForm) -> Vec<u8> {
    let mut ctx = BigNumContext::new().unwrap();
    p.to_bytes(group, form, &mut ctx).unwrap()
}

fn run<C: PrimeGroup + BinaryCurve>(nid: Nid) {
    let group = EcGroup::from_curve_name(nid).unwrap();
    let mut ctx = BigNumContext::new().unwrap();
    let mut order = BigNum::new().unwrap();
    group.order(&mut order, &mut ctx).unwrap();
    let nbytes = i32::try_from(C::Scalar::BYTES).unwrap();
    for round in 0..common::rounds(2, 20) {
        // OpenSSL's key in our code.
        let ok = EcKey::generate(&group).unwrap();
        let d_bytes = ok.private_key().to_vec_padded(nbytes).unwrap();
        let ours_from_ossl = SecretKey::<C>::from_bytes(&d_bytes).unwrap();
        let unc = encode(&group, ok.public_key(), PointConversionForm::UNCOMPRESSED);
        let cmp = encode(&group, ok.public_key(), PointConversionForm::COMPRESSED);
        assert_eq!(
            ours_from_ossl.public_key().to_sec1_bytes(false),
            unc,
            "{} d→Q",
            C::NAME
        );
        assert_eq!(
            ours_from_ossl.public_key().to_sec1_bytes(true),
            cmp,
            "{} compressed",
            C::NAME
        );
        let q1 = PublicKey::<C>::from_sec1_bytes(&cmp).unwrap();
        assert_eq!(q1.to_sec1_bytes(false), unc, "{} decompression", C::NAME);

        // Our key in OpenSSL.
        let excess = 8 * nbytes as u32 - <C::Scalar as PrimeField>::NUM_BITS;
        let ours = loop {
            let mut seed = vec![0u8; nbytes as usize];
            openssl::rand::rand_bytes(&mut seed).unwrap();
            seed[0] &= 0xff >> excess;
            if let Ok(k) = SecretKey::<C>::from_bytes(&seed) {
                break k;
            }
        };
        let d2 = BigNum::from_slice(&ours.to_bytes()).unwrap();
        let our_pub = ours.public_key().to_sec1_bytes(round % 2 == 0);
        let p2 = EcPoint::from_bytes(&group, &our_pub, &mut ctx).unwrap();
        let ok2 = EcKey::from_private_components(&group, &d2, &p2).unwrap();
        ok2.check_key().unwrap();
        let mut want = EcPoint::new(&group).unwrap();
        want.mul_generator2(&group, &d2, &mut ctx).unwrap();
        assert!(want.eq(&group, &p2, &mut ctx).unwrap(), "{} our Q", C::NAME);

        // ECDH both ways.
        let z_ossl = ossl_shared(&ok, &ok2);
        let z_ours = ours.diffie_hellman(ours_from_ossl.public_key()).unwrap();
        assert_eq!(z_ours.as_bytes(), &z_ossl[..], "{} ECDH", C::NAME);
        let z_ours2 = ours_from_ossl
            .diffie_hellman(&PublicKey::<C>::from_sec1_bytes(&our_pub).unwrap())
            .unwrap();
        assert_eq!(z_ours2.as_bytes(), &z_ossl[..]);

        // Cofactor ECDH = plain ECDH with h·d mod n.
        let mut hd = BigNum::new().unwrap();
        let h = BigNum::from_u32(u32::try_from(<C as PrimeGroup>::COFACTOR).unwrap()).unwrap();
        hd.mod_mul(&h, &d2, &order, &mut ctx).unwrap();
        let mut hq = EcPoint::new(&group).unwrap();
        hq.mul_generator2(&group, &hd, &mut ctx).unwrap();
        let okh = EcKey::from_private_components(&group, &hd, &hq).unwrap();
        let z_cof = ossl_shared(&okh, &ok);
        let z_ours_cof = ours
            .diffie_hellman_cofactor(ours_from_ossl.public_key())
            .unwrap();
        assert_eq!(
            z_ours_cof.as_bytes(),
            &z_cof[..],
            "{} cofactor ECDH",
            C::NAME
        );

        // ECDSA both ways on the curve's hash.
        let msg = format!("round {round} on {}", C::NAME);
        let h = <C::Digest as Digest>::digest(msg.as_bytes());
        let sig = ours.sign_message(msg.as_bytes());
        let r = BigNum::from_slice(sig.r().to_be_bytes().as_ref()).unwrap();
        let s = BigNum::from_slice(sig.s().to_be_bytes().as_ref()).unwrap();
        let osig = EcdsaSig::from_private_components(r, s).unwrap();
        assert!(
            osig.verify(&h, &ok2).unwrap(),
            "{} our signature in OpenSSL",
            C::NAME
        );
        let osig2 = EcdsaSig::sign(&h, &ok).unwrap();
        let der = osig2.to_der().unwrap();
        let sig2 = Signature::<C>::from_der(&der).unwrap();
        ours_from_ossl
            .public_key()
            .verify_prehash(&h, &sig2)
            .unwrap_or_else(|e| panic!("{} OpenSSL signature: {e}", C::NAME));
        let mut h_bad = h.to_vec();
        h_bad[0] ^= 0x80; // a bit that bits2int keeps for every curve and hash
        assert!(ours_from_ossl
            .public_key()
            .verify_prehash(&h_bad, &sig2)
            .is_err());
        assert_eq!(sig2.to_der(), der);
    }
}

macro_rules! differential {
    ($($test:ident: $curve:ty, $nid:expr;)*) => {$(
        #[test]
        fn $test() {
            run::<$curve>($nid);
        }
    )*};
}

differential! {
    sect163k1: Sect163k1, Nid::SECT163K1;
    sect163r2: Sect163r2, Nid::SECT163R2;
    sect233k1: Sect233k1, Nid::SECT233K1;
    sect233r1: Sect233r1, Nid::SECT233R1;
    sect239k1: Sect239k1, Nid::SECT239K1;
    sect283k1: Sect283k1, Nid::SECT283K1;
    sect283r1: Sect283r1, Nid::SECT283R1;
    sect409k1: Sect409k1, Nid::SECT409K1;
    sect409r1: Sect409r1, Nid::SECT409R1;
    sect571k1: Sect571k1, Nid::SECT571K1;
    sect571r1: Sect571r1, Nid::SECT571R1;
}
