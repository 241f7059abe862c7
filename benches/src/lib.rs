//! The benchmark matrix of fieldgen: our generated fields, one column per backend, beside peer
//! crates measured in the same run.
//!
//! This library holds only what the criterion bench (`benches/fields.rs`) and the `report` command
//! (`src/main.rs`) share: the names of fields, operations and columns, and how many operations one
//! criterion iteration chains. It depends on no peer crate, so a workspace `cargo test` compiles
//! it without compiling a single peer (the peers are optional dependencies behind the `peers`
//! feature, which only the bench target requires).
//!
//! # Naming
//! A criterion benchmark id is `<field>/<op>/<column>`: the group is a [`Field::id`], the function
//! is an [`Op::id`], the parameter is a column id. Columns of ours are `ours-<backend>` with the
//! backend names of [`OUR_BACKENDS`]; every other column is a peer.
//!
//! # Adding a backend of ours
//! Add its name to [`OUR_BACKENDS`] (that fixes its column order in the report) and, in
//! `benches/fields.rs`, one line per field in the `ours` list of that field, with the predicate
//! that says whether the running CPU can execute it (a backend selected at run time, such as an
//! x86-64 mulx/adx one, returns false on a CPU without those instructions, and its column is then
//! skipped, not failed).

#![forbid(unsafe_code)]

/// One field operation, measured as latency: each operation takes the previous one's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// `x ← x · y`.
    Mul,
    /// `x ← x²`.
    Square,
    /// `x ← x + y`.
    Add,
    /// `x ← x⁻¹ + y` (the addition keeps inputs varied for variable-time inverses; it costs well
    /// under 1 % of an inversion).
    Invert,
    /// `x ← √(x²) + y` (squaring first makes every input a square; the square and the addition
    /// cost about 1 % of a square root).
    Sqrt,
}

impl Op {
    /// Every operation, in report order.
    pub const ALL: [Op; 5] = [Op::Mul, Op::Square, Op::Add, Op::Invert, Op::Sqrt];

    /// The id used in benchmark names (`mul`, `square`, `add`, `invert`, `sqrt`).
    pub const fn id(self) -> &'static str {
        match self {
            Op::Mul => "mul",
            Op::Square => "square",
            Op::Add => "add",
            Op::Invert => "invert",
            Op::Sqrt => "sqrt",
        }
    }

    /// Parses an [`Op::id`].
    pub fn from_id(id: &str) -> Option<Op> {
        Op::ALL.into_iter().find(|op| op.id() == id)
    }

    /// How many chained operations one criterion iteration performs. Enough that the loop and
    /// criterion's per-iteration overhead vanish beside the work, few enough that slow columns
    /// (a 32-bit inversion at 381 bits) still fit many samples in the measurement time.
    pub const fn chain_len(self) -> u64 {
        match self {
            Op::Mul | Op::Square => 64,
            Op::Add => 256,
            Op::Invert | Op::Sqrt => 4,
        }
    }
}

/// A field of the matrix.
#[derive(Clone, Copy, Debug)]
pub struct Field {
    /// Criterion group name, e.g. `bn254-fq`.
    pub id: &'static str,
    /// Heading in the report.
    pub title: &'static str,
    /// Bit length of the modulus. Benchmark inputs are below 2^(bits-1), hence below p.
    pub bits: u32,
    /// The operations measured for this field.
    pub ops: &'static [Op],
}

const ALL_OPS: &[Op] = &Op::ALL;
const MUL_SQUARE: &[Op] = &[Op::Mul, Op::Square];

/// Every field of the matrix, in report order.
pub const FIELDS: &[Field] = &[
    Field {
        id: "bn254-fq",
        title: "BN254 (alt_bn128) base field Fq, 254 bits",
        bits: 254,
        ops: ALL_OPS,
    },
    Field {
        id: "bn254-fr",
        title: "BN254 (alt_bn128) scalar field Fr, 254 bits",
        bits: 254,
        ops: ALL_OPS,
    },
    Field {
        id: "bls12-381-fp",
        title: "BLS12-381 base field Fp, 381 bits",
        bits: 381,
        ops: ALL_OPS,
    },
    Field {
        id: "curve25519-p",
        title: "Curve25519 base field, p = 2^255 - 19",
        bits: 255,
        ops: MUL_SQUARE,
    },
    Field {
        id: "secp256k1-p",
        title: "secp256k1 base field, p = 2^256 - 2^32 - 977",
        bits: 256,
        ops: MUL_SQUARE,
    },
    Field {
        id: "p256-p",
        title: "NIST P-256 base field, p = 2^256 - 2^224 + 2^192 + 2^96 - 1",
        bits: 256,
        ops: MUL_SQUARE,
    },
];

/// Looks up a field by [`Field::id`].
pub fn field(id: &str) -> Option<&'static Field> {
    FIELDS.iter().find(|f| f.id == id)
}

/// A group of curve-level benchmarks (one criterion iteration = one operation), reported
/// like a field: rows are its operations, columns ours and the peers.
#[derive(Clone, Copy, Debug)]
pub struct CurveGroup {
    /// Criterion group name, e.g. `curve25519`.
    pub id: &'static str,
    /// Heading in the report.
    pub title: &'static str,
    /// Operation ids (benchmark function names), in report order.
    pub ops: &'static [&'static str],
}

/// X25519 and Ed25519 (`benches/curves.rs`).
pub const CURVE25519: CurveGroup = CurveGroup {
    id: "curve25519",
    title: "X25519 (RFC 7748) and Ed25519 (RFC 8032), µs per operation; batch64 = one batch of 64 signatures",
    ops: &[
        "x25519",
        "x25519-base",
        "ed25519-sign",
        "ed25519-verify",
        "ed25519-batch64",
    ],
};

/// Every curve group, in report order (after the fields).
pub const CURVE_GROUPS: &[CurveGroup] = &[CURVE25519];

/// Looks up a curve group by [`CurveGroup::id`].
pub fn curve_group(id: &str) -> Option<&'static CurveGroup> {
    CURVE_GROUPS.iter().find(|g| g.id == id)
}

/// Our backends, in column order. A column id is `ours-<backend>`.
pub const OUR_BACKENDS: &[&str] = &["avx512ifma", "x86_64-adx", "portable64", "portable32"];

/// Prefix of the column ids of our backends.
pub const OURS_PREFIX: &str = "ours-";

/// A peer column: its id and what it measures (for the report's legend).
#[derive(Clone, Copy, Debug)]
pub struct Peer {
    /// Column id in benchmark names.
    pub id: &'static str,
    /// One line: crate, version, features and the type or function measured.
    pub about: &'static str,
}

/// Every peer column, in column order.
pub const PEERS: &[Peer] = &[
    Peer {
        id: "ark-ff",
        about: "ark-ff 0.6 with `asm` (ark-bn254 / ark-bls12-381 0.6 `Fq`, `Fr`); inverse is a \
                variable-time binary extended Euclid, sqrt is variable-time Tonelli-Shanks",
    },
    Peer {
        id: "halo2curves",
        about: "halo2curves 0.10 with `asm` (x86-64 asm for 4-limb fields), `bits`: `bn256::{Fq, Fr}`, \
                `bls12381::Fq`, `secp256k1::Fp`, `secp256r1::Fp`",
    },
    Peer {
        id: "blst",
        about: "blst 0.3 raw C API: `blst_fp_mul`, `blst_fp_sqr`, `blst_fp_add`, `blst_fp_inverse` \
                (constant time), `blst_fp_sqrt`",
    },
    Peer {
        id: "crypto-bigint-const",
        about: "crypto-bigint 0.7 `ConstMontyForm` (modulus a compile-time constant, generic code)",
    },
    Peer {
        id: "crypto-bigint-fixed",
        about: "crypto-bigint 0.7 `FixedMontyForm` (modulus known at run time); it has no sqrt",
    },
    Peer {
        id: "substrate-bn",
        about: "substrate-bn 0.6 `Fq`, `Fr` (no dedicated squaring: square is `x * x`; no Fr sqrt)",
    },
    Peer {
        id: "fiat-5x51",
        about: "fiat-crypto 0.3 `curve25519_64`: unsaturated 5x51 limbs, `fiat_25519_carry_mul` / \
                `_carry_square` on a relaxed (loose) input",
    },
    Peer {
        id: "fiat-solinas",
        about: "fiat-crypto 0.3 `curve25519_solinas_64`: saturated 4x64 limbs",
    },
    Peer {
        id: "fiat-dettman",
        about: "fiat-crypto 0.3 `secp256k1_dettman_64`: unsaturated 5x52 limbs",
    },
    Peer {
        id: "fiat-montgomery",
        about: "fiat-crypto 0.3 `p256_64` / `secp256k1_montgomery_64`: saturated Montgomery",
    },
    Peer {
        id: "crrl",
        about: "crrl 0.9 (default features off; `std gf25519 gfp256 gfsecp256k1 gfb254 x25519 ed25519 p256 secp256k1 gls254`): \
                `GF25519`, `GFsecp256k1`, `GFp256`; `x25519::{x25519, x25519_base}`, `ed25519::{PrivateKey::sign_raw, PublicKey::verify_raw}`",
    },
    Peer {
        id: "x25519-dalek",
        about: "x25519-dalek 3 (`static_secrets`): `x25519`, `PublicKey::from(&StaticSecret)`",
    },
    Peer {
        id: "ed25519-dalek",
        about: "ed25519-dalek 3 (`batch`): `SigningKey::sign`, `VerifyingKey::verify`, `verify_batch`",
    },
    Peer {
        id: "openssl",
        about: "OpenSSL through the openssl crate 0.10 (system libcrypto): X25519 `Deriver` (context set-up \
                included), base = private key from raw bytes + `raw_public_key`; Ed25519 one-shot \
                `Signer`/`Verifier` (context set-up included); it has no batch verification",
    },
];

/// The column id of one of our backends.
pub fn ours_column(backend: &str) -> String {
    format!("{OURS_PREFIX}{backend}")
}

/// Whether a column id is one of ours.
pub fn is_ours(column: &str) -> bool {
    column.starts_with(OURS_PREFIX)
}

/// Sort key of a column: ours first (in [`OUR_BACKENDS`] order, unknown backends of ours after
/// them), then peers in [`PEERS`] order, then unknown columns; ties broken by name.
pub fn column_order(column: &str) -> (u8, usize, String) {
    if let Some(backend) = column.strip_prefix(OURS_PREFIX) {
        let i = OUR_BACKENDS.iter().position(|b| *b == backend);
        (0, i.unwrap_or(usize::MAX), column.to_string())
    } else {
        let i = PEERS.iter().position(|p| p.id == column);
        (1, i.unwrap_or(usize::MAX), column.to_string())
    }
}

/// Deterministic benchmark inputs: `count` little-endian byte strings of `(bits + 7) / 8` bytes,
/// each below 2^(bits-1) and hence below any `bits`-bit modulus. Every column of a field starts
/// from the same integers. `seed` selects the stream (splitmix64).
pub fn inputs(bits: u32, seed: u64, count: usize) -> Vec<Vec<u8>> {
    let len = bits.div_ceil(8) as usize;
    let mut rng = fieldgen_test_support::SplitMix64(seed);
    (0..count)
        .map(|_| {
            // Whole outputs, little-endian; the unused high bytes of the last one are dropped.
            let mut bytes = vec![0u8; len.div_ceil(8) * 8];
            rng.fill_le_bytes(&mut bytes);
            bytes.truncate(len);
            // Keep bits 0 ..= bits-2: the value is below 2^(bits-1) <= p.
            let keep = bits - 1;
            for (i, byte) in (0u32..).zip(bytes.iter_mut()) {
                let lo = 8 * i;
                if lo >= keep {
                    *byte = 0;
                } else if lo + 8 > keep {
                    *byte &= (1u8 << (keep - lo)) - 1;
                }
            }
            bytes
        })
        .collect()
}

/// Interleaved best-of timing for the `*_interleaved` examples: runs each contender once per
/// round, in turn, for `rounds` rounds, and returns each one's fastest call in nanoseconds (same
/// order as `fs`). Alternating call by call and keeping minima lets a shared, loaded machine
/// still give comparable figures: preemption only ever adds time to a call.
pub fn race(rounds: usize, fs: &mut [&mut dyn FnMut()]) -> Vec<f64> {
    let mut best = vec![f64::MAX; fs.len()];
    for _ in 0..rounds {
        for (k, f) in fs.iter_mut().enumerate() {
            let t = std::time::Instant::now();
            f();
            best[k] = best[k].min(t.elapsed().as_nanos() as f64);
        }
    }
    best
}

/// `len` deterministic bytes, one per SplitMix64 output (the low byte) from `seed`: the inputs
/// of the RSA and binary-field benchmarks, so that every run and every contender starts from the
/// same values.
pub use fieldgen_test_support::splitmix_bytes;

/// A 32-byte value from the deterministic input generator ([`inputs`] at 257 bits, `seed`).
pub fn bytes32(seed: u64) -> [u8; 32] {
    let v = inputs(257, seed, 1).pop().unwrap();
    v[..32].try_into().unwrap()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inputs_are_below_half_the_modulus_bound() {
        for f in FIELDS {
            for bytes in inputs(f.bits, 7, 4) {
                assert_eq!(bytes.len(), f.bits.div_ceil(8) as usize);
                let top_bit = (0..bytes.len() * 8)
                    .rev()
                    .find(|&i| bytes[i / 8] >> (i % 8) & 1 == 1)
                    .unwrap();
                assert!(top_bit < f.bits as usize - 1, "{}", f.id);
            }
        }
    }

    #[test]
    fn ours_sort_before_peers() {
        let mut cols = [
            "crrl",
            "ours-portable32",
            "zzz",
            "ark-ff",
            "ours-portable64",
            "ours-x",
        ];
        cols.sort_by_key(|c| column_order(c));
        assert_eq!(
            cols,
            [
                "ours-portable64",
                "ours-portable32",
                "ours-x",
                "ark-ff",
                "crrl",
                "zzz"
            ]
        );
    }

    #[test]
    fn op_ids_round_trip() {
        for op in Op::ALL {
            assert_eq!(Op::from_id(op.id()), Some(op));
        }
    }
}

/// The batch-verification workload of the curve benchmarks: `n` signatures by `n` keys on `n`
/// messages (keys from seeds 100.., messages from seeds 200..), in our types and in
/// ed25519-dalek's; both batch verifiers accept it when it is built.
#[cfg(feature = "peers")]
pub struct Ed25519Batch {
    /// The messages, 32 bytes each.
    pub msgs: Vec<Vec<u8>>,
    /// Our signatures and verifying keys.
    pub sigs: Vec<fieldgen_curve25519::ed25519::Signature>,
    pub vks: Vec<fieldgen_curve25519::ed25519::VerifyingKey>,
    /// The same signatures and keys decoded by ed25519-dalek.
    pub dsigs: Vec<ed25519_dalek::Signature>,
    pub dvks: Vec<ed25519_dalek::VerifyingKey>,
}

#[cfg(feature = "peers")]
impl Ed25519Batch {
    /// Builds the workload and checks it with both batch verifiers (panics if either refuses).
    pub fn new(n: u64) -> Self {
        use fieldgen_curve25519::ed25519::{verify_batch, SigningKey};
        let keys: Vec<SigningKey> = (0..n)
            .map(|i| SigningKey::from_bytes(&bytes32(100 + i)))
            .collect();
        let msgs: Vec<Vec<u8>> = (0..n).map(|i| bytes32(200 + i).to_vec()).collect();
        let sigs: Vec<_> = keys.iter().zip(&msgs).map(|(k, m)| k.sign(m)).collect();
        let vks: Vec<_> = keys.iter().map(|k| k.verifying_key()).collect();
        let dsigs: Vec<_> = sigs
            .iter()
            .map(|s| ed25519_dalek::Signature::from_bytes(&s.to_bytes()))
            .collect();
        let dvks: Vec<_> = vks
            .iter()
            .map(|k| ed25519_dalek::VerifyingKey::from_bytes(&k.to_bytes()).unwrap())
            .collect();
        let batch = Ed25519Batch {
            msgs,
            sigs,
            vks,
            dsigs,
            dvks,
        };
        verify_batch(&batch.refs(), &batch.sigs, &batch.vks).unwrap();
        ed25519_dalek::verify_batch(&batch.refs(), &batch.dsigs, &batch.dvks).unwrap();
        batch
    }

    /// The messages as slices, as both `verify_batch` functions take them.
    pub fn refs(&self) -> Vec<&[u8]> {
        self.msgs.iter().map(Vec::as_slice).collect()
    }
}
