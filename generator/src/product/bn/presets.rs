//! The BN curves the repository commits, by parameter z (with the published generators where a
//! standard fixes them), and their parameter files.

use super::*;

/// A published generator pair, as decimal strings (an Fp2 value a + b·i as [a, b]).
#[derive(Clone, Copy, Debug)]
pub struct PublishedGenerators {
    /// G1 (x, y); x may be negative ("-1").
    pub g1: (&'static str, &'static str),
    /// G2 x = [a, b], y = [a, b].
    pub g2: ([&'static str; 2], [&'static str; 2]),
    /// Where they are published.
    pub source: &'static str,
}

/// A named BN curve: its inputs and where its code goes.
#[derive(Clone, Copy, Debug)]
pub struct BnPreset {
    /// File stem and module name (`bn254`).
    pub module: &'static str,
    /// The marker type (`Bn254`).
    pub type_name: &'static str,
    /// The display name.
    pub display: &'static str,
    /// What the curve is known as elsewhere.
    pub aliases: &'static str,
    /// z in decimal or `0x` hex with an optional leading minus sign.
    pub z: &'static str,
    /// The curve constant b.
    pub b: u64,
    /// ξ = ξ_a + i.
    pub xi_a: u64,
    /// The generated field presets of p and r (`bn254-p`, `bn254-r`): module stems.
    pub fp_module: &'static str,
    /// The scalar field module stem.
    pub fr_module: &'static str,
    /// The standard's generators, when one fixes them.
    pub generators: Option<PublishedGenerators>,
}

/// The four curves of mcl's `CurveParam` (herumi/mcl include/mcl/curve_type.hpp).
pub const BN_PRESETS: &[BnPreset] = &[
    BnPreset {
        module: "bn254",
        type_name: "Bn254",
        display: "BN254",
        aliases: "alt_bn128, Ethereum's EIP-196/197 curve, mcl BN_SNARK1",
        z: "4965661367192848881",
        b: 3,
        xi_a: 9,
        fp_module: "bn254_p",
        fr_module: "bn254_r",
        generators: Some(PublishedGenerators {
            g1: ("1", "2"),
            g2: (
                [
                    "10857046999023057135944570762232829481370756359578518086990519993285655852781",
                    "11559732032986387107991004021392285783925812861821192530917403151452391805634",
                ],
                [
                    "8495653923123431417604973247489272438418190587263600148770280649306958101930",
                    "4082367875863433681332203403145435568316851327593401208105741076214120093531",
                ],
            ),
            source: "EIP-197 (P1 = (1, 2), P2 as specified there)",
        }),
    },
    BnPreset {
        module: "fp254bnb",
        type_name: "Fp254Bnb",
        display: "Fp254BNb",
        aliases: "mcl CurveFp254BNb (mcl's \"BN254\"), Nogami et al.'s z = -(2^62 + 2^55 + 1)",
        z: "-0x4080000000000001",
        b: 2,
        xi_a: 1,
        fp_module: "fp254bnb_p",
        fr_module: "fp254bnb_r",
        generators: Some(PublishedGenerators {
            g1: ("-1", "1"),
            g2: (
                [
                    "12723517038133731887338407189719511622662176727675373276651903807414909099441",
                    "4168783608814932154536427934509895782246573715297911553964171371032945126671",
                ],
                [
                    "13891744915211034074451795021214165905772212241412891944830863846330766296736",
                    "7937318970632701341203597196594272556916396164729705624521405069090520231616",
                ],
            ),
            source: "mcl test/bn_test.cpp (g_testSetTbl, the points of its BN254 pairing test)",
        }),
    },
    BnPreset {
        module: "bn381",
        type_name: "Bn381",
        display: "BN381_1",
        aliases: "mcl CurveFp381",
        z: "-0x400011000000000000000001",
        b: 2,
        xi_a: 1,
        fp_module: "bn381_p",
        fr_module: "bn381_r",
        generators: None,
    },
    BnPreset {
        module: "bn462",
        type_name: "Bn462",
        display: "BN462",
        aliases: "mcl CurveFp462",
        z: "0x4001fffffffffffffffffffffbfff",
        b: 5,
        xi_a: 2,
        fp_module: "bn462_p",
        fr_module: "bn462_r",
        generators: None,
    },
];

impl BnPreset {
    /// Derives this preset's constants.
    pub fn derive(&self) -> Result<BnConstants, BnError> {
        derive(self.z, self.b, self.xi_a, self.generators.as_ref())
    }
    /// The emitted file.
    pub fn to_rust(&self) -> Result<String, BnError> {
        Ok(self.derive()?.to_rust(
            self.type_name,
            self.display,
            self.aliases,
            self.fp_module,
            self.fr_module,
        ))
    }
}
