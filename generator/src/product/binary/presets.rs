//! Named binary fields: the SEC 2 characteristic-two fields and GF(2^155).

/// A named binary field.
#[derive(Debug)]
pub struct BinaryPreset {
    /// Canonical name, lower case.
    pub name: &'static str,
    /// Other accepted names.
    pub aliases: &'static [&'static str],
    /// The reduction polynomial, in the syntax `--poly` takes.
    pub poly: &'static str,
    /// Suggested type name.
    pub type_name: &'static str,
    /// One line: what the field is and where it is specified.
    pub description: &'static str,
}

/// Every binary preset. The SEC 2 polynomials are the reduction polynomials of the
/// characteristic-two curves in SEC 2, "Recommended Elliptic Curve Domain Parameters"
/// (Certicom Research, v1.0 2000 for sect193r1/r2; v2.0 2010 for the others; the 163-, 233-,
/// 283-, 409- and 571-bit ones are also FIPS 186-4 D.1.3's); x^155+x^62+1 is the field of
/// the 1995 `ell.c` elliptic-curve key-exchange program.
pub static BINARY_PRESETS: &[BinaryPreset] = &[
    BinaryPreset {
        name: "sect163",
        aliases: &["sect163k1", "sect163r1", "sect163r2", "b-163", "k-163"],
        poly: "x^163+x^7+x^6+x^3+1",
        type_name: "F163",
        description: "GF(2^163), SEC 2 sect163k1/r1/r2 and NIST B-163/K-163",
    },
    BinaryPreset {
        name: "sect193",
        aliases: &["sect193r1", "sect193r2"],
        poly: "x^193+x^15+1",
        type_name: "F193",
        description: "GF(2^193), SEC 2 sect193r1/r2",
    },
    BinaryPreset {
        name: "sect233",
        aliases: &["sect233k1", "sect233r1", "b-233", "k-233"],
        poly: "x^233+x^74+1",
        type_name: "F233",
        description: "GF(2^233), SEC 2 sect233k1/r1 and NIST B-233/K-233",
    },
    BinaryPreset {
        name: "sect239",
        aliases: &["sect239k1"],
        poly: "x^239+x^158+1",
        type_name: "F239",
        description: "GF(2^239), SEC 2 sect239k1",
    },
    BinaryPreset {
        name: "sect283",
        aliases: &["sect283k1", "sect283r1", "b-283", "k-283"],
        poly: "x^283+x^12+x^7+x^5+1",
        type_name: "F283",
        description: "GF(2^283), SEC 2 sect283k1/r1 and NIST B-283/K-283",
    },
    BinaryPreset {
        name: "sect409",
        aliases: &["sect409k1", "sect409r1", "b-409", "k-409"],
        poly: "x^409+x^87+1",
        type_name: "F409",
        description: "GF(2^409), SEC 2 sect409k1/r1 and NIST B-409/K-409",
    },
    BinaryPreset {
        name: "sect571",
        aliases: &["sect571k1", "sect571r1", "b-571", "k-571"],
        poly: "x^571+x^10+x^5+x^2+1",
        type_name: "F571",
        description: "GF(2^571), SEC 2 sect571k1/r1 and NIST B-571/K-571",
    },
    BinaryPreset {
        name: "gf2-155",
        aliases: &["ell155"],
        poly: "x^155+x^62+1",
        type_name: "F155",
        description:
            "GF(2^155) with x^155+x^62+1, the field of the 1995 ell.c elliptic-curve key exchange",
    },
];

/// The binary preset named `name` (case-insensitive; `_` and `-` are interchangeable).
pub fn find_binary_preset(name: &str) -> Option<&'static BinaryPreset> {
    let norm = |s: &str| s.trim().to_ascii_lowercase().replace('_', "-");
    let wanted = norm(name);
    BINARY_PRESETS
        .iter()
        .find(|p| norm(p.name) == wanted || p.aliases.iter().any(|a| norm(a) == wanted))
}
