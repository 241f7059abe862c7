//! Reads a modulus written as a number or as a small integer expression.
//!
//! Grammar (spaces allowed between tokens, never inside a number):
//!
//! ```text
//! expr   := term (('+' | '-') term)*
//! term   := power ('*' power)*
//! power  := atom ('^' power)?          -- right-associative, binds tighter than '*'
//! atom   := number | '(' expr ')'
//! number := decimal digits, or '0x' / '0X' followed by hex digits; '_' may separate digits
//! ```
//!
//! Evaluation is exact (arbitrary precision) and guarded: an exponent above
//! [`MAX_EXPONENT`], a literal or intermediate value above [`MAX_EXPR_BITS`] bits, nesting deeper
//! than [`MAX_DEPTH`] or a text longer than [`MAX_INPUT_CHARS`] characters is refused before any
//! large computation starts. Intermediate values may be negative (`1-2+5` is 4); the final value
//! must be positive.

use crate::narrow::fit;
use num_bigint::{BigInt, BigUint, Sign};
use num_traits::{One, Signed, ToPrimitive, Zero};

use super::SpecError;

/// Largest exponent accepted after `^`.
pub const MAX_EXPONENT: u64 = 16384;

/// Largest magnitude, in bits, of a literal or of any intermediate value.
pub const MAX_EXPR_BITS: u64 = 16384;

/// Deepest nesting of parentheses and `^` chains.
pub const MAX_DEPTH: usize = 200;

/// Longest text accepted, in characters.
pub const MAX_INPUT_CHARS: usize = 65536;

/// Parses `text` as a positive integer: decimal, `0x`/`0X` hex, or an expression of
/// non-negative integer literals with `+`, `-`, `*`, `^` (power, right-associative, binds
/// tighter than `*`) and parentheses, e.g. `2^255-19` or `2^256-2^32-977`.
///
/// Errors are [`SpecError::Malformed`] with a short reason; character positions in reasons count
/// from 1. A value that is zero or negative is refused ("the expression is not positive").
/// Never panics.
pub fn parse_modulus_expr(text: &str) -> Result<BigUint, SpecError> {
    let malformed = |reason: String| SpecError::Malformed {
        input: text.to_string(),
        reason,
    };
    let char_count = text.chars().count();
    if char_count > MAX_INPUT_CHARS {
        return Err(malformed(format!(
            "the expression is too long ({char_count} characters, at most {MAX_INPUT_CHARS})"
        )));
    }
    let tokens = tokenize(text).map_err(malformed)?;
    if tokens.is_empty() {
        return Err(malformed("the expression is empty".to_string()));
    }
    let mut parser = Parser {
        tokens: &tokens,
        next: 0,
        end: char_count + 1,
    };
    let value = parser.expr(0).map_err(malformed)?;
    if let Some((token, pos)) = parser.peek() {
        let reason = match token {
            Token::Close => format!("unmatched `)` at position {pos}"),
            other => format!(
                "expected an operator at position {pos}, found {}",
                other.describe()
            ),
        };
        return Err(malformed(reason));
    }
    match value.to_biguint() {
        Some(v) if !v.is_zero() => Ok(v),
        _ => Err(malformed("the expression is not positive".to_string())),
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Token {
    Number(BigUint),
    Plus,
    Minus,
    Star,
    Caret,
    Open,
    Close,
}

impl Token {
    fn describe(&self) -> String {
        match self {
            Token::Number(_) => "a number".to_string(),
            Token::Plus => "`+`".to_string(),
            Token::Minus => "`-`".to_string(),
            Token::Star => "`*`".to_string(),
            Token::Caret => "`^`".to_string(),
            Token::Open => "`(`".to_string(),
            Token::Close => "`)`".to_string(),
        }
    }
}

/// Splits `text` into tokens, each with its 1-based character position.
fn tokenize(text: &str) -> Result<Vec<(Token, usize)>, String> {
    let chars: Vec<char> = text.chars().collect();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let pos = i + 1;
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        let simple = match c {
            '+' => Some(Token::Plus),
            '-' => Some(Token::Minus),
            '*' => Some(Token::Star),
            '^' => Some(Token::Caret),
            '(' => Some(Token::Open),
            ')' => Some(Token::Close),
            _ => None,
        };
        if let Some(token) = simple {
            if c == '*' && chars.get(i + 1) == Some(&'*') {
                return Err(format!(
                    "`**` at position {pos} is not an operator: write powers with `^`"
                ));
            }
            tokens.push((token, pos));
            i += 1;
            continue;
        }
        if !c.is_ascii_digit() {
            return Err(format!(
                "unexpected character `{}` at position {pos}",
                c.escape_debug()
            ));
        }
        let is_hex = c == '0' && matches!(chars.get(i + 1), Some('x') | Some('X'));
        let (radix, start) = if is_hex { (16, i + 2) } else { (10, i) };
        let mut end = start;
        while end < chars.len() && (chars[end].is_digit(radix) || chars[end] == '_') {
            end += 1;
        }
        let digits: String = chars[start..end].iter().filter(|&&d| d != '_').collect();
        if digits.is_empty() {
            return Err(format!("`0x` at position {pos} has no hex digits"));
        }
        // Refuse oversized literals before converting them.
        let significant = digits.trim_start_matches('0');
        let too_long = if radix == 16 {
            significant.len() as u64 > MAX_EXPR_BITS.div_ceil(4)
        } else {
            // 10^d has more than 3.32·d bits; d digits give at least (d-1)·3.32 bits.
            (significant.len() as u64).saturating_sub(1) * 3 > MAX_EXPR_BITS
        };
        if too_long {
            return Err(format!(
                "the number at position {pos} has more than {MAX_EXPR_BITS} bits"
            ));
        }
        let value = BigUint::parse_bytes(digits.as_bytes(), radix)
            .ok_or_else(|| format!("cannot read the number at position {pos}"))?;
        if value.bits() > MAX_EXPR_BITS {
            return Err(format!(
                "the number at position {pos} has more than {MAX_EXPR_BITS} bits"
            ));
        }
        tokens.push((Token::Number(value), pos));
        i = end;
    }
    Ok(tokens)
}

/// Recursive-descent parser that evaluates as it goes.
struct Parser<'a> {
    tokens: &'a [(Token, usize)],
    next: usize,
    /// Position reported for "the end of the input".
    end: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<(&Token, usize)> {
        self.tokens.get(self.next).map(|(t, p)| (t, *p))
    }

    fn bump(&mut self) -> Option<(&Token, usize)> {
        let item = self.tokens.get(self.next).map(|(t, p)| (t, *p));
        if item.is_some() {
            self.next += 1;
        }
        item
    }

    fn check_depth(&self, depth: usize) -> Result<(), String> {
        if depth > MAX_DEPTH {
            let pos = self.peek().map_or(self.end, |(_, p)| p);
            return Err(format!(
                "the expression nests deeper than {MAX_DEPTH} levels at position {pos}"
            ));
        }
        Ok(())
    }

    fn expr(&mut self, depth: usize) -> Result<BigInt, String> {
        self.check_depth(depth)?;
        let mut acc = self.term(depth)?;
        loop {
            let op = match self.peek() {
                Some((Token::Plus, _)) => Token::Plus,
                Some((Token::Minus, _)) => Token::Minus,
                _ => return Ok(acc),
            };
            self.next += 1;
            let rhs = self.term(depth)?;
            acc = if op == Token::Plus {
                acc + rhs
            } else {
                acc - rhs
            };
            check_size(&acc)?;
        }
    }

    fn term(&mut self, depth: usize) -> Result<BigInt, String> {
        let mut acc = self.power(depth)?;
        while let Some((Token::Star, _)) = self.peek() {
            self.next += 1;
            let rhs = self.power(depth)?;
            // Both factors are at most MAX_EXPR_BITS bits, so the product is cheap to form.
            acc *= rhs;
            check_size(&acc)?;
        }
        Ok(acc)
    }

    fn power(&mut self, depth: usize) -> Result<BigInt, String> {
        self.check_depth(depth)?;
        let base = self.atom(depth)?;
        let Some((Token::Caret, caret_pos)) = self.peek() else {
            return Ok(base);
        };
        self.next += 1;
        let exp = self.power(depth + 1)?;
        pow_checked(&base, &exp, caret_pos)
    }

    fn atom(&mut self, depth: usize) -> Result<BigInt, String> {
        let end = self.end;
        match self.bump() {
            Some((Token::Number(n), _)) => Ok(BigInt::from(n.clone())),
            Some((Token::Open, open_pos)) => {
                let inner = self.expr(depth + 1)?;
                match self.bump() {
                    Some((Token::Close, _)) => Ok(inner),
                    Some((other, pos)) => Err(format!(
                        "expected `)` at position {pos} to close `(` at position {open_pos}, found {}",
                        other.describe()
                    )),
                    None => Err(format!("missing closing parenthesis for `(` at position {open_pos}")),
                }
            }
            Some((other, pos)) => Err(format!(
                "expected a number or `(` at position {pos}, found {}",
                other.describe()
            )),
            None => Err(format!(
                "expected a number or `(` at position {end}, found the end of the input"
            )),
        }
    }
}

fn check_size(v: &BigInt) -> Result<(), String> {
    if v.bits() > MAX_EXPR_BITS {
        return Err(format!(
            "an intermediate result exceeds {MAX_EXPR_BITS} bits"
        ));
    }
    Ok(())
}

/// `base^exp`, refusing negative or oversized exponents and results over [`MAX_EXPR_BITS`] bits
/// before computing them.
fn pow_checked(base: &BigInt, exp: &BigInt, caret_pos: usize) -> Result<BigInt, String> {
    if exp.sign() == Sign::Minus {
        return Err(format!(
            "the exponent after `^` at position {caret_pos} is negative"
        ));
    }
    let e = match exp.to_u64() {
        Some(e) if e <= MAX_EXPONENT => e,
        Some(e) => return Err(format!("exponent {e} is too large (at most {MAX_EXPONENT})")),
        None => {
            return Err(format!(
                "the exponent after `^` at position {caret_pos} has {} bits: too large (at most {MAX_EXPONENT})",
                exp.bits()
            ))
        }
    };
    let magnitude = base.abs();
    if magnitude <= BigInt::one() {
        // 0^0 = 1, 0^e = 0, 1^e = 1, (-1)^e = ±1.
        return Ok(base.pow(fit(e)));
    }
    // |base|^e has more than (bits(|base|) - 1)·e bits.
    if (magnitude.bits() - 1).saturating_mul(e) >= MAX_EXPR_BITS {
        return Err(format!(
            "an intermediate result exceeds {MAX_EXPR_BITS} bits"
        ));
    }
    let result = base.pow(fit(e));
    check_size(&result)?;
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_traits::Num;

    fn ok(s: &str) -> BigUint {
        parse_modulus_expr(s).unwrap_or_else(|e| panic!("`{s}` failed: {e}"))
    }

    fn err(s: &str) -> String {
        match parse_modulus_expr(s) {
            Err(SpecError::Malformed { input, reason }) => {
                assert_eq!(input, s);
                reason
            }
            other => panic!("`{s}` should be malformed, got {other:?}"),
        }
    }

    fn pow2(k: usize) -> BigUint {
        BigUint::one() << k
    }

    #[test]
    fn decimal_and_hex() {
        assert_eq!(
            ok("21888242871839275222246405745257275088696311157297823662689037894645226208583"),
            BigUint::from_str_radix(
                "30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47",
                16
            )
            .unwrap()
        );
        assert_eq!(
            ok("0x30644E72e131a029"),
            BigUint::from(0x30644e72e131a029u64)
        );
        assert_eq!(ok("0X_ff_ff"), BigUint::from(0xffffu32));
        assert_eq!(ok("1_000_003"), BigUint::from(1_000_003u32));
        assert_eq!(ok("  7  "), BigUint::from(7u32));
        assert_eq!(ok("007"), BigUint::from(7u32));
    }

    #[test]
    fn expressions_of_powers() {
        assert_eq!(ok("2^255-19"), pow2(255) - 19u32);
        assert_eq!(ok("2^256 - 2^32 - 977"), pow2(256) - pow2(32) - 977u32);
        assert_eq!(
            ok("2^384-2^128-2^96+2^32-1"),
            pow2(384) - pow2(128) - pow2(96) + pow2(32) - 1u32
        );
        assert_eq!(
            ok("2^252+27742317777372353535851937790883648493"),
            pow2(252)
                + BigUint::from_str_radix("27742317777372353535851937790883648493", 10).unwrap()
        );
        assert_eq!(ok("2^0x10+1"), BigUint::from(65537u32));
        assert_eq!(ok("( 2 ^ 3 ) ^ 2"), BigUint::from(64u32));
    }

    #[test]
    fn precedence_and_associativity() {
        assert_eq!(ok("2^3^2"), BigUint::from(512u32)); // 2^(3^2)
        assert_eq!(ok("3*2^4"), BigUint::from(48u32)); // 3*(2^4)
        assert_eq!(ok("2*3+4*5"), BigUint::from(26u32));
        assert_eq!(ok("10-3-2"), BigUint::from(5u32)); // left-associative
        assert_eq!(ok("2*(3+4)"), BigUint::from(14u32));
        assert_eq!(ok("1-2+5"), BigUint::from(4u32)); // negative intermediate
        assert_eq!(ok("(1-2)^2"), BigUint::one());
        assert_eq!(ok("0^0+2"), BigUint::from(3u32));
        assert_eq!(ok("((((7))))"), BigUint::from(7u32));
    }

    #[test]
    fn not_positive() {
        for s in ["0", "5-7", "2^3-8", "0x0", "(1-2)^3", "0*5"] {
            assert_eq!(err(s), "the expression is not positive", "{s}");
        }
    }

    #[test]
    fn specific_reasons() {
        assert_eq!(err("2^g"), "unexpected character `g` at position 3");
        assert_eq!(
            err("(2^255-19"),
            "missing closing parenthesis for `(` at position 1"
        );
        assert_eq!(
            err("2^100000"),
            "exponent 100000 is too large (at most 16384)"
        );
        assert_eq!(err("2^255-19)"), "unmatched `)` at position 9");
        assert_eq!(
            err("2 55"),
            "expected an operator at position 3, found a number"
        );
        assert_eq!(
            err("2^"),
            "expected a number or `(` at position 3, found the end of the input"
        );
        assert_eq!(
            err("()"),
            "expected a number or `(` at position 2, found `)`"
        );
        assert_eq!(
            err("2^^3"),
            "expected a number or `(` at position 3, found `^`"
        );
        assert_eq!(
            err("-5"),
            "expected a number or `(` at position 1, found `-`"
        );
        assert_eq!(err("0x"), "`0x` at position 1 has no hex digits");
        assert_eq!(err("0xfg"), "unexpected character `g` at position 4");
        assert_eq!(
            err("2**255"),
            "`**` at position 2 is not an operator: write powers with `^`"
        );
        assert_eq!(
            err("2^(1-2)"),
            "the exponent after `^` at position 2 is negative"
        );
        assert_eq!(
            err("2^16384*2"),
            "an intermediate result exceeds 16384 bits"
        );
        assert_eq!(
            err("2^(2^64)"),
            "the exponent after `^` at position 2 has 65 bits: too large (at most 16384)"
        );
        assert_eq!(
            err("2^(10^9)"),
            "exponent 1000000000 is too large (at most 16384)"
        );
        assert_eq!(err(""), "the expression is empty");
        assert_eq!(err("   "), "the expression is empty");
        assert_eq!(err("2 ×3"), "unexpected character `×` at position 3");
        assert_eq!(err("2\n+\u{0}"), "unexpected character `\\0` at position 4");
        assert_eq!(
            err("(2"),
            "missing closing parenthesis for `(` at position 1"
        );
        assert_eq!(
            err("(2 3)"),
            "expected `)` at position 4 to close `(` at position 1, found a number"
        );
        assert_eq!(err("x"), "unexpected character `x` at position 1");
    }

    #[test]
    fn resource_guards() {
        // Largest values within the limits are fine.
        assert_eq!(ok("2^16383").bits(), 16384);
        assert_eq!(ok("2^16383-1+2^16383").bits(), 16384);
        assert_eq!(
            err("2^16384-1"),
            "an intermediate result exceeds 16384 bits"
        );
        assert_eq!(ok("1^16384"), BigUint::one());
        assert_eq!(err("2^16384"), "an intermediate result exceeds 16384 bits");
        assert_eq!(
            err("9^9^9"),
            "exponent 387420489 is too large (at most 16384)"
        );
        assert_eq!(
            err("(2^16000)*(2^16000)"),
            "an intermediate result exceeds 16384 bits"
        );
        assert_eq!(err("3^16384"), "an intermediate result exceeds 16384 bits");
        // Huge literals are refused before conversion.
        let big_dec = "9".repeat(60_000);
        assert_eq!(
            err(&big_dec),
            "the number at position 1 has more than 16384 bits"
        );
        let five_thousand_digits = format!("1{}", "0".repeat(4999));
        assert_eq!(
            err(&five_thousand_digits),
            "the number at position 1 has more than 16384 bits"
        );
        let big_hex = format!("0x{}", "f".repeat(4097));
        assert_eq!(
            err(&big_hex),
            "the number at position 1 has more than 16384 bits"
        );
        let fits_hex = format!("0x{}{}", "0".repeat(1000), "f".repeat(4096));
        assert_eq!(ok(&fits_hex).bits(), 16384);
        let edge_dec = format!("{}", pow2(16384) - 1u32); // 4933 digits, 16384 bits
        assert_eq!(ok(&edge_dec).bits(), 16384);
        let over_dec = format!("{}", pow2(16384)); // 4933 digits, 16385 bits
        assert_eq!(
            err(&over_dec),
            "the number at position 1 has more than 16384 bits"
        );
        // Deep nesting is refused instead of overflowing the stack.
        let deep = format!("{}1{}", "(".repeat(30_000), ")".repeat(30_000));
        assert!(err(&deep).contains("nests deeper than"));
        let tower = vec!["1"; 30_000].join("^");
        assert!(err(&tower).contains("nests deeper than"));
        let long = "1+".repeat(40_000) + "1";
        assert!(err(&long).contains("too long"));
        // A long but shallow chain within the length limit evaluates.
        let chain = "1+".repeat(30_000) + "1";
        assert_eq!(ok(&chain), BigUint::from(30_001u32));
    }

    #[test]
    fn never_panics_on_odd_inputs() {
        let alphabet = [
            "0", "1", "2", "9", "x", "X", "0x", "f", "_", "^", "*", "+", "-", "(", ")", " ", "é",
            "\u{0}", "**",
        ];
        // Every string of up to four pieces from the alphabet.
        let mut inputs = vec![String::new()];
        for _ in 0..4 {
            let mut next = Vec::new();
            for s in &inputs {
                for a in alphabet {
                    next.push(format!("{s}{a}"));
                }
            }
            inputs.extend(next);
            inputs.sort();
            inputs.dedup();
        }
        for s in &inputs {
            if let Ok(v) = parse_modulus_expr(s) {
                assert!(!v.is_zero(), "{s}");
            }
        }
    }
}
