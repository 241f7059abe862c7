//! A fixed MSM workload on BN254 for instruction counts (callgrind: robust on a loaded
//! machine), ours and ark-bn254's on the same points and scalars:
//!
//! ```text
//! cargo build --release -p fieldgen-bn --example msm_count
//! valgrind --tool=callgrind target/release/examples/msm_count MODE GROUP N
//! ```
//!
//! MODE is `split` (`msm_g1_vartime`/`msm_g2_vartime`), `nosplit` (the group layer's
//! Pippenger on the full-length scalars), `ark` (ark-bn254's `VariableBaseMSM::msm`) or
//! `none` (the setup only); GROUP is `g1` or `g2`; N terms. Each mode runs the same setup, so
//! differences of totals are the work of one MSM.

// The peer crate is a dev-dependency on x86-64 only (see Cargo.toml).
#[cfg(target_arch = "x86_64")]
mod x86 {
    use ark_bn254::{Fr as ArkFr, G1Projective as ArkG1, G2Projective as ArkG2};
    use ark_ec::{AffineRepr, CurveGroup, PrimeGroup, VariableBaseMSM};
    use ark_ff::PrimeField as ArkPrimeField;
    use fieldgen_bn::msm::{msm_g1_vartime, msm_g2_vartime};
    use fieldgen_bn::{Bn254, BnParams, G1Projective, G2Projective};
    use fieldgen_weierstrass::msm::msm_vartime;

    type Fr = <Bn254 as BnParams>::Fr;

    pub fn main() {
        let args: Vec<String> = std::env::args().collect();
        let mode = args.get(1).map_or("split", String::as_str);
        let g2 = args.get(2).is_some_and(|g| g == "g2");
        let n: u64 = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(64);
        // Scalars k_i = (i + 1)·c for a fixed 254-bit c, points j·G with j = 2i + 3 (both sides
        // compute the same values; setup by additions only, the same in every mode).
        let c = Fr::ONE
            .double()
            .pow_vartime(&[0x1234_5678_9abc_def1, 0x5a5a_a5a5, 0, 0]);
        let mut ks = Vec::new();
        let mut k = c;
        for _ in 0..n {
            ks.push(k);
            k += c;
        }
        let ka: Vec<ArkFr> = ks
            .iter()
            .map(|k| ArkFr::from_le_bytes_mod_order(k.to_le_bytes().as_ref()))
            .collect();
        let kb: Vec<_> = ks.iter().map(|k| k.to_le_bytes()).collect();
        let out = if g2 {
            let mut ps = Vec::new();
            let g = G2Projective::<Bn254>::GENERATOR;
            let mut p = g + g + g;
            let mut pa = Vec::new();
            let ga = ArkG2::generator();
            let mut q = ga + ga + ga;
            for _ in 0..n {
                ps.push(p);
                pa.push(q.into_affine());
                p = p + g + g;
                q = q + ga + ga;
            }
            match mode {
                "split" => msm_g2_vartime::<Bn254>(&ps, &ks)
                    .unwrap()
                    .is_identity()
                    .unwrap_u8(),
                "nosplit" => msm_vartime(&ps, &kb).unwrap().is_identity().unwrap_u8(),
                "ark" => u8::from(ArkG2::msm(&pa, &ka).unwrap().into_affine().is_zero()),
                _ => 0,
            }
        } else {
            let mut ps = Vec::new();
            let g = G1Projective::<Bn254>::GENERATOR;
            let mut p = g + g + g;
            let mut pa = Vec::new();
            let ga = ArkG1::generator();
            let mut q = ga + ga + ga;
            for _ in 0..n {
                ps.push(p);
                pa.push(q.into_affine());
                p = p + g + g;
                q = q + ga + ga;
            }
            match mode {
                "split" => msm_g1_vartime::<Bn254>(&ps, &ks)
                    .unwrap()
                    .is_identity()
                    .unwrap_u8(),
                "nosplit" => msm_vartime(&ps, &kb).unwrap().is_identity().unwrap_u8(),
                "ark" => u8::from(ArkG1::msm(&pa, &ka).unwrap().into_affine().is_zero()),
                _ => 0,
            }
        };
        println!("{out}");
    }
}

fn main() {
    #[cfg(target_arch = "x86_64")]
    x86::main();
}
