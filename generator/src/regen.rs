//! `regen`: rewrites the committed `generated/` crate from its manifest, or checks that it is
//! up to date. The manifest (`generated/manifest.toml`) lists every field; each becomes
//! `generated/src/<module>.rs`, and `generated/src/lib.rs` declares them all. Every module
//! is one [`crate::Request`] run through [`crate::generate`].

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::header::NARROWING_ALLOW;
use crate::lanes::LaneFieldOptions;
use crate::spec::{find_preset, LimbBits};
use crate::{generate, Generated, PrimeFieldOptions, Request, Target};

/// One field of the manifest.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ManifestField {
    /// A preset name (see `--list-presets`).
    pub preset: String,
    /// 32 or 64.
    pub limb_bits: u32,
    /// A `--target` name; `auto` when absent.
    #[serde(default)]
    pub target: Option<String>,
    /// A `--strategy` name; `auto` when absent.
    #[serde(default)]
    pub strategy: Option<String>,
}

/// One binary field GF(2^m) of the manifest: a binary preset, or a polynomial with a module
/// stem and a type name.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ManifestBinaryField {
    /// A binary preset name (`sect163`, ...); or give `poly`, `module` and `name`.
    #[serde(default)]
    pub preset: Option<String>,
    /// The polynomial, `x^...+1`.
    #[serde(default)]
    pub poly: Option<String>,
    /// Module stem for `poly` (the limb size is appended).
    #[serde(default)]
    pub module: Option<String>,
    /// Type name for `poly`.
    #[serde(default)]
    pub name: Option<String>,
    /// 32 or 64.
    pub limb_bits: u32,
}

/// The manifest file.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// Fields, in the order lib.rs lists them.
    pub field: Vec<ManifestField>,
    /// Binary fields, listed after the prime fields.
    #[serde(default)]
    pub binary_field: Vec<ManifestBinaryField>,
    /// Lane-parallel AVX-512 IFMA fields, listed last.
    #[serde(default)]
    pub lane_field: Vec<ManifestLaneField>,
}

/// One lane-parallel field of the manifest: four elements of a pseudo-Mersenne preset field in
/// unsaturated radix 2^(k/limbs) on AVX-512 IFMA, converting to and from the preset's 64-bit
/// module (which the manifest must also list).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ManifestLaneField {
    /// A preset name of a prime 2^k - c.
    pub preset: String,
    /// Limb count m (k = m·r, r ≤ 52).
    pub limbs: usize,
}

pub use crate::spec::module_name;

/// Every file regen owns, by path relative to the `generated/` directory, with its contents.
pub fn expected_files(manifest: &Manifest) -> Result<BTreeMap<PathBuf, String>, String> {
    let mut files = BTreeMap::new();
    let mut mods = Vec::new();
    for f in &manifest.field {
        let preset = find_preset(&f.preset)
            .ok_or_else(|| format!("manifest: unknown preset `{}`", f.preset))?;
        let limb_bits = LimbBits::from_bits(f.limb_bits).map_err(|e| format!("manifest: {e}"))?;
        let target = match &f.target {
            None => Target::Auto,
            Some(t) => Target::from_name(t)
                .ok_or_else(|| format!("manifest: {}: unknown target `{t}`", preset.name))?,
        };
        let strategy = match &f.strategy {
            None => crate::strategy::Strategy::Auto,
            Some(s) => crate::strategy::Strategy::from_name(s)
                .ok_or_else(|| format!("manifest: {}: unknown strategy `{s}`", preset.name))?,
        };
        let request = Request::PrimeField {
            options: PrimeFieldOptions {
                modulus: preset.name.to_string(),
                name: preset.type_name.to_string(),
                limb_bits,
                mul: None,
                strategy,
                radix: None,
            },
            target,
        };
        let Generated::PrimeField(field) =
            generate(&request).map_err(|e| format!("manifest: {}: {e}", preset.name))?
        else {
            return Err("manifest: a prime-field request made another product".into());
        };
        let mut module = module_name(preset.name, f.limb_bits);
        if let Some(s) = &f.strategy {
            // A non-default strategy lives beside the preset's default module.
            module = format!(
                "{}_{}_{}",
                preset.name.replace('-', "_"),
                s.replace('-', "_"),
                f.limb_bits
            );
        }
        let label = match &f.strategy {
            Some(s) => format!("{}, --strategy {s}", preset.name),
            None => preset.name.to_string(),
        };
        files.insert(PathBuf::from(format!("src/{module}.rs")), field.to_file());
        mods.push((
            module,
            label,
            preset,
            f.limb_bits,
            field.consts.generator.is_some(),
            field.consts.bytes,
        ));
    }
    let mut lib = String::new();
    lib.push_str(
        "// @generated by `cargo run -p generator -- regen` from manifest.toml. Do not edit.\n\n",
    );
    lib.push_str(
        "//! Committed fieldgen output for the preset fields, at 64- and 32-bit limbs.\n//!\n",
    );
    lib.push_str("//! Each module holds one field type (`Fp` for base fields, `Fr` for scalar fields); its file\n");
    lib.push_str("//! header gives the command that regenerates it. With the `ff` feature every field also\n");
    lib.push_str("//! implements `ff::Field` and `ff::PrimeField` (ff 0.14), and with `zeroize` every prime\n");
    lib.push_str("//! field `zeroize::Zeroize`, through `fieldgen_field::impl_ff!` and `impl_zeroize!`.\n//!\n");
    lib.push_str(
        "//! The 64-bit fields carry x86-64 BMI2/ADX assembly for multiplication and squaring,\n",
    );
    lib.push_str(
        "//! used when the build enables the `bmi2` and `adx` target features or, failing that,\n",
    );
    lib.push_str(
        "//! when CPUID reports them at run time, and AArch64 assembly (mul/umulh, adds/adcs), used\n",
    );
    lib.push_str(
        "//! whenever the build is for aarch64; the 32-bit Montgomery fields carry ARMv7 assembly\n",
    );
    lib.push_str(
        "//! built on UMAAL, used on ARM targets that have it (64-bit atomics: ARMv6K and later).\n",
    );
    lib.push_str("//! `Fp::backend()` says which code runs. The only\n");
    lib.push_str("//! `unsafe` code is in those kernels and their dispatch, each block with a `SAFETY:` note.\n\n");
    lib.push_str("#![no_std]\n#![deny(unsafe_op_in_unsafe_fn)]\n\n");
    // `--cfg fieldgen_target_limbs_only` (set by scripts/cross.sh for the emulated test runs)
    // leaves out the prime fields of the other limb size, which the curve crates never use
    // on that target: half the crate's compile per target. Without it (every user build)
    // both sizes are compiled everywhere.
    let limb_cfg = |w: u32| {
        if w == 64 {
            "any(target_pointer_width = \"64\", not(fieldgen_target_limbs_only))"
        } else {
            "any(not(target_pointer_width = \"64\"), not(fieldgen_target_limbs_only))"
        }
    };
    for (module, label, preset, w, _, _) in &mods {
        // Formatted by the generator (prettyplease), not rustfmt.
        lib.push_str(&format!(
            "/// {} ({}-bit limbs): {}\n#[cfg({})]\n#[rustfmt::skip]\n{NARROWING_ALLOW}\npub mod {module};\n",
            label,
            w,
            preset.description,
            limb_cfg(*w)
        ));
    }
    let binary = binary_files(manifest, &mut files)?;
    if !binary.is_empty() {
        lib.push_str("\n// Binary fields GF(2^m): polynomial basis, carry-less arithmetic (PCLMULQDQ on x86-64,\n");
        lib.push_str(
            "// PMULL on aarch64 with the `aes` target feature, a constant-time comb elsewhere).\n",
        );
        for (module, doc) in &binary {
            lib.push_str(&format!(
                "/// {doc}\n#[rustfmt::skip]\n{NARROWING_ALLOW}\npub mod {module};\n"
            ));
        }
    }
    lib.push('\n');
    // Laid out as rustfmt would (the lines are too long for one).
    for (module, _, preset, w, has_gen, bytes) in &mods {
        if *has_gen {
            lib.push_str(&format!(
                "#[cfg(all(\n    feature = \"ff\",\n    {}\n))]\n::fieldgen_field::impl_ff!({module}::{}, {bytes});\n",
                limb_cfg(*w),
                preset.type_name
            ));
        }
    }
    for (module, _, preset, w, _, _) in &mods {
        lib.push_str(&format!(
            "#[cfg(all(\n    feature = \"zeroize\",\n    {}\n))]\n::fieldgen_field::impl_zeroize!({module}::{});\n",
            limb_cfg(*w),
            preset.type_name
        ));
    }
    for (module, doc) in lane_files(manifest, &mut files)? {
        lib.push_str(&format!(
            "/// {doc}\n#[cfg(target_arch = \"x86_64\")]\n#[rustfmt::skip]\n{NARROWING_ALLOW}\npub mod {module};\n"
        ));
    }
    files.insert(PathBuf::from("src/lib.rs"), lib);
    Ok(files)
}

/// Generates the manifest's lane fields into `files`; returns (module, doc line) pairs.
fn lane_files(
    manifest: &Manifest,
    files: &mut BTreeMap<PathBuf, String>,
) -> Result<Vec<(String, String)>, String> {
    let mut out = Vec::new();
    for f in &manifest.lane_field {
        let request = Request::LaneField {
            options: LaneFieldOptions::new(&f.preset, f.limbs),
            target: Target::Auto,
        };
        let Generated::LaneField(lanes) =
            generate(&request).map_err(|e| format!("manifest: {e}"))?
        else {
            return Err("manifest: a lane request made another product".into());
        };
        let module = lanes.module_name();
        files.insert(PathBuf::from(format!("src/{module}.rs")), lanes.to_file());
        out.push((
            module,
            format!(
                "{}: four lanes of {} on AVX-512 IFMA (x86-64 only), radix 2^{}",
                lanes.type_name(),
                lanes.preset.name,
                lanes.bounds.radix
            ),
        ));
    }
    Ok(out)
}

/// Generates the manifest's binary fields into `files`; returns (module, doc line) pairs.
fn binary_files(
    manifest: &Manifest,
    files: &mut BTreeMap<PathBuf, String>,
) -> Result<Vec<(String, String)>, String> {
    use crate::binary::{find_binary_preset, BinaryFieldOptions};
    let mut out = Vec::new();
    for f in &manifest.binary_field {
        let limb_bits = LimbBits::from_bits(f.limb_bits).map_err(|e| format!("manifest: {e}"))?;
        let (poly, name, stem, doc) = match (&f.preset, &f.poly) {
            (Some(p), None) => {
                let preset = find_binary_preset(p)
                    .ok_or_else(|| format!("manifest: unknown binary preset `{p}`"))?;
                (
                    preset.name.to_string(),
                    preset.type_name.to_string(),
                    preset.name.replace('-', "_"),
                    format!(
                        "{} ({}-bit words): {}",
                        preset.name, f.limb_bits, preset.description
                    ),
                )
            }
            (None, Some(poly)) => {
                let module = f
                    .module
                    .clone()
                    .ok_or_else(|| format!("manifest: binary field `{poly}` needs `module`"))?;
                let name = f
                    .name
                    .clone()
                    .ok_or_else(|| format!("manifest: binary field `{poly}` needs `name`"))?;
                let m = crate::binary::parse_poly(poly)
                    .ok()
                    .and_then(|p| p.degree())
                    .unwrap_or(0);
                let doc = format!(
                    "GF(2^{m}) ({}-bit words), a test field: f = {}",
                    f.limb_bits,
                    if poly.len() > 60 {
                        "dense, see the file header"
                    } else {
                        poly
                    }
                );
                (poly.clone(), name, module, doc)
            }
            _ => {
                return Err(
                    "manifest: a binary field needs exactly one of `preset` and `poly`".into(),
                )
            }
        };
        let request = Request::BinaryField {
            options: BinaryFieldOptions {
                poly,
                name,
                limb_bits,
            },
            target: Target::Auto,
        };
        let field = generate(&request).map_err(|e| format!("manifest: {e}"))?;
        let module = format!("{stem}_{}", f.limb_bits);
        files.insert(PathBuf::from(format!("src/{module}.rs")), field.to_file());
        out.push((module, doc));
    }
    Ok(out)
}

/// Reads and parses `generated/manifest.toml` under `dir`.
pub fn read_manifest(dir: &Path) -> Result<Manifest, String> {
    let path = dir.join("manifest.toml");
    let text = std::fs::read_to_string(&path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    toml::from_str(&text).map_err(|e| {
        format!(
            "{}: {}",
            path.display(),
            e.to_string().lines().next().unwrap_or("")
        )
    })
}

/// Files whose contents differ from what regen would write, files missing, and stale `.rs`
/// files under `src/` that regen would remove. Empty when the tree is up to date.
pub fn check(dir: &Path) -> Result<Vec<String>, String> {
    let files = expected_files(&read_manifest(dir)?)?;
    let mut problems = Vec::new();
    for (rel, text) in &files {
        match std::fs::read_to_string(dir.join(rel)) {
            Ok(on_disk) if on_disk == *text => {}
            Ok(_) => problems.push(format!("differs: {}", rel.display())),
            Err(_) => problems.push(format!("missing: {}", rel.display())),
        }
    }
    for stale in stale_files(dir, &files)? {
        problems.push(format!("stale: {}", stale.display()));
    }
    Ok(problems)
}

fn stale_files(dir: &Path, files: &BTreeMap<PathBuf, String>) -> Result<Vec<PathBuf>, String> {
    let src = dir.join("src");
    let mut stale = Vec::new();
    let entries = match std::fs::read_dir(&src) {
        Ok(e) => e,
        Err(_) => return Ok(stale),
    };
    for entry in entries {
        let entry = entry.map_err(|e| e.to_string())?;
        let name = entry.file_name().to_string_lossy().to_string();
        let rel = PathBuf::from("src").join(&name);
        if name.ends_with(".rs") && !files.contains_key(&rel) {
            stale.push(rel);
        }
    }
    stale.sort();
    Ok(stale)
}

/// Rewrites every owned file and removes stale ones. Returns the paths written.
pub fn write(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let files = expected_files(&read_manifest(dir)?)?;
    std::fs::create_dir_all(dir.join("src")).map_err(|e| e.to_string())?;
    for stale in stale_files(dir, &files)? {
        std::fs::remove_file(dir.join(&stale)).map_err(|e| format!("{}: {e}", stale.display()))?;
    }
    let mut written = Vec::new();
    for (rel, text) in &files {
        let path = dir.join(rel);
        if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
            std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
        }
        written.push(rel.clone());
    }
    Ok(written)
}
