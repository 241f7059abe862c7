//! The `generator` command: writes one prime-field, binary-field or RSA-context module (one
//! `generator::Request` each, through `generator::generate`), lists presets, derives BN
//! curve constants, or regenerates the committed `generated/` crate. Bad input prints one line on stderr and exits with code 2,
//! writing nothing.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use generator::binary::{BinaryFieldOptions, BINARY_PRESETS};
use generator::spec::{LimbBits, PRESETS};
use generator::strategy::{MulAlgorithm, Strategy};
use generator::{generate, regen, PrimeFieldOptions, Request, Target};

const EXAMPLES: &str = "Examples:
  cargo run -p generator -- --prime 2^255-19
  cargo run -p generator -- --prime bn254-p --name Fq --out src/fq.rs
  cargo run -p generator -- --prime 0xffffffff00000001 --limb-bits 32
  cargo run -p generator -- --prime 2^384-2^128-2^96+2^32-1 --mul product-scanning
  cargo run -p generator -- --prime bls12-381-p --target x86_64-adx
  cargo run -p generator -- --prime secp256k1-p --strategy solinas
  cargo run -p generator -- --poly \"x^163+x^7+x^6+x^3+1\" --name F163
  cargo run -p generator -- --poly sect283 --limb-bits 32
  cargo run -p generator -- --list-presets
  cargo run -p generator -- regen --check
  cargo run -p generator -- bn --z -0x4080000000000001 --b 2 --xi-a 1";

/// Generates straight-line finite-field arithmetic in Rust for one prime.
#[derive(Parser, Debug)]
#[command(name = "generator", version, about, after_help = EXAMPLES, args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// The prime: decimal, 0x hex, an expression such as 2^255-19, or a preset name.
    #[arg(long, value_name = "P")]
    prime: Option<String>,
    /// A binary field GF(2^m): an irreducible polynomial over GF(2) such as
    /// x^163+x^7+x^6+x^3+1 (degree 2..=1024), or a binary preset name (sect163, ...).
    #[arg(long, value_name = "F", conflicts_with_all = ["prime", "mul"])]
    poly: Option<String>,
    /// Name of the generated field type (default: Fp; for --poly the preset's name or F2m).
    #[arg(long)]
    name: Option<String>,
    /// Limb size in bits (default: 32 for --target portable32, armv7, sparc32 and wasm32, else 64).
    #[arg(long, value_name = "64|32")]
    limb_bits: Option<u32>,
    /// Montgomery multiplication algorithm (default: cios-no-carry when p has two spare bits, else cios).
    #[arg(long, value_enum)]
    mul: Option<MulArg>,
    /// Code to emit: auto = portable code plus, for 64-bit limbs, the x86_64-adx assembly for
    /// mul/square selected by cfg(target_feature) at compile time or CPUID at run time, and
    /// the aarch64 assembly under cfg(target_arch = "aarch64"), and for 32-bit limbs the armv7
    /// UMAAL assembly on ARM targets that have it;
    /// portable64, portable32, x86_64-adx, aarch64, armv7 = that backend only;
    /// sparc32 (32-bit big-endian) and wasm32 = the portable 32-bit code.
    /// Binary fields (--poly) take auto, portable64, portable32, sparc32 and wasm32 (the last
    /// two as portable32); RSA contexts (--rsa-bits) take auto only; any other combination is
    /// an error.
    #[arg(long, value_enum, default_value_t = TargetArg::Auto)]
    target: TargetArg,
    /// Reduction strategy: auto = the special form when the prime has one and it is expected to
    /// be faster (pseudo-Mersenne 2^k-c with a one-limb c and a spare bit), else Montgomery;
    /// montgomery; pseudo-mersenne (2^k-c, c below 2^w); solinas (2^k-c, multi-limb c);
    /// unsaturated (2^k-c, c below 2^(w/2), limbs of about k/m bits: see --radix).
    #[arg(long, value_enum, default_value_t = StrategyArg::Auto)]
    strategy: StrategyArg,
    /// Limb width for --strategy unsaturated: ceil(k/BITS) limbs (default: 51-bit limbs for
    /// 2^255-19 and 58-bit for 2^521-1 on 64-bit words, 25.5-bit on 32-bit words).
    #[arg(long, value_name = "BITS")]
    radix: Option<u32>,
    /// Write the module to FILE instead of stdout.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// List the preset moduli and exit.
    #[arg(long)]
    list_presets: bool,
    /// Instead of a prime field, a Montgomery context MontN for a run-time RSA modulus of N bits
    /// (768, 1024, 1536, 2048, 3072 or 4096); --name defaults to MontN.
    #[arg(long, value_name = "N", conflicts_with_all = ["prime", "poly", "limb_bits", "mul", "list_presets"])]
    rsa_bits: Option<usize>,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum MulArg {
    Cios,
    CiosNoCarry,
    ProductScanning,
    Sos,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum StrategyArg {
    Auto,
    Montgomery,
    PseudoMersenne,
    Solinas,
    Unsaturated,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum TargetArg {
    Auto,
    Portable64,
    Portable32,
    #[value(name = "x86_64-adx")]
    X86_64Adx,
    Aarch64,
    Armv7,
    Sparc32,
    Wasm32,
}

impl TargetArg {
    fn target(self) -> Target {
        match self {
            TargetArg::Auto => Target::Auto,
            TargetArg::Portable64 => Target::Portable64,
            TargetArg::Portable32 => Target::Portable32,
            TargetArg::X86_64Adx => Target::X86_64Adx,
            TargetArg::Aarch64 => Target::Aarch64,
            TargetArg::Armv7 => Target::Armv7,
            TargetArg::Sparc32 => Target::Sparc32,
            TargetArg::Wasm32 => Target::Wasm32,
        }
    }
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Rewrite generated/ from generated/manifest.toml (or, with --check, report differences).
    Regen {
        /// Do not write: exit 1 and name the files that differ from what regen would write.
        #[arg(long)]
        check: bool,
        /// The generated/ directory (default: the one in this workspace).
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
    },
    /// Derive a BN curve from (z, b, xi_a) and print its parameter file (the form regen writes
    /// under curves/bn/src/params/); exit 2 when p or r is not prime, xi = xi_a + i is not a
    /// sextic non-residue in Fp2, or b gives no points of order r.
    Bn {
        /// The BN parameter z: decimal or 0x hex, optionally negative.
        #[arg(long, allow_hyphen_values = true)]
        z: String,
        /// The curve constant b of y^2 = x^3 + b.
        #[arg(long)]
        b: u64,
        /// xi = xi_a + i, the non-residue of the tower.
        #[arg(long, value_name = "A")]
        xi_a: u64,
        /// Module stem of the curve and its field presets (`<NAME>_p`, `<NAME>_r`).
        #[arg(long, default_value = "mybn")]
        name: String,
    },
}

fn fail(msg: impl std::fmt::Display) -> ExitCode {
    eprintln!("error: {msg}");
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                let _ = e.print();
                return ExitCode::SUCCESS;
            }
            let text = e.to_string();
            let first = text
                .lines()
                .next()
                .unwrap_or("invalid arguments")
                .trim_start_matches("error: ");
            return fail(format!("{first} (see --help)"));
        }
    };
    if let Some(Command::Bn { z, b, xi_a, name }) = &cli.command {
        return match generator::bn::derive(z, *b, *xi_a, None) {
            Ok(c) => {
                let ty: String = name
                    .split('_')
                    .map(|w| {
                        let mut cs = w.chars();
                        cs.next()
                            .map(|f| f.to_uppercase().collect::<String>() + cs.as_str())
                            .unwrap_or_default()
                    })
                    .collect();
                print!(
                    "{}",
                    c.to_rust(
                        &ty,
                        name,
                        "a user curve",
                        &format!("{name}_p"),
                        &format!("{name}_r")
                    )
                );
                ExitCode::SUCCESS
            }
            Err(e) => fail(e),
        };
    }
    if let Some(Command::Regen { check, dir }) = cli.command {
        // The RSA crate beside generated/ is regenerated with it (unless --dir names another tree).
        let rsa_dir = dir
            .is_none()
            .then(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../generated-rsa"));
        // So is the BN crate's parameter directory (curves/bn/src/params).
        let bn_dir = rsa_dir
            .as_ref()
            .map(|_| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../curves/bn"));
        let dir =
            dir.unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../generated"));
        if check {
            let problems = regen::check(&dir);
            let problems = match (problems, &rsa_dir) {
                (Ok(mut p), Some(r)) => generator::rsa::check(r).map(|q| {
                    p.extend(q);
                    p
                }),
                (p, _) => p,
            };
            let problems = match (problems, &bn_dir) {
                (Ok(mut p), Some(d)) => generator::bn::check(d).map(|q| {
                    p.extend(q);
                    p
                }),
                (p, _) => p,
            };
            return match problems {
                Ok(problems) if problems.is_empty() => {
                    println!("generated/ is up to date");
                    ExitCode::SUCCESS
                }
                Ok(problems) => {
                    for p in &problems {
                        eprintln!("{p}");
                    }
                    eprintln!("error: generated/ is out of date ({} files); run `cargo run -p generator -- regen`", problems.len());
                    ExitCode::from(1)
                }
                Err(e) => fail(e),
            };
        }
        let files = regen::write(&dir);
        let files = match (files, rsa_dir) {
            (Ok(mut f), Some(r)) => generator::rsa::write(&r).map(|g| {
                f.extend(g);
                f
            }),
            (f, _) => f,
        };
        let files = match (files, bn_dir) {
            (Ok(mut f), Some(d)) => generator::bn::write(&d).map(|g| {
                f.extend(g);
                f
            }),
            (f, _) => f,
        };
        return match files {
            Ok(files) => {
                println!("regenerated {} files in {}", files.len(), dir.display());
                ExitCode::SUCCESS
            }
            Err(e) => fail(e),
        };
    }
    if cli.list_presets {
        for p in PRESETS {
            let aliases = if p.aliases.is_empty() {
                String::new()
            } else {
                format!(" (also: {})", p.aliases.join(", "))
            };
            println!(
                "{:<14} {:<4} {}{}",
                p.name, p.type_name, p.description, aliases
            );
        }
        println!("binary fields (--poly):");
        for p in BINARY_PRESETS {
            println!(
                "{:<14} {:<4} {} = {} (also: {})",
                p.name,
                p.type_name,
                p.description,
                p.poly,
                p.aliases.join(", ")
            );
        }
        return ExitCode::SUCCESS;
    }
    let target = cli.target.target();
    if let Some(poly) = cli.poly {
        return binary(poly, cli.name, cli.limb_bits, target, cli.out);
    }
    if let Some(bits) = cli.rsa_bits {
        let mut options = generator::rsa::RsaOptions::new(bits);
        if let Some(name) = cli.name {
            options.name = name;
        }
        return run(&Request::RsaContext { options, target }, cli.out);
    }
    let Some(prime) = cli.prime else {
        return fail(
            "no prime given: use --prime <P> (e.g. --prime 2^255-19), --poly <F>, --list-presets, or regen",
        );
    };
    let limb_bits = match cli.limb_bits {
        None => target.limb_bits().unwrap_or(LimbBits::W64),
        Some(bits) => match LimbBits::from_bits(bits) {
            Ok(l) => l,
            Err(e) => return fail(e),
        },
    };
    let options = PrimeFieldOptions {
        modulus: prime,
        name: cli.name.unwrap_or_else(|| "Fp".to_string()),
        limb_bits,
        mul: cli.mul.map(|m| match m {
            MulArg::Cios => MulAlgorithm::Cios,
            MulArg::CiosNoCarry => MulAlgorithm::CiosNoCarry,
            MulArg::ProductScanning => MulAlgorithm::ProductScanning,
            MulArg::Sos => MulAlgorithm::Sos,
        }),
        strategy: match cli.strategy {
            StrategyArg::Auto => Strategy::Auto,
            StrategyArg::Montgomery => Strategy::Montgomery,
            StrategyArg::PseudoMersenne => Strategy::PseudoMersenne,
            StrategyArg::Solinas => Strategy::Solinas,
            StrategyArg::Unsaturated => Strategy::Unsaturated,
        },
        radix: cli.radix,
    };
    run(&Request::PrimeField { options, target }, cli.out)
}

/// Generates `request` and writes the file, or fails with the error's one line.
fn run(request: &Request, out: Option<PathBuf>) -> ExitCode {
    match generate(request) {
        Ok(g) => write_output(&g.to_file(), out),
        Err(e) => fail(e),
    }
}

/// `--poly`: a binary field. Which targets serve binary fields, and which map to the
/// portable 32-bit code, is the generator's target table (`generator::target::TARGETS`).
fn binary(
    poly: String,
    name: Option<String>,
    limb_bits: Option<u32>,
    target: Target,
    out: Option<PathBuf>,
) -> ExitCode {
    let limb_bits = match limb_bits {
        None => target.limb_bits().unwrap_or(LimbBits::W64),
        Some(bits) => match LimbBits::from_bits(bits) {
            Ok(l) => l,
            Err(e) => return fail(e),
        },
    };
    let name = name.unwrap_or_else(|| {
        generator::binary::find_binary_preset(&poly)
            .map_or("F2m", |p| p.type_name)
            .to_string()
    });
    let options = BinaryFieldOptions {
        poly,
        name,
        limb_bits,
    };
    run(&Request::BinaryField { options, target }, out)
}

/// Writes the module to `out` (atomically) or stdout.
fn write_output(text: &str, out: Option<PathBuf>) -> ExitCode {
    match out {
        Some(path) => {
            // Write beside the target, then rename: a failure leaves no partial file.
            let tmp = path.with_extension("rs.tmp");
            if let Err(e) = std::fs::write(&tmp, text).and_then(|_| std::fs::rename(&tmp, &path)) {
                let _ = std::fs::remove_file(&tmp);
                return fail(format!("cannot write {}: {e}", path.display()));
            }
        }
        None => {
            let mut out = std::io::stdout().lock();
            if out.write_all(text.as_bytes()).is_err() {
                return fail("cannot write to stdout");
            }
        }
    }
    ExitCode::SUCCESS
}
