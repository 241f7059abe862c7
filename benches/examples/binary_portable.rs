//! The portable binary-field products against the PCLMULQDQ one, measured the way a loaded
//! machine still allows (contenders alternate, chains of `CHAIN` operations, the fastest of
//! many runs counts). Per preset: `mul` by the default backend, `mul` and `square` by
//! `portable64` (64-bit words) and by `portable32` (the 32-bit-word module, on this host).
//! Every result is first checked against the default backend.
//!
//! `RUSTFLAGS="-C target-cpu=native" cargo run --release -p fieldgen-benches --example binary_portable`

use std::hint::black_box;

use fieldgen_generated as ours;

/// Chained operations per timed run.
const CHAIN: usize = 32;

/// SplitMix64 bytes of an m-bit element, little-endian.
fn element(m: u32, seed: u64) -> Vec<u8> {
    let b = m.div_ceil(8) as usize;
    let mut v = fieldgen_benches::splitmix_bytes(seed, b);
    if !m.is_multiple_of(8) {
        v[b - 1] &= (1u8 << (m % 8)) - 1;
    }
    v
}

macro_rules! field {
    ($id:expr, $F:ty, $G:ty) => {{
        type F = $F;
        type G = $G;
        let m = F::DEGREE;
        let (xb, yb) = (element(m, 1 ^ u64::from(m)), element(m, 2 ^ u64::from(m)));
        let x = F::from_le_bytes(&xb.clone().try_into().unwrap()).unwrap();
        let y = F::from_le_bytes(&yb.clone().try_into().unwrap()).unwrap();
        let x32 = G::from_le_bytes(&xb.clone().try_into().unwrap()).unwrap();
        let y32 = G::from_le_bytes(&yb.clone().try_into().unwrap()).unwrap();
        let want = x.mul(&y).to_le_bytes();
        assert_eq!(
            x.__mul_with_backend(&y, "portable64")
                .unwrap()
                .to_le_bytes(),
            want,
            "{} portable64 mul",
            $id
        );
        assert_eq!(
            x32.__mul_with_backend(&y32, "portable32")
                .unwrap()
                .to_le_bytes(),
            want,
            "{} portable32 mul",
            $id
        );
        let sq = x.square().to_le_bytes();
        assert_eq!(
            x.__square_with_backend("portable64").unwrap().to_le_bytes(),
            sq,
            "{} portable64 square",
            $id
        );
        assert_eq!(
            x32.__square_with_backend("portable32")
                .unwrap()
                .to_le_bytes(),
            sq,
            "{} portable32 square",
            $id
        );
        let (mut a, mut b, mut c, mut d, mut e) = (x, x, x, x32, x32);
        let best: Vec<f64> = fieldgen_benches::race(
            400,
            &mut [
                &mut || {
                    let mut v = a;
                    for _ in 0..CHAIN {
                        v = black_box(v).mul(&y);
                    }
                    a = v;
                },
                &mut || {
                    let mut v = b;
                    for _ in 0..CHAIN {
                        v = black_box(v).__mul_with_backend(&y, "portable64").unwrap();
                    }
                    b = v;
                },
                &mut || {
                    let mut v = c;
                    for _ in 0..CHAIN {
                        v = black_box(v).__square_with_backend("portable64").unwrap();
                    }
                    c = v;
                },
                &mut || {
                    let mut v = d;
                    for _ in 0..CHAIN {
                        v = black_box(v).__mul_with_backend(&y32, "portable32").unwrap();
                    }
                    d = v;
                },
                &mut || {
                    let mut v = e;
                    for _ in 0..CHAIN {
                        v = black_box(v).__square_with_backend("portable32").unwrap();
                    }
                    e = v;
                },
            ],
        )
        .into_iter()
        .map(|t| t / CHAIN as f64)
        .collect();
        println!(
            "| {} | {:.1} | {:.1} | {:.1} | {:.1} | {:.1} | {:.1} | {:.1} |",
            $id,
            best[0],
            best[1],
            best[2],
            best[3],
            best[4],
            best[1] / best[0],
            best[3] / best[0]
        );
        black_box((a, b, c, d, e));
    }};
}

fn main() {
    println!("| field | mul (default) ns | portable64 mul | portable64 square | portable32 mul | portable32 square | portable64 / default | portable32 / default |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|");
    field!("gf2-155", ours::gf2_155_64::F155, ours::gf2_155_32::F155);
    field!("sect163", ours::sect163_64::F163, ours::sect163_32::F163);
    field!("sect193", ours::sect193_64::F193, ours::sect193_32::F193);
    field!("sect233", ours::sect233_64::F233, ours::sect233_32::F233);
    field!("sect239", ours::sect239_64::F239, ours::sect239_32::F239);
    field!("sect283", ours::sect283_64::F283, ours::sect283_32::F283);
    field!("sect409", ours::sect409_64::F409, ours::sect409_32::F409);
    field!("sect571", ours::sect571_64::F571, ours::sect571_32::F571);
}
