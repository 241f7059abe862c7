//! Error messages that say how to fix the input, and small helpers to build them.

use generator::spec::{SpecError, MAX_MODULUS_BITS, PRESETS};
use syn::{Error, Result};

/// `Ok(())` when `errors` is empty, else all of them as one error (each keeps its span).
pub fn combine(errors: Vec<Error>) -> Result<()> {
    let mut iter = errors.into_iter();
    match iter.next() {
        None => Ok(()),
        Some(mut first) => {
            for e in iter {
                first.combine(e);
            }
            Err(first)
        }
    }
}

/// Levenshtein distance between two short ASCII words.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

/// The candidate closest to `word`, if it is close enough to be a likely typo.
pub fn closest<'a>(word: &str, candidates: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let limit = (word.chars().count() / 3).max(2);
    candidates
        .map(|c| (distance(word, c), c))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// How to write a modulus, appended to the messages about it.
const MODULUS_FORMS: &str =
    "write decimal digits, `0x` hex digits, an expression of powers of two such as \
     \"2^255-19\" or \"2^256-2^32-977\", or a preset name such as \"bn254-p\"";

/// The message for a refused modulus `text`.
pub fn modulus_error(text: &str, e: &SpecError) -> String {
    #[allow(unreachable_patterns)]
    match e {
        SpecError::Empty => format!("the modulus is empty: {MODULUS_FORMS}"),
        SpecError::Malformed { reason, .. } => {
            format!(
                "cannot read the modulus `{}`: {reason}; {MODULUS_FORMS}",
                shorten(text)
            )
        }
        SpecError::UnknownPreset { name } => {
            let wanted = name.to_ascii_lowercase().replace('_', "-");
            let names = PRESETS
                .iter()
                .flat_map(|p| std::iter::once(p.name).chain(p.aliases.iter().copied()));
            let hint = closest(&wanted, names)
                .map(|n| format!(" Did you mean \"{n}\"?"))
                .unwrap_or_default();
            let all: Vec<&str> = PRESETS.iter().map(|p| p.name).collect();
            format!(
                "unknown preset `{name}`.{hint} The presets are: {}",
                all.join(", ")
            )
        }
        SpecError::Even => {
            "the modulus is even: a prime field needs an odd prime; check the value for a typo"
                .to_string()
        }
        SpecError::TooSmall => "the modulus must be an odd prime, at least 3".to_string(),
        SpecError::TooLarge { bits } => {
            format!("the modulus has {bits} bits; at most {MAX_MODULUS_BITS} are supported: use a smaller prime")
        }
        SpecError::NotPrime => {
            "the modulus is not prime (it fails the Baillie-PSW probable-prime test): \
             check the value for a typo, or use a preset name such as \"secp256k1-p\""
                .to_string()
        }
        SpecError::UnsupportedLimbBits(bits) => limb_bits_error(&bits.to_string()),
        other => other.to_string(),
    }
}

/// The message for a refused `limb_bits` value.
pub fn limb_bits_error(written: &str) -> String {
    format!(
        "limb_bits must be 32 or 64, not {written}: write `limb_bits = 64;` (u64 limbs, the default) \
         or `limb_bits = 32;` (u32 limbs)"
    )
}

/// At most 80 characters of `text`, for quoting user input.
fn shorten(text: &str) -> String {
    if text.chars().count() <= 80 {
        text.to_string()
    } else {
        format!("{}...", text.chars().take(77).collect::<String>())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distance_and_closest() {
        assert_eq!(distance("", "abc"), 3);
        assert_eq!(distance("modulo", "modulus"), 2);
        assert_eq!(distance("bn254-q", "bn254-p"), 1);
        assert_eq!(
            closest("limb_bit", ["modulus", "limb_bits", "mul"].into_iter()),
            Some("limb_bits")
        );
        assert_eq!(closest("xyz", ["modulus", "limb_bits"].into_iter()), None);
    }

    #[test]
    fn unknown_preset_suggests_the_closest_name() {
        let msg = modulus_error(
            "bn254p",
            &SpecError::UnknownPreset {
                name: "bn254p".into(),
            },
        );
        assert!(msg.contains("Did you mean \"bn254-p\"?"), "{msg}");
        assert!(msg.contains("secp256k1-n"), "{msg}");
    }

    #[test]
    fn long_inputs_are_shortened() {
        let text = "1".repeat(500);
        let msg = modulus_error(
            &text,
            &SpecError::Malformed {
                input: text.clone(),
                reason: "r".into(),
            },
        );
        assert!(msg.len() < 400, "{msg}");
    }
}
