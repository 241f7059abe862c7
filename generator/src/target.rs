//! The one target type and the table of which target serves which product.
//!
//! Every product takes a [`Target`] (the CLI's `--target`). [`TARGETS`] says, per target and
//! product, whether the product's emitter takes the target as named, takes the code of
//! another target (a documented mapping, such as `sparc32` binary fields taking the portable
//! 32-bit code), or refuses it with a one-line reason. [`Target::serving`] reads the table;
//! every product's pipeline calls it first, so an unserved combination is an error and never
//! a silent substitute.

use crate::spec::LimbBits;

/// The one target type: what `--target` names, for every product. What a target means for a
/// product, or that it does not serve it, is [`TARGETS`]; the doc of each variant says what
/// it means for a prime field, whose emitter takes every target. Every target emits the
/// same public API.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Target {
    /// The portable code for the limb size, plus the `x86_64-adx` kernels for multiplication
    /// and squaring where they exist (64-bit limbs, CIOS, up to [`crate::backend::x86_64::MAX_LIMBS`] limbs):
    /// chosen at compile time when the build enables the `bmi2` and `adx` target features,
    /// else by CPUID once at run time, with the portable code as the fallback; and the
    /// `aarch64` kernels (64-bit limbs, CIOS, up to [`crate::backend::aarch64::MAX_LIMBS`] limbs), used
    /// whenever the build is for that architecture; and the `armv7` kernels (32-bit limbs, up
    /// to [`crate::backend::armv7::MAX_LIMBS`] limbs, when [`crate::backend::armv7::preferred`]) under [`crate::backend::armv7::cfg_gate`].
    #[default]
    Auto,
    /// Portable Rust over `u64`/`u128` only.
    Portable64,
    /// Portable Rust over `u32`/`u64` only.
    Portable32,
    /// The BMI2/ADX kernels only (portable code for the other operations); x86-64 only.
    X86_64Adx,
    /// The AArch64 kernels only (portable code for the other operations); aarch64 only.
    Aarch64,
    /// The ARMv7 UMAAL kernels only (32-bit limbs, up to [`crate::backend::armv7::MAX_LIMBS`] limbs; portable
    /// code for the other operations); ARM targets with UMAAL only ([`crate::backend::armv7::cfg_gate`]).
    Armv7,
    /// A SPARC-like machine: 32-bit words, 32×32→64-bit multiplication, big-endian. The
    /// portable code over `u32`/`u64` (byte encodings never depend on the host's byte order).
    Sparc32,
    /// WebAssembly (wasm32): the portable code over `u32`/`u64`, no assembly.
    Wasm32,
}

impl Target {
    /// Every target, in the order `--help` lists them.
    pub const ALL: [Target; 8] = [
        Target::Auto,
        Target::Portable64,
        Target::Portable32,
        Target::X86_64Adx,
        Target::Aarch64,
        Target::Armv7,
        Target::Sparc32,
        Target::Wasm32,
    ];

    /// The name `--target` takes.
    pub fn name(self) -> &'static str {
        match self {
            Target::Auto => "auto",
            Target::Portable64 => "portable64",
            Target::Portable32 => "portable32",
            Target::X86_64Adx => crate::backend::x86_64::NAME,
            Target::Aarch64 => crate::backend::aarch64::NAME,
            Target::Armv7 => crate::backend::armv7::NAME,
            Target::Sparc32 => "sparc32",
            Target::Wasm32 => "wasm32",
        }
    }

    /// The target named `name`.
    pub fn from_name(name: &str) -> Option<Target> {
        Target::ALL.into_iter().find(|t| t.name() == name)
    }

    /// The limb size the target implies (`None` for `auto`, which takes any).
    pub fn limb_bits(self) -> Option<LimbBits> {
        match self {
            Target::Auto => None,
            Target::Portable32 | Target::Sparc32 | Target::Wasm32 | Target::Armv7 => {
                Some(LimbBits::W32)
            }
            Target::Portable64 | Target::X86_64Adx | Target::Aarch64 => Some(LimbBits::W64),
        }
    }
}

/// A product the generator makes: one [`crate::Request`] variant each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Product {
    /// A prime field GF(p) ([`crate::PrimeFieldOptions`]).
    PrimeField,
    /// A binary field GF(2^m) ([`crate::binary::BinaryFieldOptions`]).
    BinaryField,
    /// A Montgomery context for a run-time RSA modulus ([`crate::rsa::RsaOptions`]).
    RsaContext,
    /// Four lanes of a pseudo-Mersenne field on AVX-512 IFMA ([`crate::lanes::LaneFieldOptions`]).
    LaneField,
}

impl Product {
    /// The product's name in messages.
    pub fn name(self) -> &'static str {
        match self {
            Product::PrimeField => "prime field",
            Product::BinaryField => "binary field",
            Product::RsaContext => "RSA context",
            Product::LaneField => "lane field",
        }
    }
}

/// How one target serves one product: a cell of [`TARGETS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Serves {
    /// The product's emitter takes the target as named.
    Direct,
    /// The product is generated with the code of this other target (the generated file's
    /// command line still names the target asked for).
    Via(Target),
    /// Not served; the one-line reason, naming the targets that are.
    No(&'static str),
}

/// One row of [`TARGETS`]: what a target means for each product.
#[derive(Clone, Copy, Debug)]
pub struct TargetRow {
    /// The target.
    pub target: Target,
    /// For prime fields.
    pub prime_field: Serves,
    /// For binary fields.
    pub binary_field: Serves,
    /// For RSA contexts.
    pub rsa_context: Serves,
    /// For IFMA lane fields.
    pub lane_field: Serves,
}

const RSA_ONLY: &str = "RSA contexts carry portable code and the x86-64 BMI2/ADX kernels chosen by CPUID at run time: use --target auto";
const LANES_ONLY: &str = "lane fields are AVX-512 IFMA code for x86-64 only: use --target auto";

/// Which target serves which product: the single table every product's pipeline reads
/// (through [`Target::serving`]). One row per target, in [`Target::ALL`] order.
pub const TARGETS: [TargetRow; 8] = [
    TargetRow {
        target: Target::Auto,
        prime_field: Serves::Direct,
        binary_field: Serves::Direct,
        rsa_context: Serves::Direct,
        lane_field: Serves::Direct,
    },
    TargetRow {
        target: Target::Portable64,
        prime_field: Serves::Direct,
        binary_field: Serves::Direct,
        rsa_context: Serves::No(RSA_ONLY),
        lane_field: Serves::No(LANES_ONLY),
    },
    TargetRow {
        target: Target::Portable32,
        prime_field: Serves::Direct,
        binary_field: Serves::Direct,
        rsa_context: Serves::No(RSA_ONLY),
        lane_field: Serves::No(LANES_ONLY),
    },
    TargetRow {
        target: Target::X86_64Adx,
        prime_field: Serves::Direct,
        binary_field: Serves::No(
            "--target x86_64-adx is for prime fields; binary fields take auto (PCLMULQDQ/PMULL where present), portable64 or portable32",
        ),
        rsa_context: Serves::No(RSA_ONLY),
        lane_field: Serves::No(LANES_ONLY),
    },
    TargetRow {
        target: Target::Aarch64,
        prime_field: Serves::Direct,
        // The PMULL kernel lives in the auto module beside the x86-64 one; there is no
        // aarch64-only binary module.
        binary_field: Serves::No(
            "--target aarch64 is for prime fields; binary fields take auto (which carries the aarch64 PMULL kernel), portable64 or portable32",
        ),
        rsa_context: Serves::No(RSA_ONLY),
        lane_field: Serves::No(LANES_ONLY),
    },
    TargetRow {
        target: Target::Armv7,
        prime_field: Serves::Direct,
        binary_field: Serves::No(
            "--target armv7 is for prime fields (UMAAL kernels); binary fields have no ARMv7 kernel: use --target portable32",
        ),
        rsa_context: Serves::No(RSA_ONLY),
        lane_field: Serves::No(LANES_ONLY),
    },
    TargetRow {
        target: Target::Sparc32,
        prime_field: Serves::Direct,
        // The portable 32-bit comb: byte encodings never depend on the host's byte order.
        binary_field: Serves::Via(Target::Portable32),
        rsa_context: Serves::No(RSA_ONLY),
        lane_field: Serves::No(LANES_ONLY),
    },
    TargetRow {
        target: Target::Wasm32,
        prime_field: Serves::Direct,
        binary_field: Serves::Via(Target::Portable32),
        rsa_context: Serves::No(RSA_ONLY),
        lane_field: Serves::No(LANES_ONLY),
    },
];

impl Target {
    /// This target's row of [`TARGETS`].
    pub fn row(self) -> &'static TargetRow {
        // Rows are in `Target::ALL` order; the test below checks it.
        &TARGETS[Target::ALL
            .iter()
            .position(|&t| t == self)
            .unwrap_or_default()]
    }

    /// How this target serves `product` ([`TARGETS`]).
    pub fn serves(self, product: Product) -> Serves {
        let row = self.row();
        match product {
            Product::PrimeField => row.prime_field,
            Product::BinaryField => row.binary_field,
            Product::RsaContext => row.rsa_context,
            Product::LaneField => row.lane_field,
        }
    }

    /// The target whose code `product` is generated with: `self`, or the mapping of
    /// [`TARGETS`]. Errors: the one-line reason when the target does not serve the product.
    pub fn serving(self, product: Product) -> Result<Target, &'static str> {
        match self.serves(product) {
            Serves::Direct => Ok(self),
            Serves::Via(t) => Ok(t),
            Serves::No(why) => Err(why),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_rows_follow_all() {
        for (row, t) in TARGETS.iter().zip(Target::ALL) {
            assert_eq!(row.target, t);
        }
        // A mapping never leads to a target that would refuse or map again.
        for t in Target::ALL {
            for p in [
                Product::PrimeField,
                Product::BinaryField,
                Product::RsaContext,
                Product::LaneField,
            ] {
                if let Serves::Via(u) = t.serves(p) {
                    assert_eq!(u.serves(p), Serves::Direct, "{} {}", t.name(), p.name());
                }
            }
        }
    }
}
