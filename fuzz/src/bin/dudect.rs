//! dudect: a statistical test of constant time on the compiled code (Reparaz, Balasch and
//! Verbauwhede, "Dude, is my code constant time?", DATE 2017).
//!
//! For each operation, inputs come from two classes — one fixed value and fresh random values —
//! interleaved at random; each call is timed with the cycle counter (`rdtsc` between `lfence`s
//! on x86-64, `Instant` elsewhere). Welch's t-statistic compares the two classes' timing
//! distributions, on all samples and on samples cropped below each of a ladder of percentiles
//! (the paper's §3 preprocessing, with its thresholds 1 − 0.5^(10·(i+1)/P)), which removes the
//! long upper tail that interrupts and the shared machine add. The largest |t| is reported:
//! below 4.5 there is no evidence of a timing difference at that sample count; above 10 the
//! difference is certain. A low |t| bounds nothing: it only says that this many samples did
//! not find a leak.
//!
//! `control_invert_vartime_p256` times a function that is variable time by design
//! (`invert_vartime`): it must be reported, which shows that the harness can fail.
//!
//! Usage: `dudect [--seconds S] [NAME ...]` (default: 20 s per test, every test). `dudect
//! --list` names the tests. Run it on a release build (see the crate README).

use std::time::{Duration, Instant};

use fieldgen_curve25519::ed25519::SigningKey;
use fieldgen_generated::{curve25519_p_64, p256_p_64};
use fieldgen_rsa_schemes::RsaPrivateKey;
use fieldgen_weierstrass::curves::P256;
use fieldgen_weierstrass::ecdsa::SecretKey;

/// Number of cropping percentiles (the paper's implementation uses 100).
const PERCENTILES: usize = 100;

// The shared SplitMix64 stream: the class choice and the random class's inputs (not a
// secret generator).
use fieldgen_test_support::SplitMix64 as Rng;

/// This binary's sampler on the stream.
trait Samplers {
    /// `N` bytes, whole outputs little-endian.
    fn bytes<const N: usize>(&mut self) -> [u8; N];
}

impl Samplers for Rng {
    fn bytes<const N: usize>(&mut self) -> [u8; N] {
        let mut a = [0u8; N];
        self.fill_le_bytes(&mut a);
        a
    }
}

/// Welch's t-test, accumulated online (Welford's mean and variance per class).
#[derive(Clone, Copy, Default)]
struct Welch {
    n: [f64; 2],
    mean: [f64; 2],
    m2: [f64; 2],
}

impl Welch {
    fn push(&mut self, class: usize, x: f64) {
        self.n[class] += 1.0;
        let d = x - self.mean[class];
        self.mean[class] += d / self.n[class];
        self.m2[class] += d * (x - self.mean[class]);
    }

    fn t(&self) -> f64 {
        if self.n[0] < 2.0 || self.n[1] < 2.0 {
            return 0.0;
        }
        let v0 = self.m2[0] / (self.n[0] - 1.0);
        let v1 = self.m2[1] / (self.n[1] - 1.0);
        let den = (v0 / self.n[0] + v1 / self.n[1]).sqrt();
        if den == 0.0 {
            0.0
        } else {
            (self.mean[0] - self.mean[1]) / den
        }
    }
}

#[inline(always)]
fn cycles() -> u64 {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: lfence and rdtsc have no preconditions on x86-64.
    unsafe {
        core::arch::x86_64::_mm_lfence();
        let t = core::arch::x86_64::_rdtsc();
        core::arch::x86_64::_mm_lfence();
        t
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        use std::sync::OnceLock;
        static START: OnceLock<Instant> = OnceLock::new();
        START.get_or_init(Instant::now).elapsed().as_nanos() as u64
    }
}

/// One operation under test: `prepare` makes the input of a class (0 fixed, 1 random) outside
/// the timed region; `run` is timed.
trait Case {
    type In;
    fn prepare(&mut self, class: usize, rng: &mut Rng) -> Self::In;
    fn run(&mut self, input: &Self::In);
}

struct Outcome {
    samples: usize,
    t_all: f64,
    t_max: f64,
    crop_at_max: usize,
}

fn measure<C: Case>(case: &mut C, seconds: f64, seed: u64) -> Outcome {
    let mut rng = Rng(seed);
    let batch = 2_000;
    // Warm-up batch: its timings set the cropping thresholds and are then discarded.
    let mut warm: Vec<u64> = Vec::with_capacity(batch);
    let mut inputs = Vec::with_capacity(batch);
    let mut classes = Vec::with_capacity(batch);
    let mut times = vec![0u64; batch];
    let mut run_batch =
        |case: &mut C, rng: &mut Rng, times: &mut [u64], classes: &mut Vec<usize>| {
            classes.clear();
            inputs.clear();
            for _ in 0..times.len() {
                let class = (rng.next_u64() & 1) as usize;
                classes.push(class);
                inputs.push(case.prepare(class, rng));
            }
            for (i, input) in inputs.iter().enumerate() {
                let t0 = cycles();
                case.run(input);
                let t1 = cycles();
                times[i] = t1.wrapping_sub(t0);
            }
        };
    run_batch(case, &mut rng, &mut times, &mut classes);
    warm.extend_from_slice(&times);
    warm.sort_unstable();
    let thresholds: Vec<u64> = (0..PERCENTILES)
        .map(|i| {
            let q = 1.0 - 0.5f64.powf(10.0 * (i as f64 + 1.0) / PERCENTILES as f64);
            // q in (0, 1): the rank is a whole number below len (a float `as` saturates).
            #[allow(
                clippy::cast_possible_truncation,
                reason = "the floored rank lies in 0..len"
            )]
            let rank = (q * warm.len() as f64) as usize;
            warm[rank.min(warm.len() - 1)]
        })
        .collect();
    let mut all = Welch::default();
    let mut cropped = vec![Welch::default(); PERCENTILES];
    let start = Instant::now();
    let mut samples = 0;
    while start.elapsed() < Duration::from_secs_f64(seconds) {
        run_batch(case, &mut rng, &mut times, &mut classes);
        for (&t, &c) in times.iter().zip(classes.iter()) {
            all.push(c, t as f64);
            for (w, &thr) in cropped.iter_mut().zip(&thresholds) {
                if t < thr {
                    w.push(c, t as f64);
                }
            }
        }
        samples += times.len();
    }
    let (crop_at_max, t_max) = cropped
        .iter()
        .map(Welch::t)
        .enumerate()
        .filter(|(i, _)| cropped[*i].n[0] >= 1000.0 && cropped[*i].n[1] >= 1000.0)
        .fold((PERCENTILES, all.t()), |best, (i, t)| {
            if t.abs() > best.1.abs() {
                (i, t)
            } else {
                best
            }
        });
    Outcome {
        samples,
        t_all: all.t(),
        t_max,
        crop_at_max,
    }
}

/// Field inversion (curve25519 and P-256 base fields, 64-bit limbs): fixed input 1.
struct Invert25519;
impl Case for Invert25519 {
    type In = curve25519_p_64::Fp;
    fn prepare(&mut self, class: usize, rng: &mut Rng) -> Self::In {
        if class == 0 {
            curve25519_p_64::Fp::ONE
        } else {
            let mut b: [u8; 32] = rng.bytes();
            b[31] &= 0x3f;
            curve25519_p_64::Fp::from_le_bytes(&b).unwrap()
        }
    }
    fn run(&mut self, x: &Self::In) {
        core::hint::black_box(core::hint::black_box(x).invert());
    }
}

/// The control: `invert_vartime` (variable time by design, for public inputs) on the same
/// classes as `invert_p256`. It must be reported, or the harness could not see a leak.
struct InvertVartimeP256;
impl Case for InvertVartimeP256 {
    type In = p256_p_64::Fp;
    fn prepare(&mut self, class: usize, rng: &mut Rng) -> Self::In {
        InvertP256.prepare(class, rng)
    }
    fn run(&mut self, x: &Self::In) {
        core::hint::black_box(core::hint::black_box(x).invert_vartime());
    }
}

struct InvertP256;
impl Case for InvertP256 {
    type In = p256_p_64::Fp;
    fn prepare(&mut self, class: usize, rng: &mut Rng) -> Self::In {
        if class == 0 {
            p256_p_64::Fp::ONE
        } else {
            random_p256(rng)
        }
    }
    fn run(&mut self, x: &Self::In) {
        core::hint::black_box(core::hint::black_box(x).invert());
    }
}

fn random_p256(rng: &mut Rng) -> p256_p_64::Fp {
    loop {
        if let Some(x) = Option::from(p256_p_64::Fp::from_le_bytes(&rng.bytes())) {
            return x;
        }
    }
}

/// Square root in the P-256 base field (p ≡ 3 mod 4): fixed input 4 (a square), random inputs
/// half squares, half not — the answer's existence must not show in the time.
struct SqrtP256;
impl Case for SqrtP256 {
    type In = p256_p_64::Fp;
    fn prepare(&mut self, class: usize, rng: &mut Rng) -> Self::In {
        if class == 0 {
            p256_p_64::Fp::from_u64(4)
        } else {
            random_p256(rng)
        }
    }
    fn run(&mut self, x: &Self::In) {
        core::hint::black_box(core::hint::black_box(x).sqrt());
    }
}

/// Square root in the curve25519 base field (p ≡ 5 mod 8, Atkin's / the RFC 8032 method).
struct Sqrt25519;
impl Case for Sqrt25519 {
    type In = curve25519_p_64::Fp;
    fn prepare(&mut self, class: usize, rng: &mut Rng) -> Self::In {
        if class == 0 {
            curve25519_p_64::Fp::from_u64(4)
        } else {
            let mut b: [u8; 32] = rng.bytes();
            b[31] &= 0x3f;
            curve25519_p_64::Fp::from_le_bytes(&b).unwrap()
        }
    }
    fn run(&mut self, x: &Self::In) {
        core::hint::black_box(core::hint::black_box(x).sqrt());
    }
}

/// X25519 with the scalar as the secret: fixed scalar (all zero before clamping) vs random,
/// the base point's u fixed.
struct X25519;
impl Case for X25519 {
    type In = [u8; 32];
    fn prepare(&mut self, class: usize, rng: &mut Rng) -> Self::In {
        if class == 0 {
            [0u8; 32]
        } else {
            rng.bytes()
        }
    }
    fn run(&mut self, k: &Self::In) {
        let u = fieldgen_curve25519::BASEPOINT_U;
        core::hint::black_box(fieldgen_curve25519::x25519(*core::hint::black_box(k), u));
    }
}

/// Ed25519 signing of a fixed 64-byte message: fixed seed (all zero) vs random seeds. The key
/// is expanded outside the timed region; signing derives the nonce, computes R = \[r\]B and S.
struct Ed25519Sign;
impl Case for Ed25519Sign {
    type In = SigningKey;
    fn prepare(&mut self, class: usize, rng: &mut Rng) -> Self::In {
        let seed = if class == 0 { [0u8; 32] } else { rng.bytes() };
        SigningKey::from_bytes(&seed)
    }
    fn run(&mut self, key: &Self::In) {
        core::hint::black_box(core::hint::black_box(key).sign(&[0x5a; 64]));
    }
}

/// ECDSA P-256 signing (RFC 6979 nonce) of a fixed digest: fixed secret key d = 1 vs random d.
struct EcdsaP256;
impl Case for EcdsaP256 {
    type In = SecretKey<P256>;
    fn prepare(&mut self, class: usize, rng: &mut Rng) -> Self::In {
        loop {
            let mut d = [0u8; 32];
            if class == 0 {
                d[31] = 1;
            } else {
                rng.fill_le_bytes(&mut d);
            }
            if let Ok(k) = SecretKey::<P256>::from_bytes(&d) {
                return k;
            }
        }
    }
    fn run(&mut self, key: &Self::In) {
        core::hint::black_box(core::hint::black_box(key).sign_prehash(&[0xa5; 32]));
    }
}

/// The RSA private operation (RSASP1: blinded CRT with the fault check) of a 2048-bit key on
/// a fixed message (m = 2) vs random messages below n.
struct RsaPrivate {
    key: RsaPrivateKey,
}
impl Case for RsaPrivate {
    type In = Vec<u8>;
    fn prepare(&mut self, class: usize, rng: &mut Rng) -> Self::In {
        let k = self.key.size();
        let mut m = vec![0u8; k];
        if class == 0 {
            m[k - 1] = 2;
        } else {
            rng.fill_le_bytes(&mut m);
            m[0] &= 0x3f; // below n, whose top bit is set
        }
        m
    }
    fn run(&mut self, m: &Self::In) {
        core::hint::black_box(self.key.rsasp1(core::hint::black_box(m)).expect("m < n"));
    }
}

/// A deterministic generator for the RSA test key (the key is not secret here).
struct KeyRng(Rng);
impl rand_core::TryRng for KeyRng {
    type Error = core::convert::Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        Ok(self.0.next_u32())
    }
    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        Ok(self.0.next_u64())
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        self.0.fill_le_bytes(dst);
        Ok(())
    }
}
impl rand_core::TryCryptoRng for KeyRng {}

const TESTS: &[&str] = &[
    "invert_curve25519",
    "invert_p256",
    "sqrt_curve25519",
    "sqrt_p256",
    "x25519",
    "ed25519_sign",
    "ecdsa_p256_sign",
    "rsa2048_private",
    "control_invert_vartime_p256",
];

fn main() {
    let mut seconds = 20.0;
    let mut names: Vec<String> = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--seconds" => {
                seconds = args
                    .next()
                    .and_then(|s| s.parse().ok())
                    .unwrap_or_else(|| fail("--seconds needs a number"))
            }
            "--list" => {
                for t in TESTS {
                    println!("{t}");
                }
                return;
            }
            n if TESTS.contains(&n) => names.push(n.to_string()),
            n => fail(&format!("unknown test `{n}` (see --list)")),
        }
    }
    if names.is_empty() {
        names = TESTS.iter().map(|s| s.to_string()).collect();
    }
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        // The clock in nanoseconds, mod 2^64.
        .map(|d| {
            d.as_secs()
                .wrapping_mul(1_000_000_000)
                .wrapping_add(u64::from(d.subsec_nanos()))
        })
        .unwrap_or(1);
    println!(
        "{:<28} {:>10} {:>9} {:>9}  {:<8} verdict",
        "test", "samples", "t (all)", "max |t|", "crop"
    );
    for name in &names {
        let o = match name.as_str() {
            "invert_curve25519" => measure(&mut Invert25519, seconds, seed),
            "invert_p256" => measure(&mut InvertP256, seconds, seed),
            "sqrt_curve25519" => measure(&mut Sqrt25519, seconds, seed),
            "sqrt_p256" => measure(&mut SqrtP256, seconds, seed),
            "x25519" => measure(&mut X25519, seconds, seed),
            "ed25519_sign" => measure(&mut Ed25519Sign, seconds, seed),
            "ecdsa_p256_sign" => measure(&mut EcdsaP256, seconds, seed),
            "control_invert_vartime_p256" => measure(&mut InvertVartimeP256, seconds, seed),
            _ => {
                let key = RsaPrivateKey::generate(&mut KeyRng(Rng(seed)), 2048)
                    .expect("2048-bit key generation");
                measure(&mut RsaPrivate { key }, seconds, seed)
            }
        };
        let verdict = match o.t_max.abs() {
            t if t > 10.0 => "leak (|t| > 10)",
            t if t > 4.5 => "probably a leak (|t| > 4.5)",
            _ => "no evidence of a leak",
        };
        let crop = if o.crop_at_max == PERCENTILES {
            "none".to_string()
        } else {
            format!("p{}", o.crop_at_max)
        };
        println!(
            "{:<28} {:>10} {:>9.2} {:>9.2}  {:<8} {}",
            name, o.samples, o.t_all, o.t_max, crop, verdict
        );
    }
}

fn fail(msg: &str) -> ! {
    eprintln!("error: {msg}");
    std::process::exit(2)
}
