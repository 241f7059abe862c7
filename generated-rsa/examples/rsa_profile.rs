//! Where `modexp` spends its time, per size: the Montgomery square and product (latency
//! chains), the conversions in and out of Montgomery form, and whatever is left of a full-length
//! constant-time `modexp` once those are counted (the masked table reads and the exponent
//! scanning). Wall-clock medians of repeated runs; on a shared machine read the shares, not the
//! absolute times.
//!
//! `RUSTFLAGS="-C target-cpu=native" cargo run --release -p fieldgen-rsa --example rsa_profile`

use std::hint::black_box;
use std::time::Instant;

use fieldgen_rsa::{Mont1024, Mont2048, Mont4096};

// Deterministic bytes (SplitMix64, one low byte per output).
use fieldgen_test_support::splitmix_bytes as bytes;

/// Median over `reps` runs of the time per call of `f` run `inner` times, in ns.
fn median_ns(reps: usize, inner: usize, mut f: impl FnMut()) -> f64 {
    let mut v: Vec<f64> = (0..reps)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..inner {
                f();
            }
            t.elapsed().as_nanos() as f64 / inner as f64
        })
        .collect();
    v.sort_by(f64::total_cmp);
    v[reps / 2]
}

macro_rules! profile {
    ($ty:ty, $bits:expr) => {{
        const B: usize = $bits / 8;
        let mut n = bytes($bits, B);
        n[0] |= 0x80;
        n[B - 1] |= 1;
        let n: [u8; B] = n.try_into().unwrap();
        let ctx = <$ty>::new(&n).unwrap();
        let mut base = bytes($bits + 1, B);
        base[0] &= 0x7f;
        let base: [u8; B] = base.try_into().unwrap();
        let exp = bytes($bits + 2, B);
        let x0 = ctx.to_montgomery(&base);
        let inner = (1usize << 22) / ($bits * $bits / 1024);
        let mut x = x0;
        let sq = median_ns(15, inner, || x = ctx.square(black_box(&x)));
        let mut x = x0;
        let mul = median_ns(15, inner, || x = ctx.mul(black_box(&x), &x0));
        let to_m = median_ns(9, inner, || {
            black_box(ctx.to_montgomery(black_box(&base)));
        });
        let from_m = median_ns(9, inner, || {
            black_box(ctx.from_montgomery(black_box(&x0)));
        });
        let total = median_ns(9, 2, || {
            black_box(ctx.modexp(black_box(&base), black_box(&exp)));
        });
        // The fixed window: every window but the first squares w times and multiplies once;
        // the table takes 2^w − 2 products, half of them squares.
        let w = <$ty>::WINDOW as usize;
        let windows = (8 * exp.len()).div_ceil(w);
        let squares = w * (windows - 1) + ((1 << w) - 2) / 2;
        let muls = (windows - 1) + ((1 << w) - 2) / 2;
        let conv = to_m + from_m;
        let rest = total - squares as f64 * sq - muls as f64 * mul - conv;
        let pct = |t: f64| 100.0 * t / total;
        println!(
            "| {} | {} | {:.0} | {:.0} | {:.2} | {:.2} ms | {:.1} % | {:.1} % | {:.1} % | {:.1} % |",
            $bits,
            <$ty>::backend(),
            sq,
            mul,
            sq / mul,
            total / 1e6,
            pct(squares as f64 * sq),
            pct(muls as f64 * mul),
            pct(conv),
            pct(rest),
        );
    }};
}

macro_rules! variants {
    ($ty:ty, $bits:expr) => {{
        const B: usize = $bits / 8;
        let mut n = bytes($bits, B);
        n[0] |= 0x80;
        n[B - 1] |= 1;
        let n: [u8; B] = n.try_into().unwrap();
        let ctx = <$ty>::new(&n).unwrap();
        let x0 = ctx.to_montgomery(&bytes($bits + 1, B).try_into().unwrap());
        let inner = (1usize << 22) / ($bits * $bits / 1024);
        for v in [
            "x86_64-adx-cios",
            "x86_64-adx-sos",
            "x86_64-adx-window",
            "portable",
        ] {
            if ctx.mul_with(v, &x0, &x0).is_none() {
                continue;
            }
            let mut x = x0;
            let mul = median_ns(11, inner, || {
                x = ctx.mul_with(v, black_box(&x), &x0).unwrap()
            });
            let mut x = x0;
            let sq = median_ns(11, inner, || x = ctx.square_with(v, black_box(&x)).unwrap());
            println!("| {} | {v} | {mul:.0} | {sq:.0} |", $bits);
        }
    }};
}

fn main() {
    println!("| N | variant | mul ns | square ns |");
    println!("|---|---|---:|---:|");
    variants!(Mont1024, 1024);
    variants!(Mont2048, 2048);
    variants!(Mont4096, 4096);
    println!();
    println!(
        "| N | backend | square ns | mul ns | square/mul | modexp (full exponent) | squares | products | conversions | rest (table reads, scanning) |"
    );
    println!("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    profile!(Mont1024, 1024);
    profile!(Mont2048, 2048);
    profile!(Mont4096, 4096);
}
