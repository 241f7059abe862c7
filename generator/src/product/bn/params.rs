//! The Rust source of a curve's parameter file (`curves/bn/src/params/<module>.rs`): every
//! derived constant as limbs and hex literals.

use super::*;
use crate::narrow::fit;

pub(super) fn hex(x: &BigUint, bytes: usize) -> String {
    format!("0x{:0width$x}", x, width = 2 * bytes)
}

fn words(x: &BigUint) -> String {
    let w: Vec<String> = x
        .to_u64_digits()
        .iter()
        .map(|d| format!("0x{d:016x}"))
        .collect();
    format!("&[{}]", w.join(", "))
}

/// The `use` lines [`BnConstants::params_impl`] needs, from the crate `krate` (`crate` in the
/// parameter files, `::fieldgen_bn` in a `bn_curve!` expansion). `Fp` and `Fr` are not among
/// them: each caller names its own fields.
pub fn params_uses(krate: &str) -> String {
    format!(
        "use {krate}::endo::Decomposition;\nuse {krate}::fp2::Fp2;\nuse {krate}::hash::Svdw;\nuse {krate}::BnParams;\n"
    )
}

/// The `const fn`s [`BnConstants::params_impl`] writes its constants with: `fp`, `fp2` and `fr`
/// read a big-endian hex literal into `Fp`, `Fp2<Fp>` and `Fr` at compile time (a literal not
/// below the modulus stops compilation, which the derivation never writes).
pub const PARAMS_HELPERS: &str = "const fn fp(h: &str) -> Fp {\n    match Fp::from_hex_vartime(h) {\n        Some(x) => x,\n        None => panic!(\"constant not below p\"),\n    }\n}\n\nconst fn fp2(a: &str, b: &str) -> Fp2<Fp> {\n    Fp2::new(fp(a), fp(b))\n}\n\nconst fn fr(h: &str) -> Fr {\n    match Fr::from_hex_vartime(h) {\n        Some(x) => x,\n        None => panic!(\"constant not below r\"),\n    }\n}\n";

impl BnConstants {
    /// The Rust source of `curves/bn/src/params/<module>.rs`: the marker type and its
    /// `BnParams` impl over the generated fields `fp_module`, `fr_module` (64-bit limbs on
    /// 64-bit targets, 32-bit elsewhere).
    pub fn to_rust(
        &self,
        type_name: &str,
        display: &str,
        aliases: &str,
        fp_module: &str,
        fr_module: &str,
    ) -> String {
        let mut s = String::new();
        s += &crate::header::Header::regen(None).render();
        s += &format!(
            "//! {display} ({aliases}): the constants of the BN curve with z = {z}, b = {b}, \
             ξ = {xa} + i, derived by the generator (generator/src/product/bn/).\n//!\n",
            z = self.z,
            b = self.b,
            xa = self.xi_a
        );
        s += &format!("//! p = {:#x} ({} bits)\n", self.p, self.p.bits());
        s += &format!("//! r = {:#x} ({} bits)\n", self.r, self.r.bits());
        s += &format!(
            "//! 6z + 2 = {}\n",
            BigInt::from(6) * &self.z + BigInt::from(2)
        );
        s += &format!("//! Generators: {}.\n\n", self.generator_rule);
        s += &format!(
            "#[cfg(target_pointer_width = \"64\")]\nuse fieldgen_generated::{{{fp_module}_64::Fp, {fr_module}_64::Fr}};\n"
        );
        s += &format!(
            "#[cfg(not(target_pointer_width = \"64\"))]\nuse fieldgen_generated::{{{fp_module}_32::Fp, {fr_module}_32::Fr}};\n\n"
        );
        s += &params_uses("crate");
        s += "\n";
        s += PARAMS_HELPERS;
        s += "\n";
        s += &format!(
            "/// {display} ({aliases}): z = {}, b = {}, ξ = {} + i.\n",
            self.z, self.b, self.xi_a
        );
        s += &format!(
            "#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]\npub struct {type_name};\n\n"
        );
        s += &self.params_impl(type_name, display);
        s
    }

    /// `impl BnParams for <type_name> { ... }`: every constant of the curve, the body shared by
    /// the parameter files and `fieldgen_macros::bn_curve!`. It names `BnParams`, `Fp`, `Fr`,
    /// `Fp2`, `Decomposition` and `Svdw` unqualified ([`params_uses`] plus two type names in
    /// scope) and calls the `const fn`s of [`PARAMS_HELPERS`]. `display` is the `NAME` string.
    pub fn params_impl(&self, type_name: &str, display: &str) -> String {
        let nb: usize = fit(self.p.bits().div_ceil(8));
        let fp = |x: &BigUint| format!("fp(\"{}\")", hex(x, nb));
        let nr: usize = fit(self.r.bits().div_ceil(8));
        let fr = |x: &BigUint| format!("fr(\"{}\")", hex(x, nr));
        let f2 = |x: &F2| format!("fp2(\"{}\", \"{}\")", hex(&x.a, nb), hex(&x.b, nb));
        let arr = |v: &[F2]| {
            let items: Vec<String> = v.iter().map(|x| format!("        {},\n", f2(x))).collect();
            format!("[\n{}    ]", items.concat())
        };
        let b3 = (BigUint::from(self.b) * 3u32) % &self.p;
        let c = Ctx { p: self.p.clone() };
        let b3t = c.mul(&c.f(BigUint::from(3u32)), &self.b_twist);
        let naf: Vec<String> = self.ate_naf.iter().map(|d| d.to_string()).collect();
        let zabs = self.z.abs().to_biguint().unwrap();
        let mut s = String::new();
        s += &format!("impl BnParams for {type_name} {{\n");
        s += "    type Fp = Fp;\n    type Fr = Fr;\n";
        s += &format!("    const NAME: &'static str = \"{display}\";\n");
        s += &format!("    const Z_ABS: u128 = {:#x};\n", zabs);
        s += &format!("    const Z_NEG: bool = {};\n", self.z.is_negative());
        s += &format!(
            "    const ATE_NAF: &'static [i8] = &[{}];\n",
            naf.join(", ")
        );
        s += &format!("    const XI_A: u32 = {};\n", self.xi_a);
        s += &format!(
            "    const B: Fp = {};\n",
            fp(&(BigUint::from(self.b) % &self.p))
        );
        s += &format!("    const B3: Fp = {};\n", fp(&b3));
        s += &format!("    const B_TWIST: Fp2<Fp> = {};\n", f2(&self.b_twist));
        s += &format!("    const B3_TWIST: Fp2<Fp> = {};\n", f2(&b3t));
        s += &format!("    const FROB1: [Fp2<Fp>; 6] = {};\n", arr(&self.frob1));
        s += &format!("    const FROB2: [Fp2<Fp>; 6] = {};\n", arr(&self.frob2));
        s += &format!("    const FROB3: [Fp2<Fp>; 6] = {};\n", arr(&self.frob3));
        s += &format!("    const G1_X: Fp = {};\n", fp(&self.g1.0));
        s += &format!("    const G1_Y: Fp = {};\n", fp(&self.g1.1));
        s += &format!("    const G2_X: Fp2<Fp> = {};\n", f2(&self.g2.0));
        s += &format!("    const G2_Y: Fp2<Fp> = {};\n", f2(&self.g2.1));
        s += &format!("    const R_WORDS: &'static [u64] = {};\n", words(&self.r));
        s += &format!(
            "    const G2_COFACTOR_WORDS: &'static [u64] = {};\n",
            words(&self.h2)
        );
        s += &format!("    const BETA: Fp = {};\n", fp(&self.beta));
        s += &format!("    const LAMBDA: Fr = {};\n", fr(&self.lambda));
        s += &format!(
            "    const GLV: Decomposition<Fr, 2> = {};\n",
            self.glv.to_rust(&fr)
        );
        s += &format!(
            "    const GLS: Decomposition<Fr, 4> = {};\n",
            self.gls.to_rust(&fr)
        );
        let sv = |v: &SvdwConstants, f: &dyn Fn(&F2) -> String| {
            format!(
                "Svdw {{ z: {}, c1: {}, c2: {}, c3: {}, c4: {} }}",
                f(&v.z),
                f(&v.c1),
                f(&v.c2),
                f(&v.c3),
                f(&v.c4)
            )
        };
        s += &format!(
            "    const SVDW_G1: Svdw<Fp> = {};\n",
            sv(&self.svdw1, &|x: &F2| fp(&x.a))
        );
        s += &format!(
            "    const SVDW_G2: Svdw<Fp2<Fp>> = {};\n",
            sv(&self.svdw2, &f2)
        );
        s += &format!(
            "    const HASH_FIELD_BYTES: usize = {};\n",
            (self.p.bits() + 128).div_ceil(8)
        );
        s += "}\n";
        s
    }
}

impl Decomp {
    pub(super) fn to_rust(&self, fr: &dyn Fn(&BigUint) -> String) -> String {
        let round: Vec<String> = self.round.iter().map(words).collect();
        let mat: Vec<String> = self
            .mat
            .iter()
            .map(|row| {
                let v: Vec<String> = row.iter().map(fr).collect();
                format!("[{}]", v.join(", "))
            })
            .collect();
        format!(
            "Decomposition {{ round: [{}], shift: {}, mat: [{}], half_bits: {} }}",
            round.join(", "),
            self.shift,
            mat.join(", "),
            self.half_bits
        )
    }
}
