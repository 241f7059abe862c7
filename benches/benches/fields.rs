//! Field-arithmetic latency: our generated fields (one column per backend) beside peer crates, in
//! one criterion run.
//!
//! Benchmark ids are `<field>/<op>/<column>` (see the `fieldgen_benches` library docs). Every
//! operation is measured as latency: one criterion iteration chains `Op::chain_len` operations,
//! each taking the previous result (`x ← x·y`, `x ← x²`, `x ← x + y`, `x ← x⁻¹ + y`,
//! `x ← √(x²) + y`), and the throughput is declared as that many elements, so the report divides
//! criterion's per-iteration time by it. Every column of a field starts from the same integers.
//!
//! Build with `-C target-cpu=native` (the peers' fastest code needs it): the `report` command of
//! this package does that; see the package README.

use std::cell::RefCell;
use std::hint::black_box;
use std::time::Duration;

use criterion::measurement::WallTime;
use criterion::{
    criterion_group, criterion_main, BenchmarkGroup, BenchmarkId, Criterion, Throughput,
};
use fieldgen_benches::{field, inputs, ours_column, Field, Op};
use fieldgen_generated as ours;

/// One module per field and backend (`bn254_p_portable64`, `bn254_p_x86_64_adx`, ...), written by
/// `build.rs` with the generator's `--target` so each column runs exactly one backend.
#[allow(dead_code, clippy::all)]
mod backends {
    include!(concat!(env!("OUT_DIR"), "/backends.rs"));
}

/// One column: a field-element type and the operations it offers.
trait Subject: Copy {
    /// The operations this column supports (a subset of the field's operations).
    const OPS: &'static [Op] = &Op::ALL;
    /// Decodes a canonical little-endian integer (below p).
    fn decode(le: &[u8]) -> Self;
    /// Encodes as a canonical little-endian integer; `p_le` is the modulus, for the
    /// representations that are not fully reduced.
    fn encode(self, p_le: &[u8]) -> Vec<u8>;
    // Every column's `op_*` is `#[inline(always)]`: without it LLVM left the larger bodies
    // (6-limb additions) as calls inside the timed loop, the value going through memory, and
    // the row measured the call (29 ns against 3.8 ns for an inlined 381-bit addition).
    fn op_mul(self, y: &Self) -> Self;
    fn op_square(self) -> Self;
    fn op_add(self, _y: &Self) -> Self {
        unreachable!("add is not in OPS")
    }
    fn op_invert(self) -> Self {
        unreachable!("invert is not in OPS")
    }
    fn op_sqrt(self) -> Self {
        unreachable!("sqrt is not in OPS")
    }
}

/// A column's results of each deterministic chain, as canonical little-endian integers.
type Fingerprint = Vec<(Op, Vec<u8>)>;

/// Benchmark inputs of a field: the chain's start `x0`, the operand `y`, the modulus, and the
/// first column's results that every other column must reproduce.
struct Inputs {
    x0: Vec<u8>,
    y: Vec<u8>,
    p_le: Vec<u8>,
    reference: RefCell<Option<(String, Fingerprint)>>,
}

impl Inputs {
    fn new(f: &Field, p_le: &[u8]) -> Self {
        assert_eq!(
            p_le.len(),
            f.bits.div_ceil(8) as usize,
            "{}: modulus length",
            f.id
        );
        let mut v = inputs(f.bits, 0x6669_656c_6467_656e ^ u64::from(f.bits), 2);
        let y = v.pop().unwrap();
        let x0 = v.pop().unwrap();
        Inputs {
            x0,
            y,
            p_le: p_le.to_vec(),
            reference: RefCell::new(None),
        }
    }
}

/// Checks, before measuring, that column `T` computes in the same field as the first column
/// registered: a few steps of each deterministic chain must give the same integers, and the square
/// root of x0² must be ±x0. Catches a wrong modulus, limb layout or byte order. Not timed.
fn cross_check<T: Subject>(f: &Field, inp: &Inputs, column: &str) {
    let (x0, y) = (T::decode(&inp.x0), T::decode(&inp.y));
    let p = &inp.p_le[..];
    assert!(
        x0.encode(p) == inp.x0 && y.encode(p) == inp.y,
        "{}/{column}: decode/encode round trip",
        f.id
    );
    let ops: Vec<Op> = f
        .ops
        .iter()
        .copied()
        .filter(|op| T::OPS.contains(op))
        .collect();
    let mut results = Vec::new();
    for &op in &ops {
        let mut x = x0;
        for _ in 0..8 {
            x = match op {
                Op::Mul => x.op_mul(&y),
                Op::Square => x.op_square(),
                Op::Add => x.op_add(&y),
                Op::Invert => x.op_invert().op_add(&y),
                Op::Sqrt => {
                    let s = x0.op_square().op_sqrt();
                    let zero = vec![0u8; p.len()];
                    assert!(
                        s.encode(p) == inp.x0 || s.op_add(&x0).encode(p) == zero,
                        "{}/{column}: sqrt(x0^2) is not ±x0",
                        f.id
                    );
                    break;
                }
            };
        }
        if op != Op::Sqrt {
            results.push((op, x.encode(p)));
        }
    }
    let mut reference = inp.reference.borrow_mut();
    match &*reference {
        None => *reference = Some((column.to_string(), results)),
        Some((ref_column, expected)) => {
            for (op, got) in &results {
                if let Some((_, want)) = expected.iter().find(|(o, _)| o == op) {
                    assert!(
                        got == want,
                        "{}/{column}: {} disagrees with {ref_column}",
                        f.id,
                        op.id()
                    );
                }
            }
        }
    }
}

/// Runs `n` chained steps per criterion iteration; the state carries over between iterations.
fn chain<T: Copy>(b: &mut criterion::Bencher<'_>, x0: T, y: T, n: u64, step: impl Fn(T, &T) -> T) {
    let mut x = x0;
    b.iter(|| {
        // Opaque operand: no column can specialise its code to the constant `y`.
        let y = black_box(y);
        for _ in 0..n {
            x = step(x, &y);
        }
        black_box(x)
    });
}

/// Registers every operation of `f` that `T` supports, as column `column`.
fn column<T: Subject>(g: &mut BenchmarkGroup<'_, WallTime>, f: &Field, inp: &Inputs, column: &str) {
    cross_check::<T>(f, inp, column);
    let x0 = T::decode(&inp.x0);
    let y = T::decode(&inp.y);
    for &op in f.ops.iter().filter(|op| T::OPS.contains(op)) {
        let n = op.chain_len();
        g.throughput(Throughput::Elements(n));
        g.bench_function(BenchmarkId::new(op.id(), column), |b| match op {
            Op::Mul => chain(b, x0, y, n, |x, y| x.op_mul(y)),
            Op::Square => chain(b, x0, y, n, |x, _| x.op_square()),
            Op::Add => chain(b, x0, y, n, |x, y| x.op_add(y)),
            Op::Invert => chain(b, x0, y, n, |x, y| x.op_invert().op_add(y)),
            Op::Sqrt => chain(b, x0, y, n, |x, y| x.op_square().op_sqrt().op_add(y)),
        });
    }
}

/// Whether this CPU runs the BMI2/ADX kernels (the `x86_64-adx` columns).
fn adx() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("bmi2") && std::arch::is_x86_feature_detected!("adx")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Registers our backends of one field: `(backend name, type, available on this CPU)`. A backend
/// selected at run time (e.g. x86-64 mulx/adx) gives its CPU-feature test as the predicate.
macro_rules! ours {
    ($g:expr, $f:expr, $inp:expr, [$(($backend:literal, $ty:ty, $available:expr)),* $(,)?]) => {
        $(
            if $available {
                column::<$ty>($g, $f, $inp, &ours_column($backend));
            }
        )*
    };
}

// ---------------------------------------------------------------------------------------------
// Ours: the generated API (inherent methods; `invert`/`sqrt` return `subtle::CtOption`).

macro_rules! impl_ours {
    ($($ty:ty),* $(,)?) => {$(
        impl Subject for $ty {
            fn decode(le: &[u8]) -> Self {
                <$ty>::from_le_bytes(le.try_into().unwrap()).unwrap()
            }
            fn encode(self, _p: &[u8]) -> Vec<u8> {
                self.to_le_bytes().to_vec()
            }
            #[inline(always)]
            fn op_mul(self, y: &Self) -> Self {
                <$ty>::mul(&self, y)
            }
            #[inline(always)]
            fn op_square(self) -> Self {
                <$ty>::square(&self)
            }
            #[inline(always)]
            fn op_add(self, y: &Self) -> Self {
                <$ty>::add(&self, y)
            }
            #[inline(always)]
            fn op_invert(self) -> Self {
                <$ty>::invert(&self).unwrap()
            }
            #[inline(always)]
            fn op_sqrt(self) -> Self {
                <$ty>::sqrt(&self).unwrap()
            }
        }
    )*};
}

impl_ours!(
    backends::bn254_p_portable64::Fp,
    backends::bn254_r_portable64::Fr,
    backends::bls12_381_p_portable64::Fp,
    backends::p256_p_portable64::Fp,
    ours::bn254_p_64::Fp,
    ours::bn254_p_32::Fp,
    ours::bn254_r_64::Fr,
    ours::bn254_r_32::Fr,
    ours::bls12_381_p_64::Fp,
    ours::bls12_381_p_32::Fp,
    ours::curve25519_p_64::Fp,
    ours::curve25519_p_32::Fp,
    ours::secp256k1_p_64::Fp,
    ours::secp256k1_p_32::Fp,
    ours::p256_p_64::Fp,
    ours::p256_p_32::Fp,
    ours::curve25519_p_montgomery_64::Fp,
    ours::secp256k1_p_montgomery_64::Fp,
    ours::secp256k1_p_solinas_32::Fp,
    ours::curve25519_p_unsaturated_64::Fp,
    ours::curve25519_p_unsaturated_32::Fp,
    ours::p256_p_solinas_64::Fp,
    ours::p256_p_solinas_32::Fp,
);

#[cfg(target_arch = "x86_64")]
impl_ours!(
    backends::bn254_p_x86_64_adx::Fp,
    backends::bn254_r_x86_64_adx::Fr,
    backends::bls12_381_p_x86_64_adx::Fp,
    backends::p256_p_x86_64_adx::Fp,
);

/// Registers a generated field as the column `ours-[<form>-]<backend in use>`: the column names
/// the code that actually runs (`x86_64-adx` when the build and CPU select the assembly).
macro_rules! ours_in_use {
    ($g:expr, $f:expr, $inp:expr, $form:literal, $ty:ty) => {{
        let backend = <$ty>::backend();
        let id = if $form.is_empty() {
            backend.to_string()
        } else {
            format!("{}-{}", $form, backend)
        };
        column::<$ty>($g, $f, $inp, &ours_column(&id));
    }};
}

// ---------------------------------------------------------------------------------------------
// ark-ff (asm).

macro_rules! impl_ark {
    ($($ty:ty),* $(,)?) => {$(
        impl Subject for $ty {
            fn decode(le: &[u8]) -> Self {
                <$ty as ark_ff::PrimeField>::from_le_bytes_mod_order(le)
            }
            fn encode(self, _p: &[u8]) -> Vec<u8> {
                use ark_ff::{BigInteger, PrimeField};
                self.into_bigint().to_bytes_le()
            }
            #[inline(always)]
            fn op_mul(self, y: &Self) -> Self {
                self * y
            }
            #[inline(always)]
            fn op_square(self) -> Self {
                ark_ff::Field::square(&self)
            }
            #[inline(always)]
            fn op_add(self, y: &Self) -> Self {
                self + y
            }
            #[inline(always)]
            fn op_invert(self) -> Self {
                ark_ff::Field::inverse(&self).unwrap()
            }
            #[inline(always)]
            fn op_sqrt(self) -> Self {
                ark_ff::Field::sqrt(&self).unwrap()
            }
        }
    )*};
}

impl_ark!(ark_bn254::Fq, ark_bn254::Fr, ark_bls12_381::Fq);

// ---------------------------------------------------------------------------------------------
// halo2curves (ff 0.13 traits).

/// Decodes through `ff::PrimeField::from_repr`, whichever byte order the type's `Repr` uses.
fn ff_decode<T: halo2curves::ff::PrimeField>(le: &[u8]) -> T {
    let mut repr = T::Repr::default();
    repr.as_mut().copy_from_slice(le);
    if let Some(x) = Option::from(T::from_repr(repr)) {
        return x;
    }
    repr.as_mut().reverse();
    Option::from(T::from_repr(repr)).expect("canonical input")
}

/// `ff::PrimeField::to_repr` as little-endian bytes, whichever byte order `Repr` uses.
fn ff_encode<T: halo2curves::ff::PrimeField>(x: T) -> Vec<u8> {
    let big_endian = T::ONE.to_repr().as_ref()[0] != 1;
    let mut bytes = x.to_repr().as_ref().to_vec();
    if big_endian {
        bytes.reverse();
    }
    bytes
}

macro_rules! impl_halo2 {
    ($($ty:ty),* $(,)?) => {$(
        impl Subject for $ty {
            fn decode(le: &[u8]) -> Self {
                ff_decode(le)
            }
            fn encode(self, _p: &[u8]) -> Vec<u8> {
                ff_encode(self)
            }
            #[inline(always)]
            fn op_mul(self, y: &Self) -> Self {
                self * y
            }
            #[inline(always)]
            fn op_square(self) -> Self {
                halo2curves::ff::Field::square(&self)
            }
            #[inline(always)]
            fn op_add(self, y: &Self) -> Self {
                self + y
            }
            #[inline(always)]
            fn op_invert(self) -> Self {
                halo2curves::ff::Field::invert(&self).unwrap()
            }
            #[inline(always)]
            fn op_sqrt(self) -> Self {
                halo2curves::ff::Field::sqrt(&self).unwrap()
            }
        }
    )*};
}

impl_halo2!(
    halo2curves::bn256::Fq,
    halo2curves::bn256::Fr,
    halo2curves::bls12381::Fq,
    halo2curves::secp256k1::Fp,
    halo2curves::secp256r1::Fp,
);

// ---------------------------------------------------------------------------------------------
// blst: the raw C API on Montgomery-form `blst_fp`.

impl Subject for blst::blst_fp {
    fn decode(le: &[u8]) -> Self {
        assert_eq!(le.len(), 48);
        let mut out = blst::blst_fp::default();
        // SAFETY: `le` holds the 48 bytes the function reads; `out` is a valid blst_fp.
        unsafe { blst::blst_fp_from_lendian(&mut out, le.as_ptr()) };
        out
    }
    fn encode(self, _p: &[u8]) -> Vec<u8> {
        let mut out = vec![0u8; 48];
        // SAFETY: `out` has room for the 48 bytes written.
        unsafe { blst::blst_lendian_from_fp(out.as_mut_ptr(), &self) };
        out
    }
    #[inline(always)]
    fn op_mul(self, y: &Self) -> Self {
        let mut out = blst::blst_fp::default();
        // SAFETY: valid pointers to initialised blst_fp values.
        unsafe { blst::blst_fp_mul(&mut out, &self, y) };
        out
    }
    #[inline(always)]
    fn op_square(self) -> Self {
        let mut out = blst::blst_fp::default();
        // SAFETY: as above.
        unsafe { blst::blst_fp_sqr(&mut out, &self) };
        out
    }
    #[inline(always)]
    fn op_add(self, y: &Self) -> Self {
        let mut out = blst::blst_fp::default();
        // SAFETY: as above.
        unsafe { blst::blst_fp_add(&mut out, &self, y) };
        out
    }
    #[inline(always)]
    fn op_invert(self) -> Self {
        let mut out = blst::blst_fp::default();
        // SAFETY: as above.
        unsafe { blst::blst_fp_inverse(&mut out, &self) };
        out
    }
    #[inline(always)]
    fn op_sqrt(self) -> Self {
        let mut out = blst::blst_fp::default();
        // SAFETY: as above.
        let ok = unsafe { blst::blst_fp_sqrt(&mut out, &self) };
        assert!(ok, "input is a square");
        out
    }
}

// ---------------------------------------------------------------------------------------------
// crypto-bigint: ConstMontyForm (compile-time modulus) and FixedMontyForm (run-time modulus).

mod cb {
    use crypto_bigint::{const_prime_monty_params, U256, U384};

    // The generator argument is a quadratic non-residue (the smallest), as sqrt needs.
    const_prime_monty_params!(
        Bn254P,
        U256,
        "30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47",
        3
    );
    const_prime_monty_params!(
        Bn254R,
        U256,
        "30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001",
        5
    );
    const_prime_monty_params!(
        Bls12381P,
        U384,
        "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab",
        2
    );
}

macro_rules! impl_cb_const {
    ($($modulus:ty, $uint:ty);* $(;)?) => {$(
        impl Subject for crypto_bigint::modular::ConstMontyForm<$modulus, { <$uint>::LIMBS }> {
            fn decode(le: &[u8]) -> Self {
                Self::new(&<$uint>::from_le_slice(le))
            }
            fn encode(self, _p: &[u8]) -> Vec<u8> {
                words_le(self.retrieve().as_words())
            }
            #[inline(always)]
            fn op_mul(self, y: &Self) -> Self {
                Self::mul(&self, y)
            }
            #[inline(always)]
            fn op_square(self) -> Self {
                Self::square(&self)
            }
            #[inline(always)]
            fn op_add(self, y: &Self) -> Self {
                Self::add(&self, y)
            }
            #[inline(always)]
            fn op_invert(self) -> Self {
                Self::invert(&self).unwrap()
            }
            #[inline(always)]
            fn op_sqrt(self) -> Self {
                Self::sqrt(&self).unwrap()
            }
        }
    )*};
}

impl_cb_const!(
    cb::Bn254P, crypto_bigint::U256;
    cb::Bn254R, crypto_bigint::U256;
    cb::Bls12381P, crypto_bigint::U384;
);

/// `FixedMontyForm` for one modulus (the type does not name its modulus, so a marker does).
#[derive(Clone, Copy)]
struct CbFixed<M, const L: usize>(
    crypto_bigint::modular::FixedMontyForm<L>,
    core::marker::PhantomData<M>,
);

impl<M, const L: usize> Subject for CbFixed<M, L>
where
    M: crypto_bigint::modular::ConstMontyParams<L> + Copy,
{
    // FixedMontyForm has no square root.
    const OPS: &'static [Op] = &[Op::Mul, Op::Square, Op::Add, Op::Invert];
    fn decode(le: &[u8]) -> Self {
        let x = crypto_bigint::Uint::<L>::from_le_slice(le);
        CbFixed(
            crypto_bigint::modular::FixedMontyForm::new(&x, &M::PARAMS),
            core::marker::PhantomData,
        )
    }
    fn encode(self, _p: &[u8]) -> Vec<u8> {
        words_le(self.0.retrieve().as_words())
    }
    #[inline(always)]
    fn op_mul(self, y: &Self) -> Self {
        CbFixed(self.0.mul(&y.0), self.1)
    }
    #[inline(always)]
    fn op_square(self) -> Self {
        CbFixed(self.0.square(), self.1)
    }
    #[inline(always)]
    fn op_add(self, y: &Self) -> Self {
        CbFixed(self.0.add(&y.0), self.1)
    }
    #[inline(always)]
    fn op_invert(self) -> Self {
        CbFixed(self.0.invert().unwrap(), self.1)
    }
}

/// `ConstMontyForm` of modulus `$m` over the unsigned integer type `$u`.
macro_rules! cb_const {
    ($m:ty, $u:ty) => {
        crypto_bigint::modular::ConstMontyForm<$m, { <$u>::LIMBS }>
    };
}

// ---------------------------------------------------------------------------------------------
// substrate-bn.

fn be32(le: &[u8]) -> [u8; 32] {
    let mut be: [u8; 32] = le.try_into().unwrap();
    be.reverse();
    be
}

impl Subject for substrate_bn::Fq {
    fn decode(le: &[u8]) -> Self {
        substrate_bn::Fq::from_slice(&be32(le)).unwrap()
    }
    fn encode(self, _p: &[u8]) -> Vec<u8> {
        // `into_u256` leaves Montgomery form (`Fr::to_big_endian` would not).
        let mut be = [0u8; 32];
        self.into_u256().to_big_endian(&mut be).unwrap();
        be.reverse();
        be.to_vec()
    }
    #[inline(always)]
    fn op_mul(self, y: &Self) -> Self {
        self * *y
    }
    #[inline(always)]
    fn op_square(self) -> Self {
        self * self
    }
    #[inline(always)]
    fn op_add(self, y: &Self) -> Self {
        self + *y
    }
    #[inline(always)]
    fn op_invert(self) -> Self {
        self.inverse().unwrap()
    }
    #[inline(always)]
    fn op_sqrt(self) -> Self {
        self.sqrt().unwrap()
    }
}

impl Subject for substrate_bn::Fr {
    const OPS: &'static [Op] = &[Op::Mul, Op::Square, Op::Add, Op::Invert];
    fn decode(le: &[u8]) -> Self {
        substrate_bn::Fr::from_slice(&be32(le)).unwrap()
    }
    fn encode(self, _p: &[u8]) -> Vec<u8> {
        // `into_u256` leaves Montgomery form (`Fr::to_big_endian` would not).
        let mut be = [0u8; 32];
        self.into_u256().to_big_endian(&mut be).unwrap();
        be.reverse();
        be.to_vec()
    }
    #[inline(always)]
    fn op_mul(self, y: &Self) -> Self {
        self * *y
    }
    #[inline(always)]
    fn op_square(self) -> Self {
        self * self
    }
    #[inline(always)]
    fn op_add(self, y: &Self) -> Self {
        self + *y
    }
    #[inline(always)]
    fn op_invert(self) -> Self {
        self.inverse().unwrap()
    }
}

// ---------------------------------------------------------------------------------------------
// fiat-crypto.

fn limbs64<const N: usize>(le: &[u8]) -> [u64; N] {
    let mut out = [0u64; N];
    for (i, chunk) in le.chunks(8).enumerate() {
        let mut w = [0u8; 8];
        w[..chunk.len()].copy_from_slice(chunk);
        out[i] = u64::from_le_bytes(w);
    }
    out
}

/// Little-endian bytes of little-endian 64-bit words.
fn words_le(words: &[u64]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// The canonical little-endian bytes of the integer `words` (little-endian 64-bit words) modulo
/// `p_le`, by repeated subtraction: for representations a few multiples of p wide at most.
fn reduce(mut words: Vec<u64>, p_le: &[u8]) -> Vec<u8> {
    let mut p: Vec<u64> = p_le
        .chunks(8)
        .map(|c| {
            let mut w = [0u8; 8];
            w[..c.len()].copy_from_slice(c);
            u64::from_le_bytes(w)
        })
        .collect();
    let n = words.len().max(p.len());
    words.resize(n, 0);
    p.resize(n, 0);
    let at_least_p = |x: &[u64]| {
        for i in (0..n).rev() {
            if x[i] != p[i] {
                return x[i] > p[i];
            }
        }
        true
    };
    for _ in 0..1024 {
        if !at_least_p(&words) {
            let mut out = words_le(&words);
            out.truncate(p_le.len());
            return out;
        }
        let mut borrow = 0u64;
        for i in 0..n {
            let (d, b1) = words[i].overflowing_sub(p[i]);
            let (d, b2) = d.overflowing_sub(borrow);
            words[i] = d;
            borrow = u64::from(b1 || b2);
        }
    }
    panic!("value too far above the modulus");
}

/// curve25519_64: tight 5x51 limbs; multiplication relaxes its inputs (a copy) and carries.
#[derive(Clone, Copy)]
struct Fiat25519(fiat_crypto::curve25519_64::fiat_25519_tight_field_element);

impl Subject for Fiat25519 {
    fn decode(le: &[u8]) -> Self {
        use fiat_crypto::curve25519_64::*;
        let mut out = fiat_25519_tight_field_element([0; 5]);
        fiat_25519_from_bytes(&mut out, le.try_into().unwrap());
        Fiat25519(out)
    }
    fn encode(self, _p: &[u8]) -> Vec<u8> {
        let mut out = [0u8; 32];
        fiat_crypto::curve25519_64::fiat_25519_to_bytes(&mut out, &self.0);
        out.to_vec()
    }
    #[inline(always)]
    fn op_mul(self, y: &Self) -> Self {
        use fiat_crypto::curve25519_64::*;
        let (mut a, mut b) = (
            fiat_25519_loose_field_element([0; 5]),
            fiat_25519_loose_field_element([0; 5]),
        );
        fiat_25519_relax(&mut a, &self.0);
        fiat_25519_relax(&mut b, &y.0);
        let mut out = fiat_25519_tight_field_element([0; 5]);
        fiat_25519_carry_mul(&mut out, &a, &b);
        Fiat25519(out)
    }
    #[inline(always)]
    fn op_square(self) -> Self {
        use fiat_crypto::curve25519_64::*;
        let mut a = fiat_25519_loose_field_element([0; 5]);
        fiat_25519_relax(&mut a, &self.0);
        let mut out = fiat_25519_tight_field_element([0; 5]);
        fiat_25519_carry_square(&mut out, &a);
        Fiat25519(out)
    }
}

/// curve25519_solinas_64: saturated 4x64 limbs.
#[derive(Clone, Copy)]
struct FiatSolinas([u64; 4]);

impl Subject for FiatSolinas {
    fn decode(le: &[u8]) -> Self {
        FiatSolinas(limbs64(le))
    }
    fn encode(self, p: &[u8]) -> Vec<u8> {
        reduce(self.0.to_vec(), p)
    }
    #[inline(always)]
    fn op_mul(self, y: &Self) -> Self {
        let mut out = [0; 4];
        fiat_crypto::curve25519_solinas_64::fiat_curve25519_solinas_mul(&mut out, &self.0, &y.0);
        FiatSolinas(out)
    }
    #[inline(always)]
    fn op_square(self) -> Self {
        let mut out = [0; 4];
        fiat_crypto::curve25519_solinas_64::fiat_curve25519_solinas_square(&mut out, &self.0);
        FiatSolinas(out)
    }
}

/// secp256k1_dettman_64: unsaturated 5x52 limbs (top limb 48 bits).
#[derive(Clone, Copy)]
struct FiatDettman([u64; 5]);

impl Subject for FiatDettman {
    fn decode(le: &[u8]) -> Self {
        let w: [u64; 4] = limbs64(le);
        let m = (1u64 << 52) - 1;
        FiatDettman([
            w[0] & m,
            ((w[0] >> 52) | (w[1] << 12)) & m,
            ((w[1] >> 40) | (w[2] << 24)) & m,
            ((w[2] >> 28) | (w[3] << 36)) & m,
            w[3] >> 16,
        ])
    }
    fn encode(self, p: &[u8]) -> Vec<u8> {
        // Limbs may exceed 52 bits: accumulate sum(limb_i * 2^(52 i)) with carries.
        let mut acc = vec![0u64; 6];
        for (i, &limb) in self.0.iter().enumerate() {
            let (word, shift) = (52 * i / 64, 52 * i % 64);
            let mut carry = u128::from(limb) << shift;
            for a in acc.iter_mut().skip(word) {
                let s = u128::from(*a) + (carry & u128::from(u64::MAX));
                *a = s as u64;
                carry = (carry >> 64) + (s >> 64);
            }
        }
        reduce(acc, p)
    }
    #[inline(always)]
    fn op_mul(self, y: &Self) -> Self {
        let mut out = [0; 5];
        fiat_crypto::secp256k1_dettman_64::fiat_secp256k1_dettman_mul(&mut out, &self.0, &y.0);
        FiatDettman(out)
    }
    #[inline(always)]
    fn op_square(self) -> Self {
        let mut out = [0; 5];
        fiat_crypto::secp256k1_dettman_64::fiat_secp256k1_dettman_square(&mut out, &self.0);
        FiatDettman(out)
    }
}

macro_rules! impl_fiat_montgomery {
    ($wrapper:ident, $m:ident, $mont:ident, $non_mont:ident, $to_mont:ident, $from_mont:ident, $mul:ident, $square:ident) => {
        #[derive(Clone, Copy)]
        struct $wrapper(fiat_crypto::$m::$mont);

        impl Subject for $wrapper {
            fn decode(le: &[u8]) -> Self {
                use fiat_crypto::$m::*;
                let mut out = $mont([0; 4]);
                $to_mont(&mut out, &$non_mont(limbs64(le)));
                $wrapper(out)
            }
            fn encode(self, _p: &[u8]) -> Vec<u8> {
                let mut out = fiat_crypto::$m::$non_mont([0; 4]);
                fiat_crypto::$m::$from_mont(&mut out, &self.0);
                words_le(&out.0)
            }
            #[inline(always)]
            fn op_mul(self, y: &Self) -> Self {
                let mut out = fiat_crypto::$m::$mont([0; 4]);
                fiat_crypto::$m::$mul(&mut out, &self.0, &y.0);
                $wrapper(out)
            }
            #[inline(always)]
            fn op_square(self) -> Self {
                let mut out = fiat_crypto::$m::$mont([0; 4]);
                fiat_crypto::$m::$square(&mut out, &self.0);
                $wrapper(out)
            }
        }
    };
}

impl_fiat_montgomery!(
    FiatP256,
    p256_64,
    fiat_p256_montgomery_domain_field_element,
    fiat_p256_non_montgomery_domain_field_element,
    fiat_p256_to_montgomery,
    fiat_p256_from_montgomery,
    fiat_p256_mul,
    fiat_p256_square
);
impl_fiat_montgomery!(
    FiatSecp256k1,
    secp256k1_montgomery_64,
    fiat_secp256k1_montgomery_montgomery_domain_field_element,
    fiat_secp256k1_montgomery_non_montgomery_domain_field_element,
    fiat_secp256k1_montgomery_to_montgomery,
    fiat_secp256k1_montgomery_from_montgomery,
    fiat_secp256k1_montgomery_mul,
    fiat_secp256k1_montgomery_square
);

// ---------------------------------------------------------------------------------------------
// crrl.

macro_rules! impl_crrl {
    ($($ty:ty),* $(,)?) => {$(
        impl Subject for $ty {
            fn decode(le: &[u8]) -> Self {
                <$ty>::decode_reduce(le)
            }
            fn encode(self, _p: &[u8]) -> Vec<u8> {
                self.encode32().to_vec()
            }
            #[inline(always)]
            fn op_mul(self, y: &Self) -> Self {
                self * y
            }
            #[inline(always)]
            fn op_square(self) -> Self {
                <$ty>::square(self)
            }
        }
    )*};
}

impl_crrl!(
    crrl::field::GF25519,
    crrl::field::GFsecp256k1,
    crrl::field::GFp256
);

// ---------------------------------------------------------------------------------------------
// The matrix.

/// A field's criterion group and inputs; `p_le` is its modulus, little-endian.
fn group<'a>(
    c: &'a mut Criterion,
    id: &str,
    p_le: &[u8],
) -> (BenchmarkGroup<'a, WallTime>, &'static Field, Inputs) {
    let f = field(id).expect("field listed in the library");
    (c.benchmark_group(f.id), f, Inputs::new(f, p_le))
}

fn bn254_fq(c: &mut Criterion) {
    let (mut g, f, inp) = group(c, "bn254-fq", &ours::bn254_p_64::Fp::MODULUS_LE_BYTES);
    let g = &mut g;
    ours!(
        g,
        f,
        &inp,
        [
            ("x86_64-adx", backends::bn254_p_x86_64_adx::Fp, adx()),
            ("portable64", backends::bn254_p_portable64::Fp, true),
            ("portable32", ours::bn254_p_32::Fp, true),
        ]
    );
    column::<ark_bn254::Fq>(g, f, &inp, "ark-ff");
    column::<halo2curves::bn256::Fq>(g, f, &inp, "halo2curves");
    column::<cb_const!(cb::Bn254P, crypto_bigint::U256)>(g, f, &inp, "crypto-bigint-const");
    column::<CbFixed<cb::Bn254P, { crypto_bigint::U256::LIMBS }>>(
        g,
        f,
        &inp,
        "crypto-bigint-fixed",
    );
    column::<substrate_bn::Fq>(g, f, &inp, "substrate-bn");
}

fn bn254_fr(c: &mut Criterion) {
    let (mut g, f, inp) = group(c, "bn254-fr", &ours::bn254_r_64::Fr::MODULUS_LE_BYTES);
    let g = &mut g;
    ours!(
        g,
        f,
        &inp,
        [
            ("x86_64-adx", backends::bn254_r_x86_64_adx::Fr, adx()),
            ("portable64", backends::bn254_r_portable64::Fr, true),
            ("portable32", ours::bn254_r_32::Fr, true),
        ]
    );
    column::<ark_bn254::Fr>(g, f, &inp, "ark-ff");
    column::<halo2curves::bn256::Fr>(g, f, &inp, "halo2curves");
    column::<cb_const!(cb::Bn254R, crypto_bigint::U256)>(g, f, &inp, "crypto-bigint-const");
    column::<CbFixed<cb::Bn254R, { crypto_bigint::U256::LIMBS }>>(
        g,
        f,
        &inp,
        "crypto-bigint-fixed",
    );
    column::<substrate_bn::Fr>(g, f, &inp, "substrate-bn");
}

fn bls12_381_fp(c: &mut Criterion) {
    let (mut g, f, inp) = group(
        c,
        "bls12-381-fp",
        &ours::bls12_381_p_64::Fp::MODULUS_LE_BYTES,
    );
    let g = &mut g;
    ours!(
        g,
        f,
        &inp,
        [
            ("x86_64-adx", backends::bls12_381_p_x86_64_adx::Fp, adx()),
            ("portable64", backends::bls12_381_p_portable64::Fp, true),
            ("portable32", ours::bls12_381_p_32::Fp, true),
        ]
    );
    column::<ark_bls12_381::Fq>(g, f, &inp, "ark-ff");
    column::<halo2curves::bls12381::Fq>(g, f, &inp, "halo2curves");
    column::<blst::blst_fp>(g, f, &inp, "blst");
    column::<cb_const!(cb::Bls12381P, crypto_bigint::U384)>(g, f, &inp, "crypto-bigint-const");
    column::<CbFixed<cb::Bls12381P, { crypto_bigint::U384::LIMBS }>>(
        g,
        f,
        &inp,
        "crypto-bigint-fixed",
    );
}

fn curve25519_p(c: &mut Criterion) {
    let (mut g, f, inp) = group(
        c,
        "curve25519-p",
        &ours::curve25519_p_64::Fp::MODULUS_LE_BYTES,
    );
    let g = &mut g;
    ours_in_use!(g, f, &inp, "", ours::curve25519_p_64::Fp);
    ours_in_use!(g, f, &inp, "", ours::curve25519_p_32::Fp);
    ours_in_use!(
        g,
        f,
        &inp,
        "montgomery",
        ours::curve25519_p_montgomery_64::Fp
    );
    ours_in_use!(
        g,
        f,
        &inp,
        "unsaturated",
        ours::curve25519_p_unsaturated_64::Fp
    );
    ours_in_use!(
        g,
        f,
        &inp,
        "unsaturated",
        ours::curve25519_p_unsaturated_32::Fp
    );
    column::<Fiat25519>(g, f, &inp, "fiat-5x51");
    column::<FiatSolinas>(g, f, &inp, "fiat-solinas");
    column::<crrl::field::GF25519>(g, f, &inp, "crrl");
}

fn secp256k1_p(c: &mut Criterion) {
    let (mut g, f, inp) = group(
        c,
        "secp256k1-p",
        &ours::secp256k1_p_64::Fp::MODULUS_LE_BYTES,
    );
    let g = &mut g;
    ours_in_use!(g, f, &inp, "", ours::secp256k1_p_64::Fp);
    ours_in_use!(g, f, &inp, "", ours::secp256k1_p_32::Fp);
    ours_in_use!(
        g,
        f,
        &inp,
        "montgomery",
        ours::secp256k1_p_montgomery_64::Fp
    );
    ours_in_use!(g, f, &inp, "solinas", ours::secp256k1_p_solinas_32::Fp);
    column::<halo2curves::secp256k1::Fp>(g, f, &inp, "halo2curves");
    column::<FiatDettman>(g, f, &inp, "fiat-dettman");
    column::<FiatSecp256k1>(g, f, &inp, "fiat-montgomery");
    column::<crrl::field::GFsecp256k1>(g, f, &inp, "crrl");
}

fn p256_p(c: &mut Criterion) {
    let (mut g, f, inp) = group(c, "p256-p", &ours::p256_p_64::Fp::MODULUS_LE_BYTES);
    let g = &mut g;
    ours!(
        g,
        f,
        &inp,
        [
            ("x86_64-adx", backends::p256_p_x86_64_adx::Fp, adx()),
            ("portable64", backends::p256_p_portable64::Fp, true),
            ("portable32", ours::p256_p_32::Fp, true),
        ]
    );
    ours_in_use!(g, f, &inp, "solinas", ours::p256_p_solinas_64::Fp);
    ours_in_use!(g, f, &inp, "solinas", ours::p256_p_solinas_32::Fp);
    column::<halo2curves::secp256r1::Fp>(g, f, &inp, "halo2curves");
    column::<FiatP256>(g, f, &inp, "fiat-montgomery");
    column::<crrl::field::GFp256>(g, f, &inp, "crrl");
}

/// Defaults sized so the whole matrix fits in about ten minutes on two cores; the command line
/// (`--warm-up-time`, `--measurement-time`, `--sample-size`, `--quick`) overrides them.
fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(50)
        .without_plots()
}

criterion_group! {
    name = fields;
    config = config();
    targets = bn254_fq, bn254_fr, bls12_381_fp, curve25519_p, secp256k1_p, p256_p
}
criterion_main!(fields);
