//! Measures the Karatsuba threshold and the reduction shape of the RSA contexts: generates every
//! size with each possible Karatsuba leaf (and straight-line vs row-by-row reduction) into a
//! scratch crate under `target/`, builds it optimised for the host CPU and prints ns per
//! `mul_wide`, `square_wide`, Montgomery `mul` and `square` (latency chains, best of 5 runs).
//!
//! `cargo run -p generator --release --example rsa_thresholds`

use std::path::PathBuf;
use std::process::Command;

use generator::rsa::emit::RsaShape;
use generator::rsa::{generate_rsa_with_shape, RsaOptions, RSA_SIZES};

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/rsa-thresholds");
    std::fs::create_dir_all(root.join("src")).unwrap();
    let mut mods = String::new();
    let mut runs = String::new();
    // `RSA_THRESHOLDS_BITS=2048,4096` limits the sizes; `RSA_THRESHOLDS_MIN_LEAF=8` the leaves
    // (the register-window kernels need multiples of 8 limbs), `RSA_THRESHOLDS_MAX_LEAF=32`
    // skips straight-line leaves too large to be worth compiling.
    let sizes: Vec<usize> = std::env::var("RSA_THRESHOLDS_BITS")
        .map(|v| v.split(',').map(|x| x.trim().parse().unwrap()).collect())
        .unwrap_or_else(|_| RSA_SIZES.to_vec());
    let env_usize = |k: &str, d: usize| std::env::var(k).map(|v| v.parse().unwrap()).unwrap_or(d);
    let (min_leaf, max_leaf) = (
        env_usize("RSA_THRESHOLDS_MIN_LEAF", 4),
        env_usize("RSA_THRESHOLDS_MAX_LEAF", usize::MAX),
    );
    for bits in sizes {
        let n = bits / 64;
        let mut leaves = vec![n];
        let mut m = n;
        while m % 2 == 0 && m > 4 {
            m /= 2;
            leaves.push(m);
        }
        leaves.retain(|l| (min_leaf..=max_leaf).contains(l));
        for leaf in leaves {
            for full in [false, true] {
                // `RSA_THRESHOLDS_REDC=rows` skips the straight-line reductions (portable only).
                if full && (n > 32 || std::env::var("RSA_THRESHOLDS_REDC").as_deref() == Ok("rows"))
                {
                    continue;
                }
                let mut shape = RsaShape::new(bits);
                shape.karatsuba_leaf = leaf;
                // The same leaf for squares, so both thresholds come out of one run.
                shape.square_leaf = leaf;
                shape.redc_full_max = if full { n } else { 0 };
                let name = format!("M{bits}L{leaf}{}", if full { "S" } else { "R" });
                let g = generate_rsa_with_shape(
                    &RsaOptions {
                        bits,
                        name: name.clone(),
                    },
                    shape,
                )
                .unwrap();
                let module = name.to_lowercase();
                std::fs::write(root.join(format!("src/{module}.rs")), g.to_file()).unwrap();
                mods.push_str(&format!("mod {module};\n"));
                runs.push_str(&format!(
                    "run!({module}::{name}, \"{bits}\", {leaf}, \"{}\");\n",
                    if full { "straight" } else { "rows" }
                ));
            }
        }
    }
    let main = format!(
        r#"{mods}
use std::hint::black_box;
use std::time::Instant;

fn best<F: FnMut()>(iters: u32, mut f: F) -> f64 {{
    let mut best = f64::MAX;
    for _ in 0..5 {{
        let t = Instant::now();
        for _ in 0..iters {{
            f();
        }}
        best = best.min(t.elapsed().as_nanos() as f64 / iters as f64);
    }}
    best
}}

macro_rules! run {{
    ($t:ty, $bits:expr, $leaf:expr, $redc:expr) => {{{{
        const B: usize = <$t>::BYTES;
        const L: usize = <$t>::LIMBS;
        let mut nb = [0u8; B];
        for (i, b) in nb.iter_mut().enumerate() {{
            *b = (i as u8).wrapping_mul(151).wrapping_add(7);
        }}
        nb[0] |= 0x80;
        nb[B - 1] |= 1;
        let m = <$t>::new(&nb).unwrap();
        let a = m.to_montgomery(&[0x35; B]);
        let mut x = a;
        let iters = (4_000_000 / (L * L)) as u32;
        let mut w = [0u64; 2 * L];
        let mw = best(iters, || {{
            w = <$t>::mul_wide(black_box(&x), &a);
            x[0] ^= w[L];
        }});
        let sw = best(iters, || {{
            w = <$t>::square_wide(black_box(&x));
            x[0] ^= w[L];
        }});
        let mut y = a;
        let mm = best(iters, || y = m.mul(black_box(&y), &a));
        let ms = best(iters, || y = m.square(black_box(&y)));
        println!("{{:>5}} bits leaf {{:>2}} redc {{:<8}} mul_wide {{:>7.0}} ns  square_wide {{:>7.0}} ns  mont mul {{:>7.0}} ns  mont square {{:>7.0}} ns", $bits, $leaf, $redc, mw, sw, mm, ms);
        black_box((x, y));
    }}}};
}}

fn main() {{
{runs}}}
"#
    );
    std::fs::write(root.join("src/main.rs"), main).unwrap();
    std::fs::write(
        root.join("Cargo.toml"),
        "[package]\nname = \"rsa-thresholds\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n[workspace]\n\n[dependencies]\nsubtle = \"2.6\"\n\n[profile.release]\ncodegen-units = 1\n",
    )
    .unwrap();
    let st = Command::new(env!("CARGO"))
        .args(["run", "--release", "--offline", "-q"])
        .current_dir(&root)
        .env("RUSTFLAGS", "-C target-cpu=native")
        .env("CARGO_TARGET_DIR", root.join("target"))
        .status()
        .unwrap();
    assert!(st.success());
}
