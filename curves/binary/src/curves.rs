//! The curves: SEC 2 v2 §3 binary curves as parameter types over the generated GF(2^m)
//! fields (64-bit words on 64-bit targets, 32-bit words elsewhere), their scalar fields GF(n)
//! generated in this crate by `fieldgen_macros::prime_field!` (the same generator as the
//! committed fields), and the 1996 GF(2^155) curve.
//!
//! Parameters a, b, G = (Gx, Gy), n, h are SEC 2 v2 (2010) §3.2.1–§3.7.2, equal to
//! FIPS 186-4 D.1.3 for K-163 … B-571 (sect163r2 = B-163, sect233r1 = B-233, sect283r1 = B-283,
//! sect409r1 = B-409, sect571r1 = B-571 and the k1 curves = K-m). OIDs are SEC 2 §A.2
//! (certicom-arc 1.3.132.0.x). ECDSA's default hash: SHA-256 up to 283 bits, SHA-384 at 409,
//! SHA-512 at 571 (SP 800-57 strength matching).

use alloc::vec::Vec;

use fieldgen_field::{Field, PrimeField};
use fieldgen_weierstrass::PrimeGroup;
use subtle::{Choice, CtOption};
use zeroize::Zeroize;

#[cfg(not(target_pointer_width = "64"))]
use fieldgen_generated::{
    gf2_155_32 as gf2_155, sect163_32 as sect163, sect233_32 as sect233, sect239_32 as sect239,
    sect283_32 as sect283, sect409_32 as sect409, sect571_32 as sect571,
};
#[cfg(target_pointer_width = "64")]
use fieldgen_generated::{
    gf2_155_64 as gf2_155, sect163_64 as sect163, sect233_64 as sect233, sect239_64 as sect239,
    sect283_64 as sect283, sect409_64 as sect409, sect571_64 as sect571,
};

use crate::group::{AffinePoint, BinaryCurve, FixedBaseTable, ProjectivePoint};
use crate::scalars::*;
use crate::tnaf::KoblitzTables;
use crate::{sec1, Error};

/// GF(2^163), f = x^163 + x^7 + x^6 + x^3 + 1.
pub type F163 = sect163::F163;
/// GF(2^233), f = x^233 + x^74 + 1.
pub type F233 = sect233::F233;
/// GF(2^239), f = x^239 + x^158 + 1.
pub type F239 = sect239::F239;
/// GF(2^283), f = x^283 + x^12 + x^7 + x^5 + 1.
pub type F283 = sect283::F283;
/// GF(2^409), f = x^409 + x^87 + 1.
pub type F409 = sect409::F409;
/// GF(2^571), f = x^571 + x^10 + x^5 + x^2 + 1.
pub type F571 = sect571::F571;
/// GF(2^155), f = x^155 + x^62 + 1.
pub type F155 = gf2_155::F155;

/// The extra operations a SEC 2 curve offers beyond [`PrimeGroup`]: its order as bytes, the
/// subgroup check, and its shared tables.
pub trait SecCurve: BinaryCurve + PrimeGroup<Point = ProjectivePoint<Self>> {
    /// The shared fixed-base table of G (with `std`; none otherwise).
    fn generator_table() -> Option<&'static FixedBaseTable<Self>>;
    /// The odd multiples G, 3G, …, 63G (width-7 NAF) for verification (with `std`).
    fn generator_odd_multiples() -> Option<&'static [AffinePoint<Self>]>;
    /// The τ-adic constants and the generator's α_u table of a Koblitz curve (b = 1), with
    /// `std`; none for the other curves and without `std`.
    fn koblitz() -> Option<&'static KoblitzTables<Self>>;
}

/// Width of the NAF of the generator's scalar in verification.
pub const GENERATOR_NAF_WIDTH: u32 = 7;

/// Whether n·P = O for the group order n (SEC 1 §3.2.2.1 step 4). Variable time (public P).
pub fn in_subgroup_vartime<C: SecCurve>(p: &ProjectivePoint<C>) -> bool {
    let n = <C::Scalar as PrimeField>::modulus_le_bytes();
    bool::from(p.mul_le_bytes_vartime(n.as_ref()).is_identity())
}

/// Decodes a public key: a SEC 1 point on the curve, not the identity, of order n
/// ([`Error::NotInSubgroup`] otherwise; needed since h > 1).
pub fn decode_public<C: SecCurve>(bytes: &[u8]) -> Result<ProjectivePoint<C>, Error> {
    let p = sec1::decode::<C>(bytes)?;
    if bool::from(p.infinity) {
        return Err(Error::Identity);
    }
    let q = p.to_projective();
    if !in_subgroup_vartime(&q) {
        return Err(Error::NotInSubgroup);
    }
    Ok(q)
}

fn scalar_bits<C: SecCurve>() -> usize {
    <C::Scalar as PrimeField>::NUM_BITS as usize
}

/// k·P by the ladder over ⌈log2 n⌉ bits.
pub fn mul_scalar<C: SecCurve>(p: &ProjectivePoint<C>, k: &C::Scalar) -> ProjectivePoint<C> {
    let mut bytes = k.to_le_bytes();
    let r = crate::group::ladder(&p.to_affine(), bytes.as_ref(), scalar_bits::<C>());
    bytes.as_mut().zeroize();
    r
}

/// k·G: the shared table when there is one, else the ladder.
pub fn mul_base_scalar<C: SecCurve>(k: &C::Scalar) -> ProjectivePoint<C> {
    let mut bytes = k.to_le_bytes();
    let r = match C::generator_table() {
        // k < n = ord(G).
        Some(t) => t.mul_le_bytes_below_order(bytes.as_ref()),
        None => crate::group::ladder(
            &AffinePoint::generator(),
            bytes.as_ref(),
            scalar_bits::<C>(),
        ),
    };
    bytes.as_mut().zeroize();
    r
}

/// a·G + b·P for public values (ECDSA verification): interleaved width-6/width-5 τNAF on the
/// Koblitz curves when the curve keeps its [`KoblitzTables`] ([`crate::tnaf`]), else
/// interleaved wNAF with G's width-7 table.
pub fn mul_base_add_vartime<C: SecCurve>(
    a: &C::Scalar,
    p: &ProjectivePoint<C>,
    b: &C::Scalar,
) -> ProjectivePoint<C> {
    let (ab, bb) = (a.to_le_bytes(), b.to_le_bytes());
    if let Some(k) = C::koblitz() {
        if let Ok(r) = k.mul_base_add_vartime(ab.as_ref(), p, bb.as_ref()) {
            return r;
        }
    }
    mul_base_add_wnaf_vartime::<C>(a, p, b)
}

/// a·G + b·P for public values by interleaved wNAF (Guide Algorithm 3.51), G's odd multiples
/// at width 7 when the curve keeps them: the verification path of the curves without τ.
pub fn mul_base_add_wnaf_vartime<C: SecCurve>(
    a: &C::Scalar,
    p: &ProjectivePoint<C>,
    b: &C::Scalar,
) -> ProjectivePoint<C> {
    let (ab, bb) = (a.to_le_bytes(), b.to_le_bytes());
    match C::generator_odd_multiples() {
        Some(t) => crate::group::double_mul_with_table_vartime(
            t,
            GENERATOR_NAF_WIDTH,
            ab.as_ref(),
            p,
            bb.as_ref(),
        ),
        None => ProjectivePoint::GENERATOR.double_mul_vartime(ab.as_ref(), p, bb.as_ref()),
    }
}

/// k·P for a public scalar and a public point P of the subgroup of order n: width-5 τNAF
/// ([`crate::tnaf::mul_vartime`]) on the Koblitz curves when the curve keeps its
/// [`KoblitzTables`], else width-5 NAF.
pub fn mul_vartime<C: SecCurve>(p: &ProjectivePoint<C>, k: &C::Scalar) -> ProjectivePoint<C> {
    let kb = k.to_le_bytes();
    if let Some(t) = C::koblitz() {
        if let Ok(r) = crate::tnaf::mul_vartime(&t.params, p, kb.as_ref(), crate::tnaf::POINT_WIDTH)
        {
            return r;
        }
    }
    p.mul_le_bytes_vartime(kb.as_ref())
}

/// The affine x as BYTES big-endian octets; none for the identity. Constant time in the
/// coordinates; whether p is the identity is public and declassified, as in
/// [`PrimeGroup::x_be_bytes`].
pub fn x_be_bytes<C: BinaryCurve>(p: &ProjectivePoint<C>) -> CtOption<Vec<u8>> {
    let a = p.to_affine();
    CtOption::new(
        a.x.to_be_bytes().as_ref().to_vec(),
        !fieldgen_field::ct::declassify(a.infinity),
    )
}

macro_rules! sec_curve {
    (
        $(#[$doc:meta])* $name:ident, $label:literal, $fb:ty, $scalar:ident, $digest:ty,
        a_is_one: $a1:literal, b: $b:literal, b_is_one: $b1:literal,
        gx: $gx:literal, gy: $gy:literal, h: $h:literal, oid: $oid:literal
    ) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct $name;

        impl BinaryCurve for $name {
            type Base = $fb;
            const NAME: &'static str = $label;
            const A_IS_ONE: bool = $a1;
            const B: $fb = <$fb>::from_hex_vartime($b).unwrap();
            const B_IS_ONE: bool = $b1;
            const GENERATOR_X: $fb = <$fb>::from_hex_vartime($gx).unwrap();
            const GENERATOR_Y: $fb = <$fb>::from_hex_vartime($gy).unwrap();
            const COFACTOR: u64 = $h;
        }

        impl SecCurve for $name {
            fn generator_table() -> Option<&'static FixedBaseTable<Self>> {
                #[cfg(feature = "std")]
                {
                    static TABLE: std::sync::OnceLock<FixedBaseTable<$name>> =
                        std::sync::OnceLock::new();
                    Some(TABLE.get_or_init(|| {
                        FixedBaseTable::new(
                            &ProjectivePoint::GENERATOR,
                            <$scalar as Field>::BYTES,
                        )
                    }))
                }
                #[cfg(not(feature = "std"))]
                {
                    None
                }
            }

            fn generator_odd_multiples() -> Option<&'static [AffinePoint<Self>]> {
                #[cfg(feature = "std")]
                {
                    static TABLE: std::sync::OnceLock<Vec<AffinePoint<$name>>> =
                        std::sync::OnceLock::new();
                    Some(TABLE.get_or_init(|| {
                        let mut t =
                            alloc::vec![AffinePoint::identity(); 1 << (GENERATOR_NAF_WIDTH - 2)];
                        crate::group::odd_multiples(&ProjectivePoint::GENERATOR, &mut t);
                        t
                    }))
                }
                #[cfg(not(feature = "std"))]
                {
                    None
                }
            }

            fn koblitz() -> Option<&'static KoblitzTables<Self>> {
                #[cfg(feature = "std")]
                {
                    static TABLES: std::sync::OnceLock<Option<KoblitzTables<$name>>> =
                        std::sync::OnceLock::new();
                    TABLES.get_or_init(KoblitzTables::new).as_ref()
                }
                #[cfg(not(feature = "std"))]
                {
                    None
                }
            }
        }

        impl PrimeGroup for $name {
            type Scalar = $scalar;
            type Point = ProjectivePoint<$name>;
            type Digest = $digest;
            const SIGN_LOW_S: bool = false;
            const CURVE_OID: &'static str = $oid;
            const COFACTOR: u64 = $h;

            fn generator() -> Self::Point {
                ProjectivePoint::GENERATOR
            }

            fn mul_base(k: &Self::Scalar) -> Self::Point {
                mul_base_scalar::<Self>(k)
            }

            fn mul(p: &Self::Point, k: &Self::Scalar) -> Self::Point {
                mul_scalar::<Self>(p, k)
            }

            fn mul_base_add_vartime(
                a: &Self::Scalar,
                p: &Self::Point,
                b: &Self::Scalar,
            ) -> Self::Point {
                mul_base_add_vartime::<Self>(a, p, b)
            }

            fn is_identity(p: &Self::Point) -> Choice {
                p.is_identity()
            }

            fn x_be_bytes(p: &Self::Point) -> CtOption<Vec<u8>> {
                x_be_bytes(p)
            }

            fn decode_public(bytes: &[u8]) -> Result<Self::Point, Error> {
                decode_public::<Self>(bytes)
            }

            fn encode(p: &Self::Point, compressed: bool) -> Vec<u8> {
                sec1::encode(&p.to_affine(), compressed)
            }
        }
    };
}

sec_curve!(
    /// sect163k1 = NIST K-163 (SEC 2 §3.2.1): a = 1, b = 1, h = 2.
    Sect163k1, "sect163k1", F163, Sect163k1Scalar, sha2::Sha256,
    a_is_one: true, b: "1", b_is_one: true,
    gx: "02fe13c0537bbc11acaa07d793de4e6d5e5c94eee8",
    gy: "0289070fb05d38ff58321f2e800536d538ccdaa3d9",
    h: 2, oid: "1.3.132.0.1"
);
sec_curve!(
    /// sect163r2 = NIST B-163 (SEC 2 §3.2.3): a = 1, h = 2.
    Sect163r2, "sect163r2", F163, Sect163r2Scalar, sha2::Sha256,
    a_is_one: true, b: "020a601907b8c953ca1481eb10512f78744a3205fd", b_is_one: false,
    gx: "03f0eba16286a2d57ea0991168d4994637e8343e36",
    gy: "00d51fbc6c71a0094fa2cdd545b11c5c0c797324f1",
    h: 2, oid: "1.3.132.0.15"
);
sec_curve!(
    /// sect233k1 = NIST K-233 (SEC 2 §3.3.1): a = 0, b = 1, h = 4.
    Sect233k1, "sect233k1", F233, Sect233k1Scalar, sha2::Sha256,
    a_is_one: false, b: "1", b_is_one: true,
    gx: "017232ba853a7e731af129f22ff4149563a419c26bf50a4c9d6eefad6126",
    gy: "01db537dece819b7f70f555a67c427a8cd9bf18aeb9b56e0c11056fae6a3",
    h: 4, oid: "1.3.132.0.26"
);
sec_curve!(
    /// sect233r1 = NIST B-233 (SEC 2 §3.3.2): a = 1, h = 2.
    Sect233r1, "sect233r1", F233, Sect233r1Scalar, sha2::Sha256,
    a_is_one: true, b: "0066647ede6c332c7f8c0923bb58213b333b20e9ce4281fe115f7d8f90ad", b_is_one: false,
    gx: "00fac9dfcbac8313bb2139f1bb755fef65bc391f8b36f8f8eb7371fd558b",
    gy: "01006a08a41903350678e58528bebf8a0beff867a7ca36716f7e01f81052",
    h: 2, oid: "1.3.132.0.27"
);
sec_curve!(
    /// sect239k1 (SEC 2 §3.4.1): a = 0, b = 1, h = 4.
    Sect239k1, "sect239k1", F239, Sect239k1Scalar, sha2::Sha256,
    a_is_one: false, b: "1", b_is_one: true,
    gx: "29a0b6a887a983e9730988a68727a8b2d126c44cc2cc7b2a6555193035dc",
    gy: "76310804f12e549bdb011c103089e73510acb275fc312a5dc6b76553f0ca",
    h: 4, oid: "1.3.132.0.3"
);
sec_curve!(
    /// sect283k1 = NIST K-283 (SEC 2 §3.5.1): a = 0, b = 1, h = 4.
    Sect283k1, "sect283k1", F283, Sect283k1Scalar, sha2::Sha256,
    a_is_one: false, b: "1", b_is_one: true,
    gx: "0503213f78ca44883f1a3b8162f188e553cd265f23c1567a16876913b0c2ac2458492836",
    gy: "01ccda380f1c9e318d90f95d07e5426fe87e45c0e8184698e45962364e34116177dd2259",
    h: 4,
    oid: "1.3.132.0.16"
);
sec_curve!(
    /// sect283r1 = NIST B-283 (SEC 2 §3.5.2): a = 1, h = 2.
    Sect283r1, "sect283r1", F283, Sect283r1Scalar, sha2::Sha256,
    a_is_one: true,
    b: "027b680ac8b8596da5a4af8a19a0303fca97fd7645309fa2a581485af6263e313b79a2f5", b_is_one: false,
    gx: "05f939258db7dd90e1934f8c70b0dfec2eed25b8557eac9c80e2e198f8cdbecd86b12053",
    gy: "03676854fe24141cb98fe6d4b20d02b4516ff702350eddb0826779c813f0df45be8112f4",
    h: 2,
    oid: "1.3.132.0.17"
);
sec_curve!(
    /// sect409k1 = NIST K-409 (SEC 2 §3.6.1): a = 0, b = 1, h = 4.
    Sect409k1, "sect409k1", F409, Sect409k1Scalar, sha2::Sha384,
    a_is_one: false, b: "1", b_is_one: true,
    gx: "0060f05f658f49c1ad3ab1890f7184210efd0987e307c84c27accfb8f9f67cc2c460189eb5aaaa62ee222eb1b35540cfe9023746",
    gy: "01e369050b7c4e42acba1dacbf04299c3460782f918ea427e6325165e9ea10e3da5f6c42e9c55215aa9ca27a5863ec48d8e0286b",

    h: 4, oid: "1.3.132.0.36"
);
sec_curve!(
    /// sect409r1 = NIST B-409 (SEC 2 §3.6.2): a = 1, h = 2.
    Sect409r1, "sect409r1", F409, Sect409r1Scalar, sha2::Sha384,
    a_is_one: true,
    b: "0021a5c2c8ee9feb5c4b9a753b7b476b7fd6422ef1f3dd674761fa99d6ac27c8a9a197b272822f6cd57a55aa4f50ae317b13545f",
    b_is_one: false,
    gx: "015d4860d088ddb3496b0c6064756260441cde4af1771d4db01ffe5b34e59703dc255a868a1180515603aeab60794e54bb7996a7",
    gy: "0061b1cfab6be5f32bbfa78324ed106a7636b9c5a7bd198d0158aa4f5488d08f38514f1fdf4b4f40d2181b3681c364ba0273c706",

    h: 2, oid: "1.3.132.0.37"
);
sec_curve!(
    /// sect571k1 = NIST K-571 (SEC 2 §3.7.1): a = 0, b = 1, h = 4.
    Sect571k1, "sect571k1", F571, Sect571k1Scalar, sha2::Sha512,
    a_is_one: false, b: "1", b_is_one: true,
    gx: "026eb7a859923fbc82189631f8103fe4ac9ca2970012d5d46024804801841ca44370958493b205e647da304db4ceb08cbbd1ba39494776fb988b47174dca88c7e2945283a01c8972",
    gy: "0349dc807f4fbf374f4aeade3bca95314dd58cec9f307a54ffc61efc006d8a2c9d4979c0ac44aea74fbebbb9f772aedcb620b01a7ba7af1b320430c8591984f601cd4c143ef1c7a3",

    h: 4, oid: "1.3.132.0.38"
);
sec_curve!(
    /// sect571r1 = NIST B-571 (SEC 2 §3.7.2): a = 1, h = 2.
    Sect571r1, "sect571r1", F571, Sect571r1Scalar, sha2::Sha512,
    a_is_one: true,
    b: "02f40e7e2221f295de297117b7f3d62f5c6a97ffcb8ceff1cd6ba8ce4a9a18ad84ffabbd8efa59332be7ad6756a66e294afd185a78ff12aa520e4de739baca0c7ffeff7f2955727a",
    b_is_one: false,
    gx: "0303001d34b856296c16c0d40d3cd7750a93d1d2955fa80aa5f40fc8db7b2abdbde53950f4c0d293cdd711a35b67fb1499ae60038614f1394abfa3b4c850d927e1e7769c8eec2d19",
    gy: "037bf27342da639b6dccfffeb73d69d78c6c27a6009cbbca1980f8533921e8a684423e43bab08a576291af8f461bb2a8b3531d2f0485c19b16e2f1516e23dd3c1a4827af1b8ac15b",

    h: 2, oid: "1.3.132.0.39"
);
