//! The properties of the suite, one public function per generated `#[test]` (same name).
//!
//! Every function takes the field's [`FieldCtx`] and checks the generated type (through
//! [`FieldUnderTest`]) against the num-bigint oracle. Field elements always enter through
//! `from_le_bytes` of the oracle's encoding and leave through `to_le_bytes`, so a value is never
//! built from the implementation's own arithmetic. `*_random` functions run proptest with
//! [`crate::proptest_config`]; `*_edges` functions run deterministically over the edge values
//! (see [`crate::edge`]). A failure panics with the field's name, the modulus, the operation and
//! the operands in hexadecimal.

use num_bigint::BigUint;
use num_traits::{One, Zero};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;
use proptest::strategy::BoxedStrategy;
use proptest::test_runner::{TestCaseError, TestRunner};

use crate::api::FieldUnderTest;
use crate::ctx::{proptest_config, FieldCtx};
use crate::oracle;

/// Outcome of one case: `Err` carries the failure message.
pub type CaseResult = Result<(), TestCaseError>;

macro_rules! ensure {
    ($cond:expr, $($fmt:tt)+) => {
        if !$cond {
            return Err(TestCaseError::fail(format!($($fmt)+)));
        }
    };
}

// ---------------------------------------------------------------------------------------------
// Plumbing

/// Runs `test` on `strategy`'s values. The strategy is boxed and the test taken as `&dyn Fn`
/// before proptest's runner sees them, so the runner is compiled once per value type rather
/// than once per property and field type: the suite is expanded for every field of a test
/// binary, and those copies dominated its compile time.
fn run<S>(ctx: &FieldCtx, property: &str, strategy: S, test: impl Fn(S::Value) -> CaseResult)
where
    S: Strategy + 'static,
{
    run_boxed(ctx, property, strategy.boxed(), &test)
}

fn run_boxed<T: core::fmt::Debug>(
    ctx: &FieldCtx,
    property: &str,
    strategy: BoxedStrategy<T>,
    test: &dyn Fn(T) -> CaseResult,
) {
    let mut runner = TestRunner::new(proptest_config());
    if let Err(e) = runner.run(&strategy, test) {
        panic!(
            "{} (p = {:#x}): property `{property}` failed: {e}",
            ctx.name, ctx.p
        );
    }
}

fn each<T>(
    ctx: &FieldCtx,
    property: &str,
    items: impl IntoIterator<Item = T>,
    test: impl Fn(&T) -> CaseResult,
) {
    each_dyn(ctx, property, &mut items.into_iter(), &test)
}

/// [`each`] behind trait objects, compiled once per item type (see [`run`]).
fn each_dyn<T>(
    ctx: &FieldCtx,
    property: &str,
    items: &mut dyn Iterator<Item = T>,
    test: &dyn Fn(&T) -> CaseResult,
) {
    for item in items {
        if let Err(e) = test(&item) {
            panic!(
                "{} (p = {:#x}): property `{property}` failed: {e}",
                ctx.name, ctx.p
            );
        }
    }
}

/// The element with canonical value `x < p`, entered through `from_le_bytes`.
fn enter<F: FieldUnderTest>(ctx: &FieldCtx, x: &BigUint) -> Result<F, TestCaseError> {
    F::from_le_bytes(&ctx.le(x)).ok_or_else(|| {
        TestCaseError::fail(format!(
            "from_le_bytes rejected the canonical value {}",
            ctx.hex(x)
        ))
    })
}

/// The canonical value of `x`, read through `to_le_bytes`.
fn value<F: FieldUnderTest>(x: &F) -> BigUint {
    oracle::from_le_bytes(&x.to_le_bytes())
}

/// Checks that `got` has the value `want`, and that it compares equal (`==` and `ct_eq`) to the
/// element decoded from `want`'s encoding, so that a result left in a non-unique internal form
/// (e.g. `p` instead of `0`) is caught even when its encoding is right; `what` describes the
/// computation for the message.
fn expect<F: FieldUnderTest>(
    ctx: &FieldCtx,
    got: &F,
    want: &BigUint,
    what: impl FnOnce() -> String,
) -> CaseResult {
    let mut what = Some(what);
    expect_dyn(ctx, got, want, &mut || {
        what.take().map_or_else(String::new, |f| f())
    })
}

/// [`expect`] with the description behind a trait object, compiled once per field type.
fn expect_dyn<F: FieldUnderTest>(
    ctx: &FieldCtx,
    got: &F,
    want: &BigUint,
    what: &mut dyn FnMut() -> String,
) -> CaseResult {
    let g = value(got);
    if &g != want {
        return Err(TestCaseError::fail(format!(
            "{}: got {}, expected {}",
            what(),
            ctx.hex(&g),
            ctx.hex(want)
        )));
    }
    let w = enter::<F>(ctx, want)?;
    ensure!(
        got.partial_eq(&w) && got.ct_eq(&w),
        "{}: the result encodes {} but is not equal (`==`: {}, `ct_eq`: {}) to the element decoded \
         from that encoding (non-canonical internal representation?)",
        what(),
        ctx.hex(want),
        got.partial_eq(&w),
        got.ct_eq(&w)
    );
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Strategies

/// A uniformly drawn `B`-byte integer reduced mod `p` (3 times in 4) or an edge value (1 in 4).
pub fn element(ctx: &FieldCtx) -> BoxedStrategy<BigUint> {
    let p = ctx.p.clone();
    let random = vec(any::<u8>(), ctx.byte_len).prop_map(move |b| oracle::from_le_bytes(&b) % &p);
    prop_oneof![3 => random, 1 => select(ctx.edges.clone())].boxed()
}

/// Two elements, equal one time in ten (for `a - a`, `a == a`, aliasing).
pub fn pair(ctx: &FieldCtx) -> BoxedStrategy<(BigUint, BigUint)> {
    prop_oneof![
        9 => (element(ctx), element(ctx)),
        1 => element(ctx).prop_map(|a| (a.clone(), a)),
    ]
    .boxed()
}

/// A square `y²` for a random element `y` (zero included).
pub fn square(ctx: &FieldCtx) -> BoxedStrategy<BigUint> {
    let p = ctx.p.clone();
    element(ctx)
        .prop_map(move |y| oracle::square_mod(&y, &p))
        .boxed()
}

/// A non-square `z·y²`, `z` the smallest non-residue and `y` a random non-zero element.
pub fn non_square(ctx: &FieldCtx) -> BoxedStrategy<BigUint> {
    let p = ctx.p.clone();
    let z = ctx.non_residue.clone();
    element(ctx)
        .prop_map(move |y| {
            let y = if y.is_zero() { BigUint::one() } else { y };
            oracle::mul_mod(&z, &oracle::square_mod(&y, &p), &p)
        })
        .boxed()
}

/// An integer in `[p, 2^(8·B))`: a value that fits the encoding but is not canonical.
pub fn non_canonical(ctx: &FieldCtx) -> BoxedStrategy<BigUint> {
    let p = ctx.p.clone();
    let span = (BigUint::one() << (8 * ctx.byte_len)) - &p;
    vec(any::<u8>(), ctx.byte_len)
        .prop_map(move |b| &p + oracle::from_le_bytes(&b) % &span)
        .boxed()
}

/// A random exponent of 0 to 5 little-endian 64-bit words.
pub fn exponent() -> BoxedStrategy<Vec<u64>> {
    vec(any::<u64>(), 0..=5).boxed()
}

/// The edge exponents: `0` (as `[]`, `[0]` and `[0, 0, 0]`), `1`, `2`, `2^64 - 1`, `2^64`,
/// `(p-1)/2` (Euler's criterion), `p-2` (Fermat inversion), `p-1` (Fermat's little theorem),
/// `p`, `p+1`, and `p-1` with a trailing zero word.
pub fn edge_exponents(ctx: &FieldCtx) -> Vec<Vec<u64>> {
    let p = &ctx.p;
    let words = |x: &BigUint| oracle::to_u64_words_le(x);
    let mut p_minus_1_padded = words(&(p - 1u32));
    p_minus_1_padded.push(0);
    vec![
        vec![],
        vec![0],
        vec![0, 0, 0],
        vec![1],
        vec![2],
        vec![u64::MAX],
        vec![0, 1],
        words(&((p - 1u32) >> 1)),
        words(&(p - 2u32)),
        words(&(p - 1u32)),
        words(p),
        words(&(p + 1u32)),
        p_minus_1_padded,
    ]
}

// ---------------------------------------------------------------------------------------------
// Cases

/// The binary operations.
#[derive(Clone, Copy, Debug)]
pub enum BinOp {
    /// Addition mod p.
    Add,
    /// Subtraction mod p.
    Sub,
    /// Multiplication mod p.
    Mul,
}

impl BinOp {
    fn name(self) -> &'static str {
        match self {
            BinOp::Add => "add",
            BinOp::Sub => "sub",
            BinOp::Mul => "mul",
        }
    }

    fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
        }
    }

    fn oracle(self, a: &BigUint, b: &BigUint, p: &BigUint) -> BigUint {
        match self {
            BinOp::Add => oracle::add_mod(a, b, p),
            BinOp::Sub => oracle::sub_mod(a, b, p),
            BinOp::Mul => oracle::mul_mod(a, b, p),
        }
    }

    fn method<F: FieldUnderTest>(self, x: &F, y: &F) -> F {
        match self {
            BinOp::Add => x.add(y),
            BinOp::Sub => x.sub(y),
            BinOp::Mul => x.mul(y),
        }
    }

    /// The operator forms: `a op b`, `&a op &b`, `a op= b`, `a op= &b`.
    fn forms<F: FieldUnderTest>(self, x: F, y: F) -> [(&'static str, F); 4] {
        let (mut assign, mut assign_ref) = (x, x);
        match self {
            BinOp::Add => {
                assign.op_add_assign(y);
                assign_ref.op_add_assign_ref(&y);
                [
                    ("a + b", x.op_add(y)),
                    ("&a + &b", x.op_add_ref(&y)),
                    ("a += b", assign),
                    ("a += &b", assign_ref),
                ]
            }
            BinOp::Sub => {
                assign.op_sub_assign(y);
                assign_ref.op_sub_assign_ref(&y);
                [
                    ("a - b", x.op_sub(y)),
                    ("&a - &b", x.op_sub_ref(&y)),
                    ("a -= b", assign),
                    ("a -= &b", assign_ref),
                ]
            }
            BinOp::Mul => {
                assign.op_mul_assign(y);
                assign_ref.op_mul_assign_ref(&y);
                [
                    ("a * b", x.op_mul(y)),
                    ("&a * &b", x.op_mul_ref(&y)),
                    ("a *= b", assign),
                    ("a *= &b", assign_ref),
                ]
            }
        }
    }
}

/// `Fp::op(&a, &b)` and the four operator forms all equal the oracle's `a op b mod p`.
pub fn case_binary<F: FieldUnderTest>(
    ctx: &FieldCtx,
    op: BinOp,
    a: &BigUint,
    b: &BigUint,
) -> CaseResult {
    let (x, y) = (enter::<F>(ctx, a)?, enter::<F>(ctx, b)?);
    let want = op.oracle(a, b, &ctx.p);
    expect(ctx, &op.method(&x, &y), &want, || {
        format!("Fp::{}({}, {})", op.name(), ctx.hex(a), ctx.hex(b))
    })?;
    for (form, got) in op.forms(x, y) {
        expect(ctx, &got, &want, || {
            format!(
                "`{form}` (`{}`) with a = {}, b = {}",
                op.symbol(),
                ctx.hex(a),
                ctx.hex(b)
            )
        })?;
    }
    Ok(())
}

/// The unary operations.
#[derive(Clone, Copy, Debug)]
pub enum UnOp {
    /// Negation mod p.
    Neg,
    /// Doubling mod p.
    Double,
    /// Squaring mod p.
    Square,
}

/// `Fp::neg`/`double`/`square` equal the oracle; also `-a`, `-&a` for neg, `a.add(&a)` for double,
/// `a.mul(&a)` for square.
pub fn case_unary<F: FieldUnderTest>(ctx: &FieldCtx, op: UnOp, a: &BigUint) -> CaseResult {
    let x = enter::<F>(ctx, a)?;
    let p = &ctx.p;
    let ha = ctx.hex(a);
    match op {
        UnOp::Neg => {
            let want = oracle::neg_mod(a, p);
            expect(ctx, &x.neg(), &want, || format!("Fp::neg({ha})"))?;
            expect(ctx, &x.op_neg(), &want, || format!("`-a` with a = {ha}"))?;
            expect(ctx, &x.op_neg_ref(), &want, || {
                format!("`-&a` with a = {ha}")
            })?;
        }
        UnOp::Double => {
            let want = oracle::add_mod(a, a, p);
            expect(ctx, &x.double(), &want, || format!("Fp::double({ha})"))?;
            expect(ctx, &x.add(&x), &want, || {
                format!("Fp::add(a, a) with a = {ha}")
            })?;
        }
        UnOp::Square => {
            let want = oracle::square_mod(a, p);
            expect(ctx, &x.square(), &want, || format!("Fp::square({ha})"))?;
            expect(ctx, &x.mul(&x), &want, || {
                format!("Fp::mul(a, a) with a = {ha}")
            })?;
        }
    }
    Ok(())
}

/// `pow` and `pow_vartime` equal the oracle's `a^e mod p` (with `x^0 = 1`, also for `x = 0`).
pub fn case_pow<F: FieldUnderTest>(ctx: &FieldCtx, a: &BigUint, exp_le: &[u64]) -> CaseResult {
    let x = enter::<F>(ctx, a)?;
    let want = oracle::pow_mod_words(a, exp_le, &ctx.p);
    expect(ctx, &x.pow(exp_le), &want, || {
        format!("Fp::pow({}, {exp_le:#x?})", ctx.hex(a))
    })?;
    expect(ctx, &x.pow_vartime(exp_le), &want, || {
        format!("Fp::pow_vartime({}, {exp_le:#x?})", ctx.hex(a))
    })
}

/// `invert` is none for zero; otherwise it is the oracle's inverse and `x · x⁻¹ = 1`.
pub fn case_invert<F: FieldUnderTest>(ctx: &FieldCtx, a: &BigUint) -> CaseResult {
    let x = enter::<F>(ctx, a)?;
    let ha = ctx.hex(a);
    let want = oracle::inverse_mod(a, &ctx.p);
    let vartime = x.invert_vartime().map(|v| value(&v));
    if vartime != want {
        return Err(TestCaseError::fail(format!(
            "Fp::invert_vartime({ha}) is {:?}, expected {:?}",
            vartime.map(|v| ctx.hex(&v)),
            want.as_ref().map(|v| ctx.hex(v))
        )));
    }
    match (x.invert(), want) {
        (None, None) => Ok(()),
        (Some(v), None) => Err(TestCaseError::fail(format!(
            "Fp::invert({ha}) is some({}), expected none",
            ctx.hex(&value(&v))
        ))),
        (None, Some(_)) => Err(TestCaseError::fail(format!(
            "Fp::invert({ha}) is none, expected some"
        ))),
        (Some(v), Some(want)) => {
            expect(ctx, &v, &want, || format!("Fp::invert({ha})"))?;
            expect(ctx, &x.mul(&v), &BigUint::one(), || {
                format!("a · Fp::invert(a) with a = {ha}")
            })
        }
    }
}

/// `sqrt` is some root `r` with `r² = a` exactly when the oracle says `a` is a square (zero
/// included, with root zero), and none otherwise.
pub fn case_sqrt<F: FieldUnderTest>(ctx: &FieldCtx, a: &BigUint) -> CaseResult {
    let x = enter::<F>(ctx, a)?;
    let ha = ctx.hex(a);
    let square = oracle::is_square(a, &ctx.p);
    match x.sqrt() {
        Some(r) => {
            ensure!(square, "Fp::sqrt({ha}) is some, but {ha} is not a square");
            let rv = value(&r);
            ensure!(
                oracle::square_mod(&rv, &ctx.p) == *a,
                "Fp::sqrt({ha}) = {}, whose square is {}",
                ctx.hex(&rv),
                ctx.hex(&oracle::square_mod(&rv, &ctx.p))
            );
            Ok(())
        }
        None => {
            ensure!(!square, "Fp::sqrt({ha}) is none, but {ha} is a square");
            Ok(())
        }
    }
}

/// `legendre`, `legendre_vartime` and `legendre_euler` equal Euler's criterion computed with
/// num-bigint: -1, 0 or 1.
pub fn case_legendre<F: FieldUnderTest>(ctx: &FieldCtx, a: &BigUint) -> CaseResult {
    let x = enter::<F>(ctx, a)?;
    let want = oracle::legendre(a, &ctx.p);
    for (name, got) in [
        ("legendre", x.legendre()),
        ("legendre_vartime", x.legendre_vartime()),
        ("legendre_euler", x.legendre_euler()),
    ] {
        ensure!(
            got == want,
            "Fp::{name}({}) = {got}, expected {want}",
            ctx.hex(a)
        );
    }
    Ok(())
}

/// `is_zero` is true exactly for zero.
pub fn case_is_zero<F: FieldUnderTest>(ctx: &FieldCtx, a: &BigUint) -> CaseResult {
    let x = enter::<F>(ctx, a)?;
    ensure!(
        x.is_zero() == a.is_zero(),
        "Fp::is_zero({}) = {}",
        ctx.hex(a),
        x.is_zero()
    );
    Ok(())
}

/// `batch_invert` replaces every non-zero element by its inverse and leaves every zero as zero
/// (the suite's convention), agreeing with the oracle and, for fields of at most
/// [`COSTLY_EDGES_ALL_MAX_BITS`](crate::COSTLY_EDGES_ALL_MAX_BITS) bits, with element-wise `invert`.
pub fn case_batch_invert<F: FieldUnderTest>(ctx: &FieldCtx, values: &[BigUint]) -> CaseResult {
    let mut elems = values
        .iter()
        .map(|a| enter::<F>(ctx, a))
        .collect::<Result<Vec<F>, _>>()?;
    let originals = elems.clone();
    F::batch_invert(&mut elems);
    let shown = || {
        values
            .iter()
            .map(|v| ctx.hex(v))
            .collect::<Vec<_>>()
            .join(", ")
    };
    ensure!(
        elems.len() == values.len(),
        "Fp::batch_invert changed the slice length"
    );
    for (i, (a, got)) in values.iter().zip(&elems).enumerate() {
        let want = oracle::inverse_mod(a, &ctx.p).unwrap_or_default();
        expect(ctx, got, &want, || {
            format!("Fp::batch_invert([{}]) at index {i}", shown())
        })?;
        if ctx.is_narrow() {
            let single = originals[i].invert().unwrap_or_else(F::zero);
            expect(ctx, got, &value(&single), || {
                format!(
                    "Fp::batch_invert([{}]) at index {i} vs Fp::invert (or zero)",
                    shown()
                )
            })?;
        }
    }
    Ok(())
}

/// `==`, `!=` and `ct_eq` agree with equality of the oracle values.
pub fn case_eq<F: FieldUnderTest>(ctx: &FieldCtx, a: &BigUint, b: &BigUint) -> CaseResult {
    let (x, y) = (enter::<F>(ctx, a)?, enter::<F>(ctx, b)?);
    let want = a == b;
    let (ha, hb) = (ctx.hex(a), ctx.hex(b));
    ensure!(x.partial_eq(&y) == want, "({ha} == {hb}) is {}", !want);
    ensure!(x.partial_ne(&y) != want, "({ha} != {hb}) is {want}");
    ensure!(x.ct_eq(&y) == want, "ct_eq({ha}, {hb}) is {}", !want);
    ensure!(
        x.partial_eq(&x) && x.ct_eq(&x),
        "{ha} is not equal to itself"
    );
    Ok(())
}

/// `conditional_select(a, b, c)` is `a` for `c = 0` and `b` for `c = 1`; likewise
/// `conditional_assign` and `conditional_swap`.
pub fn case_select<F: FieldUnderTest>(ctx: &FieldCtx, a: &BigUint, b: &BigUint) -> CaseResult {
    let (x, y) = (enter::<F>(ctx, a)?, enter::<F>(ctx, b)?);
    let (ha, hb) = (ctx.hex(a), ctx.hex(b));
    expect(ctx, &F::conditional_select(&x, &y, false), a, || {
        format!("conditional_select({ha}, {hb}, 0)")
    })?;
    expect(ctx, &F::conditional_select(&x, &y, true), b, || {
        format!("conditional_select({ha}, {hb}, 1)")
    })?;
    for (choice, want) in [(false, a), (true, b)] {
        let mut t = x;
        t.conditional_assign(&y, choice);
        expect(ctx, &t, want, || {
            format!("conditional_assign({ha} <- {hb}, {})", choice as u8)
        })?;
        let (mut s, mut u) = (x, y);
        F::conditional_swap(&mut s, &mut u, choice);
        let (ws, wu) = if choice { (b, a) } else { (a, b) };
        expect(ctx, &s, ws, || {
            format!("conditional_swap({ha}, {hb}, {}).0", choice as u8)
        })?;
        expect(ctx, &u, wu, || {
            format!("conditional_swap({ha}, {hb}, {}).1", choice as u8)
        })?;
    }
    Ok(())
}

/// `to_le_bytes`/`to_be_bytes` equal the oracle's `B`-byte encodings, and `from_le_bytes`/
/// `from_be_bytes` of those encodings give the value back.
pub fn case_encoding<F: FieldUnderTest>(ctx: &FieldCtx, a: &BigUint) -> CaseResult {
    let x = enter::<F>(ctx, a)?;
    let ha = ctx.hex(a);
    let (le, be) = (ctx.le(a), ctx.be(a));
    ensure!(
        x.to_le_bytes() == le,
        "to_le_bytes({ha}) = {:02x?}, expected {le:02x?}",
        x.to_le_bytes()
    );
    ensure!(
        x.to_be_bytes() == be,
        "to_be_bytes({ha}) = {:02x?}, expected {be:02x?}",
        x.to_be_bytes()
    );
    let from_be = F::from_be_bytes(&be).ok_or_else(|| {
        TestCaseError::fail(format!("from_be_bytes rejected the canonical value {ha}"))
    })?;
    expect(ctx, &from_be, a, || format!("from_be_bytes({be:02x?})"))?;
    let again = F::from_le_bytes(&x.to_le_bytes())
        .ok_or_else(|| TestCaseError::fail(format!("from_le_bytes(to_le_bytes({ha})) is none")))?;
    expect(ctx, &again, a, || {
        format!("from_le_bytes(to_le_bytes({ha}))")
    })?;
    let again = F::from_be_bytes(&x.to_be_bytes())
        .ok_or_else(|| TestCaseError::fail(format!("from_be_bytes(to_be_bytes({ha})) is none")))?;
    expect(ctx, &again, a, || {
        format!("from_be_bytes(to_be_bytes({ha}))")
    })
}

/// `format!("{:?}", x)` is exactly `0x` followed by `2·B` lowercase hexadecimal digits of the
/// canonical value, big-endian, zero-padded.
pub fn case_debug<F: FieldUnderTest>(ctx: &FieldCtx, a: &BigUint) -> CaseResult {
    let x = enter::<F>(ctx, a)?;
    let (got, want) = (x.debug_string(), oracle::hex_be(a, ctx.byte_len));
    ensure!(
        got == want,
        "format!(\"{{:?}}\") = {got:?}, expected {want:?}"
    );
    Ok(())
}

/// `from_le_bytes` and `from_be_bytes` reject the encoding of `v ≥ p`.
pub fn case_reject<F: FieldUnderTest>(ctx: &FieldCtx, v: &BigUint) -> CaseResult {
    assert!(v >= &ctx.p && oracle::fits_in_bytes(v, ctx.byte_len));
    let (le, be) = (ctx.le(v), ctx.be(v));
    ensure!(
        F::from_le_bytes(&le).is_none(),
        "from_le_bytes accepted the non-canonical value {} = p + {:#x}",
        ctx.hex(v),
        v - &ctx.p
    );
    ensure!(
        F::from_be_bytes(&be).is_none(),
        "from_be_bytes accepted the non-canonical value {} = p + {:#x}",
        ctx.hex(v),
        v - &ctx.p
    );
    Ok(())
}

/// `from_u64(v)` is `v mod p`.
pub fn case_from_u64<F: FieldUnderTest>(ctx: &FieldCtx, v: u64) -> CaseResult {
    let want = BigUint::from(v) % &ctx.p;
    expect(ctx, &F::from_u64(v), &want, || {
        format!("Fp::from_u64({v:#x})")
    })
}

// ---------------------------------------------------------------------------------------------
// Tests: one function per generated #[test], same name.

/// `MODULUS_LE_BYTES` is the oracle's `B`-byte little-endian encoding of `p` (with `B =
/// ceil(bits / 8)`), and `NUM_BITS = bits(p)`.
pub fn modulus_constants<F: FieldUnderTest>(ctx: &FieldCtx) {
    let got = F::modulus_le_bytes();
    assert_eq!(
        got.len(),
        ctx.byte_len,
        "{}: MODULUS_LE_BYTES has {} bytes, expected B = ceil({} / 8) = {}",
        ctx.name,
        got.len(),
        ctx.bits,
        ctx.byte_len
    );
    assert!(
        got == ctx.le(&ctx.p),
        "{}: MODULUS_LE_BYTES is {:#x}, but the test's modulus is {:#x}",
        ctx.name,
        oracle::from_le_bytes(&got),
        ctx.p
    );
    assert_eq!(
        F::NUM_BITS,
        ctx.bits,
        "{}: NUM_BITS is {}, expected {}",
        ctx.name,
        F::NUM_BITS,
        ctx.bits
    );
}

/// The test author's modulus is an odd probable prime (catches a mistyped modulus text).
pub fn modulus_is_prime<F: FieldUnderTest>(ctx: &FieldCtx) {
    assert!(
        oracle::is_probable_prime(&ctx.p),
        "{}: the test's modulus {:#x} is not prime",
        ctx.name,
        ctx.p
    );
}

/// `ZERO` is 0, `ONE` is 1, `Default` is `ZERO`; `is_zero` and `==` agree.
pub fn constants<F: FieldUnderTest>(ctx: &FieldCtx) {
    let check = |what: &str, x: F, want: u32| {
        let got = value(&x);
        assert!(
            got == BigUint::from(want),
            "{}: {what} has value {}, expected {want}",
            ctx.name,
            ctx.hex(&got)
        );
    };
    check("Fp::ZERO", F::zero(), 0);
    check("Fp::ONE", F::one(), 1);
    check("Fp::default()", F::default_value(), 0);
    assert!(F::zero().is_zero(), "{}: ZERO.is_zero() is false", ctx.name);
    assert!(!F::one().is_zero(), "{}: ONE.is_zero() is true", ctx.name);
    assert!(
        F::default_value().partial_eq(&F::zero()),
        "{}: Fp::default() != ZERO",
        ctx.name
    );
    assert!(F::one().partial_ne(&F::zero()), "{}: ONE == ZERO", ctx.name);
}

/// Encodings of every edge value.
pub fn encoding_edges<F: FieldUnderTest>(ctx: &FieldCtx) {
    each(ctx, "encoding_edges", &ctx.edges, |a| {
        case_encoding::<F>(ctx, a)
    });
}

/// Encodings of random values.
pub fn encoding_random<F: FieldUnderTest>(ctx: &FieldCtx) {
    run(ctx, "encoding_random", element(ctx), |a| {
        case_encoding::<F>(ctx, &a)
    });
}

/// Debug format of every edge value.
pub fn debug_edges<F: FieldUnderTest>(ctx: &FieldCtx) {
    each(ctx, "debug_edges", &ctx.edges, |a| case_debug::<F>(ctx, a));
}

/// Debug format of random values.
pub fn debug_random<F: FieldUnderTest>(ctx: &FieldCtx) {
    run(ctx, "debug_random", element(ctx), |a| {
        case_debug::<F>(ctx, &a)
    });
}

/// Decoding accepts `p - 1` and rejects `p`, `p + 1`, `p + 2`, `2p - 1`, `2p`, `p + 2^(w·k)`,
/// `p` with a limb set to all ones, `2^bits - 1`, `2^(8·B) - 2` and `2^(8·B) - 1`: each that is
/// `≥ p` and fits in `B` bytes.
pub fn decoding_rejects_edges<F: FieldUnderTest>(ctx: &FieldCtx) {
    let p = &ctx.p;
    let top = BigUint::one() << (8 * ctx.byte_len);
    let all_ones_bits = (BigUint::one() << ctx.bits) - 1u32;
    let mut candidates = vec![
        p.clone(),
        p + 1u32,
        p + 2u32,
        (p << 1u32) - 1u32,
        p << 1u32,
        all_ones_bits,
        &top - 2u32,
        &top - 1u32,
    ];
    let w = ctx.limb_bits as usize;
    let limb_mask = (BigUint::one() << w) - 1u32;
    for k in 0..ctx.limbs {
        candidates.push(p + (BigUint::one() << (w * k)));
        candidates.push(p | (&limb_mask << (w * k)));
    }
    let rejected: Vec<BigUint> = candidates
        .into_iter()
        .filter(|v| v >= p && oracle::fits_in_bytes(v, ctx.byte_len))
        .collect();
    assert!(
        rejected.iter().any(|v| v == p),
        "p itself must be among the rejected values"
    );
    each(ctx, "decoding_rejects_edges", &rejected, |v| {
        case_reject::<F>(ctx, v)
    });
    let p_minus_1 = p - 1u32;
    each(ctx, "decoding_accepts_p_minus_1", [&p_minus_1], |a| {
        case_encoding::<F>(ctx, a)
    });
}

/// Decoding rejects random values in `[p, 2^(8·B))`.
pub fn decoding_rejects_random<F: FieldUnderTest>(ctx: &FieldCtx) {
    run(ctx, "decoding_rejects_random", non_canonical(ctx), |v| {
        case_reject::<F>(ctx, &v)
    });
}

/// `from_u64` of 0, 1, 2, 3, `2^w - 1`, `2^w` (for `w < 64`), `2^32 - 1`, `2^32`, `2^63 - 1`,
/// `2^63`, `u64::MAX - 1`, `u64::MAX`, and `p - 1`, `p`, `p + 1`, `2p` when they fit in a `u64`.
pub fn from_u64_edges<F: FieldUnderTest>(ctx: &FieldCtx) {
    let mut values: Vec<u64> = vec![
        0,
        1,
        2,
        3,
        u32::MAX as u64,
        1 << 32,
        (1 << 63) - 1,
        1 << 63,
        u64::MAX - 1,
        u64::MAX,
    ];
    if ctx.limb_bits < 64 {
        values.push((1u64 << ctx.limb_bits) - 1);
        values.push(1u64 << ctx.limb_bits);
    }
    let p = &ctx.p;
    for v in [p - 1u32, p.clone(), p + 1u32, p << 1u32] {
        if let Ok(v) = u64::try_from(v) {
            values.push(v);
        }
    }
    each(ctx, "from_u64_edges", values, |v| {
        case_from_u64::<F>(ctx, *v)
    });
}

/// `from_u64` of random `u64`s.
pub fn from_u64_random<F: FieldUnderTest>(ctx: &FieldCtx) {
    run(ctx, "from_u64_random", any::<u64>(), |v| {
        case_from_u64::<F>(ctx, v)
    });
}

fn binary_edges<F: FieldUnderTest>(ctx: &FieldCtx, op: BinOp) {
    each(
        ctx,
        &format!("{}_edges", op.name()),
        ctx.edge_pairs(),
        |(a, b)| case_binary::<F>(ctx, op, a, b),
    );
}

fn binary_random<F: FieldUnderTest>(ctx: &FieldCtx, op: BinOp) {
    run(
        ctx,
        &format!("{}_random", op.name()),
        pair(ctx),
        |(a, b)| case_binary::<F>(ctx, op, &a, &b),
    );
}

/// Addition on all pairs of edge values (see [`FieldCtx::edge_pairs`]).
pub fn add_edges<F: FieldUnderTest>(ctx: &FieldCtx) {
    binary_edges::<F>(ctx, BinOp::Add);
}

/// Addition on random pairs.
pub fn add_random<F: FieldUnderTest>(ctx: &FieldCtx) {
    binary_random::<F>(ctx, BinOp::Add);
}

/// Subtraction on all pairs of edge values.
pub fn sub_edges<F: FieldUnderTest>(ctx: &FieldCtx) {
    binary_edges::<F>(ctx, BinOp::Sub);
}

/// Subtraction on random pairs.
pub fn sub_random<F: FieldUnderTest>(ctx: &FieldCtx) {
    binary_random::<F>(ctx, BinOp::Sub);
}

/// Multiplication on all pairs of edge values.
pub fn mul_edges<F: FieldUnderTest>(ctx: &FieldCtx) {
    binary_edges::<F>(ctx, BinOp::Mul);
}

/// Multiplication on random pairs.
pub fn mul_random<F: FieldUnderTest>(ctx: &FieldCtx) {
    binary_random::<F>(ctx, BinOp::Mul);
}

/// Edge multipliers of `mul_small`: the smallest, the curve constants it exists for (19, 38,
/// a24 = 121665, 121666 of RFC 7748 §5), powers of two and the largest word.
pub const MUL_SMALL_EDGE_KS: [u32; 11] = [
    0,
    1,
    2,
    3,
    19,
    38,
    121665,
    121666,
    1 << 16,
    1 << 31,
    u32::MAX,
];

/// `mul_small(k)` of `a` and of the sum `a + b` (which a loose form may store above p) equal
/// the oracle products.
pub fn case_mul_small<F: FieldUnderTest>(
    ctx: &FieldCtx,
    a: &BigUint,
    b: &BigUint,
    k: u32,
) -> CaseResult {
    let x = enter::<F>(ctx, a)?;
    let y = enter::<F>(ctx, b)?;
    let p = &ctx.p;
    let kk = BigUint::from(k);
    let (ha, hb) = (ctx.hex(a), ctx.hex(b));
    let want = oracle::mul_mod(a, &kk, p);
    expect(ctx, &x.mul_small(k), &want, || {
        format!("Fp::mul_small({ha}, {k})")
    })?;
    let sum = oracle::add_mod(a, b, p);
    let want = oracle::mul_mod(&sum, &kk, p);
    expect(ctx, &x.add(&y).mul_small(k), &want, || {
        format!("Fp::mul_small({ha} + {hb}, {k})")
    })?;
    Ok(())
}

/// `mul_small`: every edge value times every edge multiplier (with a rotating edge partner for
/// the sum), and all pairs of edge values times the largest multiplier, 2^32 − 1.
pub fn mul_small_edges<F: FieldUnderTest>(ctx: &FieldCtx) {
    let e = &ctx.edges;
    let mut cases: Vec<(BigUint, BigUint, u32)> = Vec::new();
    for (i, a) in e.iter().enumerate() {
        for (j, &k) in MUL_SMALL_EDGE_KS.iter().enumerate() {
            cases.push((a.clone(), e[(i + j) % e.len()].clone(), k));
        }
    }
    cases.extend(ctx.edge_pairs().into_iter().map(|(a, b)| (a, b, u32::MAX)));
    each(ctx, "mul_small_edges", cases, |(a, b, k)| {
        case_mul_small::<F>(ctx, a, b, *k)
    });
}

/// `mul_small` on random pairs and random multipliers (one in four an edge multiplier).
pub fn mul_small_random<F: FieldUnderTest>(ctx: &FieldCtx) {
    let k = prop_oneof![3 => any::<u32>(), 1 => select(MUL_SMALL_EDGE_KS.to_vec())];
    run(ctx, "mul_small_random", (pair(ctx), k), |((a, b), k)| {
        case_mul_small::<F>(ctx, &a, &b, k)
    });
}

/// Negation of every edge value.
pub fn neg_edges<F: FieldUnderTest>(ctx: &FieldCtx) {
    each(ctx, "neg_edges", &ctx.edges, |a| {
        case_unary::<F>(ctx, UnOp::Neg, a)
    });
}

/// Negation of random values.
pub fn neg_random<F: FieldUnderTest>(ctx: &FieldCtx) {
    run(ctx, "neg_random", element(ctx), |a| {
        case_unary::<F>(ctx, UnOp::Neg, &a)
    });
}

/// Doubling of every edge value.
pub fn double_edges<F: FieldUnderTest>(ctx: &FieldCtx) {
    each(ctx, "double_edges", &ctx.edges, |a| {
        case_unary::<F>(ctx, UnOp::Double, a)
    });
}

/// Doubling of random values.
pub fn double_random<F: FieldUnderTest>(ctx: &FieldCtx) {
    run(ctx, "double_random", element(ctx), |a| {
        case_unary::<F>(ctx, UnOp::Double, &a)
    });
}

/// Squaring of every edge value.
pub fn square_edges<F: FieldUnderTest>(ctx: &FieldCtx) {
    each(ctx, "square_edges", &ctx.edges, |a| {
        case_unary::<F>(ctx, UnOp::Square, a)
    });
}

/// Squaring of random values.
pub fn square_random<F: FieldUnderTest>(ctx: &FieldCtx) {
    run(ctx, "square_random", element(ctx), |a| {
        case_unary::<F>(ctx, UnOp::Square, &a)
    });
}

/// `pow`/`pow_vartime`: every (costly) edge base with every edge exponent ([`edge_exponents`]).
pub fn pow_edges<F: FieldUnderTest>(ctx: &FieldCtx) {
    let exps = edge_exponents(ctx);
    let cases: Vec<(BigUint, Vec<u64>)> = ctx
        .costly_edges()
        .into_iter()
        .flat_map(|a| exps.iter().map(move |e| (a.clone(), e.clone())))
        .collect();
    each(ctx, "pow_edges", cases, |(a, e)| case_pow::<F>(ctx, a, e));
}

/// `pow`/`pow_vartime`: random bases with random exponents of 0 to 5 words.
pub fn pow_random<F: FieldUnderTest>(ctx: &FieldCtx) {
    run(ctx, "pow_random", (element(ctx), exponent()), |(a, e)| {
        case_pow::<F>(ctx, &a, &e)
    });
}

/// `invert` of every (costly) edge value, zero included.
pub fn invert_edges<F: FieldUnderTest>(ctx: &FieldCtx) {
    each(ctx, "invert_edges", ctx.costly_edges(), |a| {
        case_invert::<F>(ctx, a)
    });
}

/// `invert` of random values.
pub fn invert_random<F: FieldUnderTest>(ctx: &FieldCtx) {
    run(ctx, "invert_random", element(ctx), |a| {
        case_invert::<F>(ctx, &a)
    });
}

/// `sqrt` of every (costly) edge value and of the edge squares `e²`: some root for squares,
/// none for non-squares.
pub fn sqrt_edges<F: FieldUnderTest>(ctx: &FieldCtx) {
    let edges = ctx.costly_edges();
    let squares: Vec<BigUint> = edges
        .iter()
        .map(|e| oracle::square_mod(e, &ctx.p))
        .collect();
    let non_squares: Vec<BigUint> = edges
        .iter()
        .filter(|e| !e.is_zero())
        .map(|e| oracle::mul_mod(&ctx.non_residue, &oracle::square_mod(e, &ctx.p), &ctx.p))
        .collect();
    each(
        ctx,
        "sqrt_edges",
        edges.iter().chain(&squares).chain(&non_squares),
        |a| case_sqrt::<F>(ctx, a),
    );
}

/// `sqrt` of random squares `y²`: some, with `r² = y²`.
pub fn sqrt_squares_random<F: FieldUnderTest>(ctx: &FieldCtx) {
    run(ctx, "sqrt_squares_random", square(ctx), |a| {
        case_sqrt::<F>(ctx, &a)
    });
}

/// `sqrt` of random non-squares `z·y²`: none.
pub fn sqrt_non_squares_random<F: FieldUnderTest>(ctx: &FieldCtx) {
    run(ctx, "sqrt_non_squares_random", non_square(ctx), |a| {
        case_sqrt::<F>(ctx, &a)
    });
}

/// `legendre` of every (costly) edge value.
pub fn legendre_edges<F: FieldUnderTest>(ctx: &FieldCtx) {
    each(ctx, "legendre_edges", ctx.costly_edges(), |a| {
        case_legendre::<F>(ctx, a)
    });
}

/// `legendre` of random values, squares and non-squares.
pub fn legendre_random<F: FieldUnderTest>(ctx: &FieldCtx) {
    let strategy = prop_oneof![element(ctx), square(ctx), non_square(ctx)];
    run(ctx, "legendre_random", strategy, |a| {
        case_legendre::<F>(ctx, &a)
    });
}

/// The values that stress a binary-GCD Legendre symbol: 0 to 64 (the smallest non-residues
/// among them), `p − k` for small k, values agreeing with `p` on a long run of top bits (where
/// an approximation of the top bits cannot tell them apart from `p`: `p − 2^k`, `p` with bit k
/// cleared, `p` with the bits below k cleared plus one), and values whose top limb is all ones
/// (with the limb below it every pattern of a few, kept when below `p`).
pub fn legendre_gcd_values(p: &BigUint, limb_bits: u32) -> Vec<BigUint> {
    let bits = oracle::bit_len(p) as usize;
    let mut out: Vec<BigUint> = (0u32..=64).map(BigUint::from).collect();
    for k in 1u32..=16 {
        if *p > BigUint::from(k) {
            out.push(p - k);
        }
    }
    for k in 0..bits {
        let bit = BigUint::one() << k;
        if *p > bit {
            out.push(p - &bit);
        }
        if p.bit(k as u64) {
            out.push(((p >> k) << k) - 1u32);
            out.push(((p >> k) << k) | BigUint::one());
        }
    }
    let w = limb_bits as usize;
    let n = bits.div_ceil(w);
    if n >= 1 {
        let top = ((BigUint::one() << w) - 1u32) << (w * (n - 1));
        for low in [0u32, 1, 2, 3, 0x55, 0xff] {
            out.push(&top | BigUint::from(low));
            out.push(&top - 1u32 - BigUint::from(low));
        }
        if n >= 2 {
            let below = (BigUint::one() << (w * (n - 1))) - 1u32;
            out.push(&top | &below);
        }
    }
    let mut out: Vec<BigUint> = out.into_iter().filter(|v| v < p).collect();
    out.sort();
    out.dedup();
    out
}

/// `legendre` (all three methods) of [`legendre_gcd_values`].
pub fn legendre_gcd_edges<F: FieldUnderTest>(ctx: &FieldCtx) {
    let values = legendre_gcd_values(&ctx.p, ctx.limb_bits);
    each(ctx, "legendre_gcd_edges", values, |a| {
        case_legendre::<F>(ctx, a)
    });
}

/// `is_zero` of every edge value.
pub fn is_zero_edges<F: FieldUnderTest>(ctx: &FieldCtx) {
    each(ctx, "is_zero_edges", &ctx.edges, |a| {
        case_is_zero::<F>(ctx, a)
    });
}

/// `is_zero` of random values.
pub fn is_zero_random<F: FieldUnderTest>(ctx: &FieldCtx) {
    run(ctx, "is_zero_random", element(ctx), |a| {
        case_is_zero::<F>(ctx, &a)
    });
}

/// `batch_invert` of the empty slice, `[0]`, `[0, 0, 0]`, `[1]`, `[p-1, 0, p-1]`, and of the slice
/// of all (costly) edge values (which starts with zero).
pub fn batch_invert_edges<F: FieldUnderTest>(ctx: &FieldCtx) {
    let zero = BigUint::zero;
    let p_minus_1 = &ctx.p - 1u32;
    let slices: Vec<Vec<BigUint>> = vec![
        vec![],
        vec![zero()],
        vec![zero(), zero(), zero()],
        vec![BigUint::one()],
        vec![p_minus_1.clone(), zero(), p_minus_1],
        ctx.costly_edges(),
    ];
    each(ctx, "batch_invert_edges", slices, |s| {
        case_batch_invert::<F>(ctx, s)
    });
}

/// `batch_invert` of random slices of 0 to 16 elements, a quarter of them zero.
pub fn batch_invert_random<F: FieldUnderTest>(ctx: &FieldCtx) {
    let item = prop_oneof![3 => element(ctx), 1 => Just(BigUint::zero())];
    run(ctx, "batch_invert_random", vec(item, 0..=16), |s| {
        case_batch_invert::<F>(ctx, &s)
    });
}

/// `==`, `!=`, `ct_eq` on all pairs of edge values.
pub fn eq_edges<F: FieldUnderTest>(ctx: &FieldCtx) {
    each(ctx, "eq_edges", ctx.edge_pairs(), |(a, b)| {
        case_eq::<F>(ctx, a, b)
    });
}

/// `==`, `!=`, `ct_eq` on random pairs (equal one time in ten).
pub fn eq_random<F: FieldUnderTest>(ctx: &FieldCtx) {
    run(ctx, "eq_random", pair(ctx), |(a, b)| {
        case_eq::<F>(ctx, &a, &b)
    });
}

/// `conditional_select`/`assign`/`swap` on all pairs of edge values.
pub fn select_edges<F: FieldUnderTest>(ctx: &FieldCtx) {
    each(ctx, "select_edges", ctx.edge_pairs(), |(a, b)| {
        case_select::<F>(ctx, a, b)
    });
}

/// `conditional_select`/`assign`/`swap` on random pairs.
pub fn select_random<F: FieldUnderTest>(ctx: &FieldCtx) {
    run(ctx, "select_random", pair(ctx), |(a, b)| {
        case_select::<F>(ctx, &a, &b)
    });
}
