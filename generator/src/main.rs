//! The `generator` command: writes one prime-field module, lists presets, or regenerates the
//! committed `generated/` crate. Bad input prints one line on stderr and exits with code 2,
//! writing nothing.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use generator::lower::{MulAlgorithm, Strategy};
use generator::spec::{LimbBits, PRESETS};
use generator::{generate_prime_field_for, regen, PrimeFieldOptions, Target};

const EXAMPLES: &str = "Examples:
  cargo run -p generator -- --prime 2^255-19
  cargo run -p generator -- --prime bn254-p --name Fq --out src/fq.rs
  cargo run -p generator -- --prime 0xffffffff00000001 --limb-bits 32
  cargo run -p generator -- --prime 2^384-2^128-2^96+2^32-1 --mul product-scanning
  cargo run -p generator -- --prime bls12-381-p --target x86_64-adx
  cargo run -p generator -- --prime secp256k1-p --strategy solinas
  cargo run -p generator -- --list-presets
  cargo run -p generator -- regen --check";

/// Generates straight-line finite-field arithmetic in Rust for one prime.
#[derive(Parser, Debug)]
#[command(name = "generator", version, about, after_help = EXAMPLES, args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// The prime: decimal, 0x hex, an expression such as 2^255-19, or a preset name.
    #[arg(long, value_name = "P")]
    prime: Option<String>,
    /// Name of the generated field type.
    #[arg(long, default_value = "Fp")]
    name: String,
    /// Limb size in bits (default: 32 for --target portable32, else 64).
    #[arg(long, value_name = "64|32")]
    limb_bits: Option<u32>,
    /// Montgomery multiplication algorithm (default: cios-no-carry when p has two spare bits, else cios).
    #[arg(long, value_enum)]
    mul: Option<MulArg>,
    /// Code to emit: auto = portable code plus, for 64-bit limbs, the x86_64-adx assembly for
    /// mul/square selected by cfg(target_feature) at compile time or CPUID at run time;
    /// portable64, portable32, x86_64-adx = that backend only.
    #[arg(long, value_enum, default_value_t = TargetArg::Auto)]
    target: TargetArg,
    /// Reduction strategy: auto = the special form when the prime has one and it is expected to
    /// be faster (pseudo-Mersenne 2^k-c with a one-limb c and a spare bit), else Montgomery;
    /// montgomery; pseudo-mersenne (2^k-c, c below 2^w); solinas (2^k-c, multi-limb c).
    #[arg(long, value_enum, default_value_t = StrategyArg::Auto)]
    strategy: StrategyArg,
    /// Write the module to FILE instead of stdout.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// List the preset moduli and exit.
    #[arg(long)]
    list_presets: bool,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum MulArg {
    Cios,
    CiosNoCarry,
    ProductScanning,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum StrategyArg {
    Auto,
    Montgomery,
    PseudoMersenne,
    Solinas,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum TargetArg {
    Auto,
    Portable64,
    Portable32,
    #[value(name = "x86_64-adx")]
    X86_64Adx,
}

impl TargetArg {
    fn target(self) -> Target {
        match self {
            TargetArg::Auto => Target::Auto,
            TargetArg::Portable64 => Target::Portable64,
            TargetArg::Portable32 => Target::Portable32,
            TargetArg::X86_64Adx => Target::X86_64Adx,
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
    if let Some(Command::Regen { check, dir }) = cli.command {
        let dir =
            dir.unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../generated"));
        if check {
            return match regen::check(&dir) {
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
        return match regen::write(&dir) {
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
        return ExitCode::SUCCESS;
    }
    let Some(prime) = cli.prime else {
        return fail(
            "no prime given: use --prime <P> (e.g. --prime 2^255-19), --list-presets, or regen",
        );
    };
    let target = cli.target.target();
    let limb_bits = match cli.limb_bits {
        None => target.limb_bits().unwrap_or(LimbBits::W64),
        Some(bits) => match LimbBits::from_bits(bits) {
            Ok(l) => l,
            Err(e) => return fail(e),
        },
    };
    let options = PrimeFieldOptions {
        modulus: prime,
        name: cli.name,
        limb_bits,
        mul: cli.mul.map(|m| match m {
            MulArg::Cios => MulAlgorithm::Cios,
            MulArg::CiosNoCarry => MulAlgorithm::CiosNoCarry,
            MulArg::ProductScanning => MulAlgorithm::ProductScanning,
        }),
        strategy: match cli.strategy {
            StrategyArg::Auto => Strategy::Auto,
            StrategyArg::Montgomery => Strategy::Montgomery,
            StrategyArg::PseudoMersenne => Strategy::PseudoMersenne,
            StrategyArg::Solinas => Strategy::Solinas,
        },
    };
    let field = match generate_prime_field_for(&options, target) {
        Ok(f) => f,
        Err(e) => return fail(e),
    };
    let text = field.to_file();
    match cli.out {
        Some(path) => {
            // Write beside the target, then rename: a failure leaves no partial file.
            let tmp = path.with_extension("rs.tmp");
            if let Err(e) = std::fs::write(&tmp, &text).and_then(|_| std::fs::rename(&tmp, &path)) {
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
