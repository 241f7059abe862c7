//! `const fn` helpers for the generated constructors `from_canonical` and `from_hex_vartime`.
//!
//! They run at compile time when a constant is built (`const D: Fp = ...`), so they are
//! written for clarity with loops over const-generic limb counts; the generated straight-line
//! code does the run-time work. Limbs are little-endian, least significant first. The
//! comparison and the Montgomery product have no branch on the values; hex parsing branches on
//! the characters and is meant for public constants.

macro_rules! limb_helpers {
    ($w:ty, $dw:ty, $bits:expr, $lt:ident, $mont_mul:ident, $split:ident, $hex:ident) => {
        /// Whether a < b for little-endian limbs (a borrow chain, no branch on the values).
        #[allow(
            clippy::cast_possible_truncation,
            reason = "the borrow bit, the top bit of a double-word difference"
        )]
        pub const fn $lt<const N: usize>(a: &[$w; N], b: &[$w; N]) -> bool {
            let mut borrow: $w = 0;
            let mut i = 0;
            while i < N {
                let t = (a[i] as $dw).wrapping_sub(b[i] as $dw + borrow as $dw);
                borrow = (t >> (2 * $bits - 1)) as $w;
                i += 1;
            }
            borrow == 1
        }

        /// The Montgomery product a·b·R⁻¹ mod p, R = 2^(w·N), of a, b < p, with
        /// n0 = −p⁻¹ mod 2^w: CIOS with an (N + 2)-word accumulator (Koç, Acar, Kaliski,
        /// "Analyzing and comparing Montgomery multiplication algorithms", IEEE Micro 1996,
        /// §4) and one masked subtraction of p. Valid for every odd p below R.
        #[allow(
            clippy::cast_possible_truncation,
            reason = "limb extraction: the low word of a double-word sum or product, the high word taken separately by a shift"
        )]
        pub const fn $mont_mul<const N: usize>(
            a: &[$w; N],
            b: &[$w; N],
            p: &[$w; N],
            n0: $w,
        ) -> [$w; N] {
            let mut t = [0 as $w; N];
            let mut hi: $w = 0;
            let mut i = 0;
            while i < N {
                // t += a·b[i]
                let mut carry: $w = 0;
                let mut j = 0;
                while j < N {
                    let s = (a[j] as $dw) * (b[i] as $dw) + t[j] as $dw + carry as $dw;
                    t[j] = s as $w;
                    carry = (s >> $bits) as $w;
                    j += 1;
                }
                let s = hi as $dw + carry as $dw;
                hi = s as $w;
                let hi2 = (s >> $bits) as $w;
                // t = (t + m·p) / 2^w
                let m = t[0].wrapping_mul(n0);
                let s = (m as $dw) * (p[0] as $dw) + t[0] as $dw;
                let mut carry = (s >> $bits) as $w;
                let mut j = 1;
                while j < N {
                    let s = (m as $dw) * (p[j] as $dw) + t[j] as $dw + carry as $dw;
                    t[j - 1] = s as $w;
                    carry = (s >> $bits) as $w;
                    j += 1;
                }
                let s = hi as $dw + carry as $dw;
                t[N - 1] = s as $w;
                // The accumulator stays below 2p, so the top word is 0 or 1.
                hi = hi2 + (s >> $bits) as $w;
                i += 1;
            }
            // t + hi·R < 2p: subtract p unless that borrows out of the (N + 1)-word value.
            let mut d = [0 as $w; N];
            let mut borrow: $w = 0;
            let mut j = 0;
            while j < N {
                let s = (t[j] as $dw).wrapping_sub(p[j] as $dw + borrow as $dw);
                d[j] = s as $w;
                borrow = (s >> (2 * $bits - 1)) as $w;
                j += 1;
            }
            let keep = (hi as $dw).wrapping_sub(borrow as $dw) >> (2 * $bits - 1);
            let mask = (0 as $w).wrapping_sub(keep as $w);
            let mut j = 0;
            while j < N {
                d[j] = (t[j] & mask) | (d[j] & !mask);
                j += 1;
            }
            d
        }

        /// The canonical value x (N saturated limbs) as M unsaturated limbs, limb i holding
        /// bits `pos[i] .. pos[i + 1]` of x (`pos` has M + 1 entries, each limb at most w bits).
        pub const fn $split<const N: usize, const M: usize>(x: &[$w; N], pos: &[u32]) -> [$w; M] {
            let mut out = [0 as $w; M];
            let mut i = 0;
            while i < M {
                let (lo, width) = (pos[i], pos[i + 1] - pos[i]);
                let mut v: $w = 0;
                let mut b = 0;
                while b < width {
                    let bit = lo + b;
                    let word = (bit / $bits) as usize;
                    if word < N {
                        v |= ((x[word] >> (bit % $bits)) & 1) << b;
                    }
                    b += 1;
                }
                out[i] = v;
                i += 1;
            }
            out
        }

        /// Parses big-endian hex digits (an optional `0x`/`0X` prefix, `_` separators
        /// allowed) into N little-endian limbs; none for an empty string, a character that is
        /// not a hex digit, or a value that does not fit N limbs.
        pub const fn $hex<const N: usize>(s: &str) -> Option<[$w; N]> {
            let bytes = s.as_bytes();
            let mut start = 0;
            if bytes.len() >= 2 && bytes[0] == b'0' && (bytes[1] == b'x' || bytes[1] == b'X') {
                start = 2;
            }
            let mut out = [0 as $w; N];
            let mut digits = 0usize;
            let mut i = bytes.len();
            while i > start {
                i -= 1;
                let c = bytes[i];
                let v = match c {
                    b'0'..=b'9' => c - b'0',
                    b'a'..=b'f' => c - b'a' + 10,
                    b'A'..=b'F' => c - b'A' + 10,
                    b'_' => continue,
                    _ => return None,
                };
                let bit = digits * 4;
                let word = bit / $bits;
                if word >= N {
                    if v != 0 {
                        return None;
                    }
                } else {
                    out[word] |= (v as $w) << (bit % $bits);
                }
                digits += 1;
            }
            if digits == 0 {
                return None;
            }
            Some(out)
        }
    };
}

limb_helpers!(
    u64,
    u128,
    64,
    lt_u64,
    mont_mul_u64,
    split_u64,
    parse_hex_u64
);
limb_helpers!(u32, u64, 32, lt_u32, mont_mul_u32, split_u32, parse_hex_u32);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_rejects_what_it_should() {
        assert_eq!(parse_hex_u64::<1>(""), None);
        assert_eq!(parse_hex_u64::<1>("0x"), None);
        assert_eq!(parse_hex_u64::<1>("0xg"), None);
        assert_eq!(parse_hex_u64::<1>("1_0000_0000_0000_0000"), None);
        assert_eq!(parse_hex_u64::<2>("0x1_0000_0000_0000_0000"), Some([0, 1]));
        assert_eq!(parse_hex_u32::<1>("00000000ffffffff"), Some([u32::MAX]));
    }
}
