//! The group law, scalar multiplications and SEC 1 encodings of every curve against a slow
//! affine reference over num-bigint, written here from the textbook formulas (SEC 1 §2.2.1)
//! with the published curve constants (SP 800-186 §3.2.1, SEC 2 v2 §2.4.1).

use fieldgen_field::Field;
use fieldgen_weierstrass::curves::{Secp256k1, P224, P256, P384};
use fieldgen_weierstrass::{
    AffinePoint, CurveParams, FixedBaseTable, ProjectivePoint, WnafBaseTable,
};
use num_bigint::BigUint;
use num_traits::{One, Zero};
use sha2::{Digest, Sha256};

/// A curve as published: p, a, b, Gx, Gy, n in hex.
struct Published {
    p: &'static str,
    a: &'static str,
    b: &'static str,
    gx: &'static str,
    gy: &'static str,
    n: &'static str,
}

const P256_PUB: Published = Published {
    p: "ffffffff00000001000000000000000000000000ffffffffffffffffffffffff",
    a: "ffffffff00000001000000000000000000000000fffffffffffffffffffffffc",
    b: "5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604b",
    gx: "6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296",
    gy: "4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5",
    n: "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551",
};
const K256_PUB: Published = Published {
    p: "fffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2f",
    a: "0",
    b: "7",
    gx: "79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798",
    gy: "483ada7726a3c4655da4fbfc0e1108a8fd17b448a68554199c47d08ffb10d4b8",
    n: "fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141",
};
const P384_PUB: Published = Published {
    p: "fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffff0000000000000000ffffffff",
    a: "fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffff0000000000000000fffffffc",
    b: "b3312fa7e23ee7e4988e056be3f82d19181d9c6efe8141120314088f5013875ac656398d8a2ed19d2a85c8edd3ec2aef",
    gx: "aa87ca22be8b05378eb1c71ef320ad746e1d3b628ba79b9859f741e082542a385502f25dbf55296c3a545e3872760ab7",
    gy: "3617de4a96262c6f5d9e98bf9292dc29f8f41dbd289a147ce9da3113b5f0b8c00a60b1ce1d7e819d7a431d7c90ea0e5f",
    n: "ffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf581a0db248b0a77aecec196accc52973",
};
const P224_PUB: Published = Published {
    p: "ffffffffffffffffffffffffffffffff000000000000000000000001",
    a: "fffffffffffffffffffffffffffffffefffffffffffffffffffffffe",
    b: "b4050a850c04b3abf54132565044b0b7d7bfd8ba270b39432355ffb4",
    gx: "b70e0cbd6bb4bf7f321390b94a03c1d356c21122343280d6115c1d21",
    gy: "bd376388b5f723fb4c22dfe6cd4375a05a07476444d5819985007e34",
    n: "ffffffffffffffffffffffffffff16a2e0b8f03e13dd29455c5c2a3d",
};

fn hex(s: &str) -> BigUint {
    BigUint::parse_bytes(s.as_bytes(), 16).unwrap()
}

/// Affine points over num-bigint; None is the identity.
type Pt = Option<(BigUint, BigUint)>;

struct Reference {
    p: BigUint,
    a: BigUint,
    b: BigUint,
    g: Pt,
    n: BigUint,
}

impl Reference {
    fn new(c: &Published) -> Self {
        Reference {
            p: hex(c.p),
            a: hex(c.a),
            b: hex(c.b),
            g: Some((hex(c.gx), hex(c.gy))),
            n: hex(c.n),
        }
    }
    fn inv(&self, x: &BigUint) -> BigUint {
        x.modpow(&(&self.p - 2u32), &self.p)
    }
    fn sub(&self, x: &BigUint, y: &BigUint) -> BigUint {
        (x + &self.p - y) % &self.p
    }
    fn on_curve(&self, q: &Pt) -> bool {
        match q {
            None => true,
            Some((x, y)) => (y * y) % &self.p == (x * x * x + &self.a * x + &self.b) % &self.p,
        }
    }
    fn add(&self, p1: &Pt, p2: &Pt) -> Pt {
        let (Some((x1, y1)), Some((x2, y2))) = (p1, p2) else {
            return p1.clone().or(p2.clone());
        };
        let l = if x1 == x2 {
            if (y1 + y2) % &self.p == BigUint::zero() {
                return None;
            }
            (BigUint::from(3u32) * x1 * x1 + &self.a) * self.inv(&(y1 * 2u32)) % &self.p
        } else {
            self.sub(y2, y1) * self.inv(&self.sub(x2, x1)) % &self.p
        };
        let x3 = self.sub(&self.sub(&(&l * &l % &self.p), x1), x2);
        let y3 = self.sub(&(&l * self.sub(x1, &x3) % &self.p), y1);
        Some((x3, y3))
    }
    fn neg(&self, q: &Pt) -> Pt {
        q.as_ref()
            .map(|(x, y)| (x.clone(), self.sub(&BigUint::zero(), y)))
    }
    fn mul(&self, q: &Pt, k: &BigUint) -> Pt {
        let mut acc = None;
        for i in (0..k.bits()).rev() {
            acc = self.add(&acc, &acc);
            if k.bit(i) {
                acc = self.add(&acc, q);
            }
        }
        acc
    }
}

fn to_ref<C: CurveParams>(p: &ProjectivePoint<C>) -> Pt {
    let a = p.to_affine();
    if bool::from(a.is_identity()) {
        return None;
    }
    let x = BigUint::from_bytes_be(a.x().unwrap().to_be_bytes().as_ref());
    let y = BigUint::from_bytes_be(a.y().unwrap().to_be_bytes().as_ref());
    Some((x, y))
}

fn le_bytes(k: &BigUint, len: usize) -> Vec<u8> {
    let mut v = k.to_bytes_le();
    v.resize(len, 0);
    v
}

/// Deterministic test scalars below n from SHA-256 of a label and a counter.
fn scalar(label: &str, i: u32, n: &BigUint) -> BigUint {
    let mut bytes = Vec::new();
    for j in 0..2u8 {
        bytes.extend_from_slice(
            &Sha256::new()
                .chain_update(label)
                .chain_update(i.to_le_bytes())
                .chain_update([j])
                .finalize(),
        );
    }
    BigUint::from_bytes_be(&bytes) % n
}

fn check_curve<C: CurveParams>(published: &Published, label: &str) {
    let r = Reference::new(published);
    let nbytes = usize::try_from(r.n.bits().div_ceil(8)).unwrap() + 1;
    // The published constants agree among themselves: G on the curve, n·G = O.
    assert!(r.on_curve(&r.g), "{label}: G off the curve");
    assert_eq!(r.mul(&r.g, &r.n), None, "{label}: n·G ≠ O in the reference");
    let g = ProjectivePoint::<C>::GENERATOR;
    assert_eq!(to_ref(&g), r.g, "{label}: generator");
    assert!(bool::from(g.is_on_curve()));

    // Scalar multiplication by 0, 1, 2, n − 1, n, n + 1 on all three paths, and by scalars
    // at the edges of the signed radix-32 digits (a digit of 15, 16 or 31 and its carry) and
    // with every bit set.
    let table = FixedBaseTable::<C>::new(&g, nbytes);
    for k in [
        BigUint::zero(),
        BigUint::one(),
        BigUint::from(2u32),
        &r.n - 1u32,
        r.n.clone(),
        &r.n + 1u32,
        BigUint::from(15u32),
        BigUint::from(16u32),
        BigUint::from(17u32),
        BigUint::from(31u32),
        BigUint::from(32u32),
        BigUint::from(33u32),
        BigUint::from(16u32 * 32 + 16),
        &r.n - 16u32,
        &r.n - 32u32,
        (BigUint::one() << (8 * (nbytes - 1))) - 1u32,
    ] {
        let want = r.mul(&r.g, &k);
        let kb = le_bytes(&k, nbytes);
        assert_eq!(to_ref(&g.mul_le_bytes(&kb)), want, "{label}: ct k = {k}");
        assert_eq!(
            to_ref(&g.mul_le_bytes_vartime(&kb)),
            want,
            "{label}: vartime k = {k}"
        );
        assert_eq!(
            to_ref(&table.mul_le_bytes(&kb)),
            want,
            "{label}: table k = {k}"
        );
    }

    // Random points: sums, doublings, negation, mixed addition, all scalar paths.
    let mut pts = Vec::new();
    let mut refs = Vec::new();
    for i in 0..4 {
        let k = scalar(label, i, &r.n);
        let want = r.mul(&r.g, &k);
        let kb = le_bytes(&k, nbytes);
        let ct = g.mul_le_bytes(&kb);
        assert_eq!(to_ref(&ct), want, "{label}: k·G");
        assert_eq!(
            to_ref(&g.mul_le_bytes_vartime(&kb)),
            want,
            "{label}: wNAF k·G"
        );
        assert_eq!(to_ref(&table.mul_le_bytes(&kb)), want, "{label}: table k·G");
        assert!(bool::from(ct.is_on_curve()));
        pts.push(ct);
        refs.push(want);
    }
    let (p, q, s) = (pts[0], pts[1], pts[2]);
    let (rp, rq, rs) = (&refs[0], &refs[1], &refs[2]);
    let id = ProjectivePoint::<C>::IDENTITY;
    assert_eq!(to_ref(&(p + q)), r.add(rp, rq), "{label}: P + Q");
    assert_eq!(to_ref(&p.double()), r.add(rp, rp), "{label}: 2P");
    assert_eq!(
        to_ref(&p.add_point(&p)),
        r.add(rp, rp),
        "{label}: P + P (complete)"
    );
    assert_eq!(to_ref(&(p + -p)), None, "{label}: P + (−P)");
    assert_eq!(to_ref(&(p - q)), r.add(rp, &r.neg(rq)), "{label}: P − Q");
    assert_eq!((p + q) + s, p + (q + s), "{label}: associativity");
    assert_eq!(
        to_ref(&((p + q) + s)),
        r.add(&r.add(rp, rq), rs),
        "{label}: P + Q + S"
    );
    assert_eq!(to_ref(&(p + id)), *rp, "{label}: P + O");
    assert_eq!(to_ref(&(id + p)), *rp, "{label}: O + P");
    assert_eq!(to_ref(&id.double()), None, "{label}: 2·O");
    // Runs of doublings (Jacobian inside for n ≥ 2): 2^n·P against the reference, and 2^n·O
    // the identity with Y ≠ 0, so that it still works in the complete formulas.
    let mut want = rp.clone();
    for n in 0..=7u32 {
        assert_eq!(to_ref(&p.double_n(n)), want, "{label}: 2^{n}·P");
        assert_eq!(
            to_ref(&(-p).double_n(n)),
            r.neg(&want),
            "{label}: 2^{n}·(−P)"
        );
        let o = id.double_n(n);
        assert_eq!(to_ref(&o), None, "{label}: 2^{n}·O");
        assert!(
            !bool::from(o.coordinates().1.is_zero()),
            "{label}: Y of 2^{n}·O"
        );
        assert_eq!(to_ref(&(o + q)), *rq, "{label}: 2^{n}·O + Q");
        assert_eq!(to_ref(&o.double()), None, "{label}: 2·2^{n}·O");
        want = r.add(&want, &want);
    }
    // The identity as the base of the scalar multiplication.
    let kb = le_bytes(&scalar(label, 20, &r.n), nbytes);
    assert_eq!(to_ref(&id.mul_le_bytes(&kb)), None, "{label}: k·O");
    assert_eq!(to_ref(&(id + id)), None, "{label}: O + O");
    let qa = q.to_affine();
    assert_eq!(to_ref(&(p + &qa)), r.add(rp, rq), "{label}: mixed P + Q");
    assert_eq!(
        to_ref(&(p + &p.to_affine())),
        r.add(rp, rp),
        "{label}: mixed P + P"
    );
    assert_eq!(
        to_ref(&(p + &(-p).to_affine())),
        None,
        "{label}: mixed P − P"
    );
    assert_eq!(
        to_ref(&(p + &AffinePoint::identity())),
        *rp,
        "{label}: mixed P + O"
    );
    assert_eq!(to_ref(&(id + &qa)), *rq, "{label}: mixed O + Q");

    // Scalar multiplication of a non-generator point, and Straus a·P + b·Q.
    let a = scalar(label, 10, &r.n);
    let b = scalar(label, 11, &r.n);
    let (ab, bb) = (le_bytes(&a, nbytes), le_bytes(&b, nbytes));
    let want = r.mul(rp, &a);
    assert_eq!(to_ref(&p.mul_le_bytes(&ab)), want, "{label}: a·P");
    assert_eq!(
        to_ref(&p.mul_le_bytes_vartime(&ab)),
        want,
        "{label}: wNAF a·P"
    );
    assert_eq!(
        to_ref(&p.double_mul_vartime(&ab, &q, &bb)),
        r.add(&want, &r.mul(rq, &b)),
        "{label}: Straus a·P + b·Q"
    );
    let wtable = WnafBaseTable::<C>::new(&g);
    assert_eq!(
        to_ref(&wtable.mul_add_vartime(&ab, &q, &bb)),
        r.add(&r.mul(&r.g, &a), &r.mul(rq, &b)),
        "{label}: table Straus a·G + b·Q"
    );
    // Short and long scalar encodings give the same product.
    assert_eq!(
        p.mul_le_bytes(&ab[..nbytes - 1]),
        p.mul_le_bytes(&ab),
        "{label}: lengths"
    );

    // Batch normalisation with one inversion, the identity included.
    let mut batch = pts.clone();
    batch.push(id);
    let mut out = vec![AffinePoint::<C>::identity(); batch.len()];
    ProjectivePoint::batch_to_affine(&batch, &mut out);
    for (pt, o) in batch.iter().zip(&out) {
        assert_eq!(pt.to_affine(), *o, "{label}: batch_to_affine");
    }
}

fn check_sec1<C: CurveParams>(published: &Published, label: &str)
where
    C::Base: fieldgen_field::PrimeField,
{
    let r = Reference::new(published);
    let len = usize::try_from(r.p.bits().div_ceil(8)).unwrap();
    let nbytes = usize::try_from(r.n.bits().div_ceil(8)).unwrap();
    for i in 0..4 {
        let k = scalar(label, 100 + i, &r.n);
        let (x, y) = r.mul(&r.g, &k).unwrap();
        let pad = |v: &BigUint| {
            let b = v.to_bytes_be();
            let mut o = vec![0u8; len - b.len()];
            o.extend_from_slice(&b);
            o
        };
        let mut unc = vec![4u8];
        unc.extend(pad(&x));
        unc.extend(pad(&y));
        let mut comp = vec![if y.bit(0) { 3u8 } else { 2 }];
        comp.extend(pad(&x));
        let ours = ProjectivePoint::<C>::GENERATOR.mul_le_bytes(&le_bytes(&k, nbytes));
        assert_eq!(ours.to_sec1_bytes(false), unc, "{label}: uncompressed");
        assert_eq!(ours.to_sec1_bytes(true), comp, "{label}: compressed");
        let a = ours.to_affine();
        assert_eq!(
            AffinePoint::<C>::from_sec1_bytes(&unc).unwrap(),
            a,
            "{label}"
        );
        assert_eq!(
            AffinePoint::<C>::from_sec1_bytes(&comp).unwrap(),
            a,
            "{label}: decompress"
        );
    }
    assert_eq!(
        ProjectivePoint::<C>::IDENTITY.to_sec1_bytes(true),
        vec![0u8]
    );
    assert!(bool::from(
        AffinePoint::<C>::from_sec1_bytes(&[0])
            .unwrap()
            .is_identity()
    ));
}

#[test]
fn p256() {
    check_curve::<P256>(&P256_PUB, "P-256");
    check_sec1::<P256>(&P256_PUB, "P-256");
}

#[test]
fn secp256k1() {
    check_curve::<Secp256k1>(&K256_PUB, "secp256k1");
    check_sec1::<Secp256k1>(&K256_PUB, "secp256k1");
}

#[test]
fn p384() {
    check_curve::<P384>(&P384_PUB, "P-384");
    check_sec1::<P384>(&P384_PUB, "P-384");
}

#[test]
fn p224() {
    check_curve::<P224>(&P224_PUB, "P-224");
    check_sec1::<P224>(&P224_PUB, "P-224");
}

/// The variable-time Straus runs in Jacobian coordinates and branches on the exceptional
/// cases of those formulas (the identity, P = ±Q); sums of multiples of G and −G by small
/// and near-n scalars reach them. Expected values by the constant-time signed window, which
/// `check_curve` compares with the num-bigint reference.
fn check_straus_exceptional<C: CurveParams>(published: &Published, label: &str) {
    let n = hex(published.n);
    let nbytes = usize::try_from(n.bits().div_ceil(8)).unwrap();
    let g = ProjectivePoint::<C>::GENERATOR;
    let table = WnafBaseTable::<C>::new(&g);
    let small = [0u32, 1, 2, 3, 15, 16, 17, 33];
    for &x in &small {
        for &y in &small {
            for b in [BigUint::from(y), (&n - y) % &n] {
                let a = BigUint::from(x);
                for (base, m) in [(g, BigUint::one()), (-g, &n - 1u32)] {
                    let want = g.mul_le_bytes(&le_bytes(&((&a + &b * &m) % &n), nbytes));
                    let got =
                        g.double_mul_vartime(&le_bytes(&a, nbytes), &base, &le_bytes(&b, nbytes));
                    assert_eq!(got, want, "{label}: a = {a}, b = {b:x}");
                    let got =
                        table.mul_add_vartime(&le_bytes(&a, nbytes), &base, &le_bytes(&b, nbytes));
                    assert_eq!(got, want, "{label}: table, a = {a}, b = {b:x}");
                }
            }
        }
    }
}

#[test]
fn straus_exceptional_cases() {
    check_straus_exceptional::<P256>(&P256_PUB, "P-256");
    check_straus_exceptional::<Secp256k1>(&K256_PUB, "secp256k1");
    check_straus_exceptional::<P384>(&P384_PUB, "P-384");
    check_straus_exceptional::<P224>(&P224_PUB, "P-224");
}
