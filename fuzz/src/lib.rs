//! Fuzz targets for fieldgen: each takes the fuzzer's bytes and either compares the code with an
//! independent oracle (num-bigint, a GF(2)\[x\] reference on `BigUint`, ed25519-dalek,
//! x25519-dalek, RustCrypto's `p256`) or asserts an invariant (bad input is an error value,
//! never a panic; decode∘encode is the identity). A failed check panics, which libFuzzer
//! reports as a crash and the corpus replay test as a failure.
//!
//! The same functions run two ways: under libFuzzer (`fuzz_targets/`, feature `libfuzzer`,
//! built with coverage instrumentation by `run.sh`; the same binary given a file name replays
//! that input), and over the committed seed corpora (`tests/corpus.rs`, a plain test in the
//! workspace run). See README.md for the commands.

pub mod decoders;
pub mod differential;
pub mod field;
pub mod frontend;

/// Reads the fuzzer's bytes front to back; past the end it yields zeros, so every input maps
/// to some test case.
pub struct Input<'a> {
    data: &'a [u8],
}

impl<'a> Input<'a> {
    /// Wraps `data`.
    pub fn new(data: &'a [u8]) -> Input<'a> {
        Input { data }
    }

    /// The next byte (0 past the end).
    pub fn byte(&mut self) -> u8 {
        match self.data.split_first() {
            Some((&b, rest)) => {
                self.data = rest;
                b
            }
            None => 0,
        }
    }

    /// The next `n` bytes, zero-padded past the end.
    pub fn bytes(&mut self, n: usize) -> Vec<u8> {
        let k = n.min(self.data.len());
        let mut v = self.data[..k].to_vec();
        self.data = &self.data[k..];
        v.resize(n, 0);
        v
    }

    /// The next `N` bytes as an array, zero-padded past the end.
    pub fn array<const N: usize>(&mut self) -> [u8; N] {
        let mut a = [0u8; N];
        a.copy_from_slice(&self.bytes(N));
        a
    }

    /// The next little-endian u32 (zero-padded).
    pub fn u32(&mut self) -> u32 {
        u32::from_le_bytes(self.array())
    }

    /// The next little-endian u64 (zero-padded).
    pub fn u64(&mut self) -> u64 {
        u64::from_le_bytes(self.array())
    }

    /// A length-prefixed chunk: one byte n, then up to n bytes (fewer at the end).
    pub fn chunk(&mut self) -> &'a [u8] {
        let n = self.byte() as usize;
        let k = n.min(self.data.len());
        let (c, rest) = self.data.split_at(k);
        self.data = rest;
        c
    }

    /// Everything not yet read.
    pub fn rest(&mut self) -> &'a [u8] {
        core::mem::take(&mut self.data)
    }
}

/// One fuzz target: its name (the directory of its corpus and the name of its libFuzzer
/// binary) and the function that checks one input.
pub struct Target {
    /// The target's name.
    pub name: &'static str,
    /// Checks one input; panics on a finding.
    pub run: fn(&[u8]),
}

/// Every target, in the order README.md lists them.
pub const TARGETS: &[Target] = &[
    Target {
        name: "field_prime",
        run: field::prime,
    },
    Target {
        name: "field_binary",
        run: field::binary,
    },
    Target {
        name: "generator_frontend",
        run: frontend::run,
    },
    Target {
        name: "decode_curve25519",
        run: decoders::curve25519,
    },
    Target {
        name: "decode_weierstrass",
        run: decoders::weierstrass,
    },
    Target {
        name: "decode_binary_curves",
        run: decoders::binary_curves,
    },
    Target {
        name: "decode_bn",
        run: decoders::bn,
    },
    Target {
        name: "decode_rsa",
        run: decoders::rsa,
    },
    Target {
        name: "diff_x25519",
        run: differential::x25519,
    },
    Target {
        name: "diff_ed25519",
        run: differential::ed25519,
    },
    Target {
        name: "diff_p256",
        run: differential::p256,
    },
];

/// The target named `name`.
pub fn target(name: &str) -> Option<&'static Target> {
    TARGETS.iter().find(|t| t.name == name)
}
