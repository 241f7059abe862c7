//! `fieldgen-benches report [FILTER] [--quick] [--no-run] [--measurement-time S] [--warm-up-time S]`
//!
//! Runs the criterion benches of this package with `-C target-cpu=native` in their own target
//! directory (`target/bench-native`, so a workspace `cargo test` never rebuilds for it), reads
//! criterion's estimates and writes `benches/RESULTS.md`: one table per field, rows = operations,
//! columns = our backends and the peers in ns/op (median), the ratio of our best backend to the
//! fastest peer, and a rank line (each entry's time divided by the fastest in the row).
//!
//! Run it as `cargo run -p fieldgen-benches --release -- report`.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::{Instant, SystemTime};

use fieldgen_benches::{
    column_order, curve_group, field, is_ours, Op, CURVE_GROUPS, FIELDS, PEERS,
};

/// Target directory of the native build, relative to the workspace root.
const TARGET_DIR: &str = "target/bench-native";
/// The flags the benches are built with.
const NATIVE_FLAGS: &str = "-C target-cpu=native";

const USAGE: &str = "\
usage: fieldgen-benches report [FILTER] [--quick] [--no-run] [--out FILE]
                               [--measurement-time SECONDS] [--warm-up-time SECONDS]

Runs the field benchmark matrix (criterion, built with -C target-cpu=native in target/bench-native)
and writes benches/RESULTS.md (the whole matrix) or, with a FILTER, target/bench-native/REPORT.md
so that a partial run never replaces the full table.

  FILTER                 a criterion filter (regex on `<field>/<op>/<column>`), e.g. `bn254|bls12`
  --out FILE             write the tables to FILE instead (relative to the workspace root)
  --quick                criterion's quick mode (stops once the estimate is stable)
  --no-run               do not run anything: tabulate the measurements already on disk
  --measurement-time S   seconds of measurement per benchmark [default: 2]
  --warm-up-time S       seconds of warm-up per benchmark [default: 0.5]";

struct Args {
    filter: Option<String>,
    out: Option<String>,
    quick: bool,
    no_run: bool,
    measurement_time: String,
    warm_up_time: String,
}

fn parse_args() -> Result<Args, String> {
    let mut it = std::env::args().skip(1);
    match it.next().as_deref() {
        Some("report") => {}
        Some("-h" | "--help") => return Err(String::new()),
        _ => return Err("expected the `report` subcommand".into()),
    }
    let mut args = Args {
        filter: None,
        out: None,
        quick: false,
        no_run: false,
        measurement_time: "2".into(),
        warm_up_time: "0.5".into(),
    };
    let seconds = |flag: &str, v: Option<String>| -> Result<String, String> {
        let v = v.ok_or(format!("{flag} needs a value"))?;
        match v.parse::<f64>() {
            Ok(s) if s > 0.0 => Ok(v),
            _ => Err(format!("{flag}: not a positive number of seconds: {v}")),
        }
    };
    while let Some(a) = it.next() {
        match a.as_str() {
            "--quick" => args.quick = true,
            "--no-run" => args.no_run = true,
            "--out" => args.out = Some(it.next().ok_or("--out needs a file name")?),
            "--measurement-time" => args.measurement_time = seconds(&a, it.next())?,
            "--warm-up-time" => args.warm_up_time = seconds(&a, it.next())?,
            "-h" | "--help" => return Err(String::new()),
            s if s.starts_with('-') => return Err(format!("unknown option {s}")),
            s if args.filter.is_none() => args.filter = Some(s.to_string()),
            s => return Err(format!("only one filter is accepted (got a second: {s})")),
        }
    }
    Ok(args)
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            if !e.is_empty() {
                eprintln!("error: {e}\n");
            }
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The workspace root: the parent of this package's manifest directory.
fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the package sits in the workspace")
        .to_path_buf()
}

/// The `cargo bench` arguments after `cargo`, and the criterion arguments after `--`.
fn bench_args(args: &Args) -> (Vec<String>, Vec<String>) {
    let cargo: Vec<String> = [
        "bench",
        "-p",
        "fieldgen-benches",
        "--features",
        "peers",
        "--bench",
        "fields",
        "--bench",
        "curves",
    ]
    .map(String::from)
    .to_vec();
    let mut criterion = vec![
        "--noplot".to_string(),
        "--warm-up-time".into(),
        args.warm_up_time.clone(),
        "--measurement-time".into(),
        args.measurement_time.clone(),
    ];
    if args.quick {
        criterion.push("--quick".into());
    }
    if let Some(f) = &args.filter {
        criterion.push(f.clone());
    }
    (cargo, criterion)
}

/// Quotes a word for a POSIX shell when it needs it.
fn shell_word(w: &str) -> String {
    if !w.is_empty()
        && w.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+".contains(c))
    {
        w.to_string()
    } else {
        format!("'{}'", w.replace('\'', r"'\''"))
    }
}

fn run(args: &Args) -> Result<(), String> {
    let root = workspace_root();
    let target = root.join(TARGET_DIR);
    let criterion_home = target.join("criterion");
    let (cargo_args, criterion_args) = bench_args(args);
    let rustflags = match std::env::var("RUSTFLAGS") {
        Ok(extra) if !extra.trim().is_empty() => format!("{extra} {NATIVE_FLAGS}"),
        _ => NATIVE_FLAGS.to_string(),
    };
    let bench_command = format!(
        "CARGO_TARGET_DIR={TARGET_DIR} RUSTFLAGS={} cargo {} -- {}",
        shell_word(&rustflags),
        cargo_args.join(" "),
        criterion_args
            .iter()
            .map(|a| shell_word(a))
            .collect::<Vec<_>>()
            .join(" ")
    );
    let mut report_command = "cargo run -p fieldgen-benches --release -- report".to_string();
    for a in std::env::args().skip(2) {
        report_command.push(' ');
        report_command.push_str(&shell_word(&a));
    }

    let started = SystemTime::now();
    let load_before = load_average();
    let t0 = Instant::now();
    if !args.no_run {
        eprintln!("running: {bench_command}");
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let status = Command::new(cargo)
            .current_dir(&root)
            .args(&cargo_args)
            .arg("--")
            .args(&criterion_args)
            .env("RUSTFLAGS", &rustflags)
            .env_remove("CARGO_ENCODED_RUSTFLAGS")
            .env("CARGO_TARGET_DIR", &target)
            .env("CRITERION_HOME", &criterion_home)
            .status()
            .map_err(|e| format!("cannot start cargo: {e}"))?;
        if !status.success() {
            return Err(format!("cargo bench failed: {status}"));
        }
    }
    let wall = t0.elapsed();
    let load = (!args.no_run).then(|| (load_before, load_average()));

    // With a run, tabulate only what this run measured (older results of other groups may sit
    // beside them, from other runs and other machine states); with --no-run, everything.
    let since = if args.no_run { None } else { Some(started) };
    let results = read_results(&criterion_home, since)?;
    if results.is_empty() {
        return Err(format!(
            "no criterion results under {TARGET_DIR}/criterion{}",
            if args.no_run {
                ""
            } else {
                " from this run (does the filter match anything?)"
            }
        ));
    }

    let mut md = String::new();
    header(
        &mut md,
        &report_command,
        &bench_command,
        load,
        wall,
        started,
    );
    let mut summary = String::new();
    tables(&results, &mut md, &mut summary);
    legend(&mut md);
    let out = match (&args.out, &args.filter) {
        (Some(f), _) => root.join(f),
        (None, Some(_)) => root.join(TARGET_DIR).join("REPORT.md"),
        (None, None) => root.join("benches").join("RESULTS.md"),
    };
    let out_name = out
        .strip_prefix(&root)
        .unwrap_or(&out)
        .display()
        .to_string();
    // Keep the instruction-count section that scripts/inst-counts.sh writes at the end.
    if let Ok(old) = std::fs::read_to_string(&out) {
        if let Some(at) = old.find("<!-- instruction counts: begin") {
            md.push('\n');
            md.push_str(&old[at..]);
        }
    }
    std::fs::write(&out, md).map_err(|e| format!("cannot write {out_name}: {e}"))?;
    println!("{summary}");
    println!(
        "wrote {out_name} ({} benchmarks, wall time {:.0} s)",
        results
            .values()
            .flat_map(|ops| ops.values())
            .map(|cols| cols.len())
            .sum::<usize>(),
        wall.as_secs_f64()
    );
    Ok(())
}

/// One measurement: nanoseconds per operation (median), with its 95 % confidence interval.
#[derive(Clone, Copy, Debug)]
struct Measurement {
    ns: f64,
    lo: f64,
    hi: f64,
}

/// field id -> op id -> column id -> measurement.
type Results = BTreeMap<String, BTreeMap<String, BTreeMap<String, Measurement>>>;

/// Reads `<group>/<function>/<value>/new/{benchmark,estimates}.json` under `home`.
fn read_results(home: &Path, since: Option<SystemTime>) -> Result<Results, String> {
    let mut out = Results::new();
    let mut stack = vec![home.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.file_name().is_some_and(|n| n == "benchmark.json")
                && p.parent()
                    .and_then(Path::file_name)
                    .is_some_and(|n| n == "new")
            {
                if let Some(since) = since {
                    let fresh = std::fs::metadata(&p)
                        .and_then(|m| m.modified())
                        .is_ok_and(|t| t >= since);
                    if !fresh {
                        continue;
                    }
                }
                if let Some((f, op, col, m)) = read_one(&p)? {
                    out.entry(f)
                        .or_default()
                        .entry(op)
                        .or_default()
                        .insert(col, m);
                }
            }
        }
    }
    Ok(out)
}

fn read_json(p: &Path) -> Result<serde_json::Value, String> {
    let text = std::fs::read_to_string(p).map_err(|e| format!("{}: {e}", p.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", p.display()))
}

/// Parses one benchmark; `None` when it is not of this matrix (`<field>/<op>/<column>`).
fn read_one(
    benchmark_json: &Path,
) -> Result<Option<(String, String, String, Measurement)>, String> {
    let b = read_json(benchmark_json)?;
    let (Some(group), Some(function), Some(value)) = (
        b["group_id"].as_str(),
        b["function_id"].as_str(),
        b["value_str"].as_str(),
    ) else {
        return Ok(None);
    };
    let field_op = field(group).is_some() && Op::from_id(function).is_some();
    let curve_op = curve_group(group).is_some_and(|g| g.ops.contains(&function));
    if !field_op && !curve_op {
        return Ok(None);
    }
    // Criterion's times are per iteration; one iteration chains `Elements` operations.
    let per_iter = b["throughput"]["Elements"].as_f64().unwrap_or(1.0);
    let est = read_json(&benchmark_json.with_file_name("estimates.json"))?;
    let median = &est["median"];
    let get = |v: &serde_json::Value| {
        v.as_f64()
            .ok_or_else(|| format!("{}: no median in estimates.json", benchmark_json.display()))
    };
    let m = Measurement {
        ns: get(&median["point_estimate"])? / per_iter,
        lo: get(&median["confidence_interval"]["lower_bound"])? / per_iter,
        hi: get(&median["confidence_interval"]["upper_bound"])? / per_iter,
    };
    Ok(Some((
        group.to_string(),
        function.to_string(),
        value.to_string(),
        m,
    )))
}

/// The 1-minute load average (`/proc/loadavg`), or "unknown".
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| s.split_whitespace().next().map(str::to_string))
        .unwrap_or_else(|| "unknown".into())
}

/// `load` is the load average before and after the run; `None` for `--no-run`.
fn header(
    md: &mut String,
    report: &str,
    bench: &str,
    load: Option<(String, String)>,
    wall: std::time::Duration,
    started: SystemTime,
) {
    let cpu = cpu_model();
    let rustc = command_line_output("rustc", &["--version"]);
    let _ = writeln!(md, "# fieldgen field-arithmetic benchmarks\n");
    let _ = writeln!(
        md,
        "Latency in ns per operation (criterion median; each operation takes the previous result). \
         Generated by the `report` command of `benches/`: do not edit by hand, rerun it.\n"
    );
    let _ = writeln!(md, "- date (UTC): {}", utc_date_time(started));
    let _ = writeln!(md, "- CPU: {cpu}");
    let _ = writeln!(md, "- rustc: {rustc}");
    let _ = writeln!(md, "- command: `{report}`");
    if let Some((before, after)) = load {
        let _ = writeln!(md, "- which ran: `{bench}`");
        let _ = writeln!(
            md,
            "- wall time of the run (build included): {:.0} s",
            wall.as_secs_f64()
        );
        let _ = writeln!(
            md,
            "- 1-minute load average before / after: {before} / {after} (the benches use one core \
             of the machine's {}; more load means other work shared the CPU)",
            std::thread::available_parallelism().map_or(0, |n| n.get())
        );
    } else {
        let _ = writeln!(
            md,
            "- measurements: read from earlier runs (`--no-run`); tables may mix runs, compare within a table only"
        );
    }
    let _ = writeln!(
        md,
        "\nEach cell is ns/op; **bold** is the fastest in its row. `ours/peer` is our fastest backend \
         divided by the fastest peer (below 1.00: ours is faster). `rank` lists every entry as its time \
         divided by the row's fastest (so the fastest shows 1.00). The machine is shared and noisy: \
         compare ratios within one run, not absolute times across runs. Operations: `mul` x←x·y, \
         `square` x←x², `add` x←x+y, `invert` x←x⁻¹+y, `sqrt` x←√(x²)+y.\n"
    );
}

fn tables(results: &Results, md: &mut String, summary: &mut String) {
    let mut field_ids: Vec<&String> = results.keys().collect();
    field_ids.sort_by_key(|id| {
        FIELDS
            .iter()
            .position(|f| f.id == id.as_str())
            .or_else(|| {
                CURVE_GROUPS
                    .iter()
                    .position(|g| g.id == id.as_str())
                    .map(|i| FIELDS.len() + i)
            })
            .unwrap_or(usize::MAX)
    });
    for fid in field_ids {
        let ops = &results[fid];
        let title = field(fid)
            .map(|f| f.title)
            .or_else(|| curve_group(fid).map(|g| g.title))
            .unwrap_or(fid.as_str());
        let mut columns: Vec<&String> = ops.values().flat_map(|cols| cols.keys()).collect();
        columns.sort_by_key(|c| column_order(c));
        columns.dedup();
        let mut op_ids: Vec<&String> = ops.keys().collect();
        op_ids.sort_by_key(|o| {
            Op::from_id(o)
                .map(|op| op as usize)
                .or_else(|| curve_group(fid).and_then(|g| g.ops.iter().position(|x| x == o)))
                .unwrap_or(usize::MAX)
        });

        let _ = writeln!(md, "## {title} (`{fid}`)\n");
        let _ = writeln!(summary, "{fid}: ours / fastest peer");
        let mut head = "| op |".to_string();
        let mut rule = "|---|".to_string();
        for c in &columns {
            let _ = write!(head, " {c} |");
            rule.push_str("---:|");
        }
        let _ = writeln!(md, "{head} ours/peer | rank (time ÷ fastest) |");
        let _ = writeln!(md, "{rule}---:|---|");
        for op in op_ids {
            let row = &ops[op];
            let fastest = row.values().map(|m| m.ns).fold(f64::INFINITY, f64::min);
            let mut line = format!("| {op} |");
            for c in &columns {
                match row.get(*c) {
                    Some(m) if m.ns == fastest => {
                        let _ = write!(line, " **{}** |", fmt_ns(m.ns));
                    }
                    Some(m) => {
                        let _ = write!(line, " {} |", fmt_ns(m.ns));
                    }
                    None => line.push_str(" — |"),
                }
            }
            let best = |ours: bool| {
                row.iter()
                    .filter(|(c, _)| is_ours(c) == ours)
                    .min_by(|a, b| a.1.ns.total_cmp(&b.1.ns))
            };
            let ratio = match (best(true), best(false)) {
                (Some((_, o)), Some((_, p))) => {
                    let _ = writeln!(
                        summary,
                        "  {op:<7} {:>6.2}  ({})",
                        o.ns / p.ns,
                        row.iter()
                            .filter(|(c, _)| is_ours(c))
                            .map(|(c, m)| format!("{c} {:.2}", m.ns / p.ns))
                            .collect::<Vec<_>>()
                            .join(", ")
                    );
                    format!("{:.2}", o.ns / p.ns)
                }
                _ => "—".to_string(),
            };
            let mut ranked: Vec<(&String, &Measurement)> = row.iter().collect();
            ranked.sort_by(|a, b| a.1.ns.total_cmp(&b.1.ns));
            let rank = ranked
                .iter()
                .map(|(c, m)| format!("{c} {:.2}", m.ns / fastest))
                .collect::<Vec<_>>()
                .join(" · ");
            let _ = writeln!(md, "{line} {ratio} | {rank} |");
        }
        let _ = writeln!(md);
        // Noisy rows: the 95 % interval of the median wider than ±5 %.
        let noisy: Vec<String> = ops
            .iter()
            .flat_map(|(op, row)| row.iter().map(move |(c, m)| (op, c, m)))
            .filter(|(_, _, m)| (m.hi - m.lo) > 0.10 * m.ns)
            .map(|(op, c, m)| format!("{op}/{c} [{}, {}]", fmt_ns(m.lo), fmt_ns(m.hi)))
            .collect();
        if !noisy.is_empty() {
            let _ = writeln!(
                md,
                "Noisy (95 % interval of the median wider than ±5 %): {}.\n",
                noisy.join("; ")
            );
        }
    }
}

fn legend(md: &mut String) {
    let _ = writeln!(md, "## Columns\n");
    let _ = writeln!(
        md,
        "- `ours-<backend>`: fieldgen's committed generated code (`fieldgen-generated`), one column \
         per backend: `portable64` / `portable32` are the plain-Rust emitters at 64- / 32-bit limbs, \
         `x86_64-adx` the BMI2/ADX assembly; the special-form fields name the backend their `mul` \
         runs on this machine, and `ours-<form>-<backend>` is a module generated with another \
         `--strategy` (`montgomery`, `solinas`) for comparison. In the curve rows, \
         `avx512ifma` is an operation whose point or ladder arithmetic runs on the generated \
         4-lane field `FpX4` (AVX-512 IFMA, chosen at run time); the others name the backend of \
         the scalar 2^255 − 19 field."
    );
    for p in PEERS {
        let _ = writeln!(md, "- `{}`: {}", p.id, p.about);
    }
    let _ = writeln!(
        md,
        "\nEverything is built with `{NATIVE_FLAGS}` in `{TARGET_DIR}`, peers with the features that \
         select their fastest code."
    );
}

/// Formats nanoseconds with three significant digits, in µs from 10 000 ns up.
fn fmt_ns(ns: f64) -> String {
    if ns >= 10_000.0 {
        format!("{:.1} µs", ns / 1000.0)
    } else if ns >= 100.0 {
        format!("{ns:.0}")
    } else if ns >= 10.0 {
        format!("{ns:.1}")
    } else {
        format!("{ns:.2}")
    }
}

fn cpu_model() -> String {
    let info = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let get = |key: &str| {
        info.lines()
            .find(|l| l.split(':').next().is_some_and(|k| k.trim() == key))
            .and_then(|l| l.split_once(':'))
            .map(|(_, v)| v.trim().to_string())
    };
    let model = get("model name").unwrap_or_else(|| "unknown".into());
    let cores = info.lines().filter(|l| l.starts_with("processor")).count();
    let flags = get("flags").unwrap_or_default();
    let has: Vec<&str> = ["bmi2", "adx", "avx2", "avx512f"]
        .into_iter()
        .filter(|f| flags.split_whitespace().any(|x| x == *f))
        .collect();
    let mut s = format!("{model}, {cores} logical CPUs");
    if let (Some(fam), Some(m)) = (get("cpu family"), get("model")) {
        let _ = write!(s, ", family {fam} model {m}");
    }
    if !has.is_empty() {
        let _ = write!(s, "; {}", has.join(" "));
    }
    s
}

fn command_line_output(cmd: &str, args: &[&str]) -> String {
    let cmd = if cmd == "rustc" {
        std::env::var("RUSTC").unwrap_or_else(|_| cmd.to_string())
    } else {
        cmd.to_string()
    };
    Command::new(&cmd)
        .args(args)
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| "unknown".into())
}

/// `YYYY-MM-DD HH:MM` in UTC (civil-from-days, H. Hinnant's algorithm).
fn utc_date_time(t: SystemTime) -> String {
    let secs = t
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs()) as i64;
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02}",
        rem / 3600,
        rem % 3600 / 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        let at = |s| SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(s);
        assert_eq!(utc_date_time(at(0)), "1970-01-01 00:00");
        assert_eq!(utc_date_time(at(951_782_400)), "2000-02-29 00:00");
        assert_eq!(utc_date_time(at(1_767_225_599)), "2025-12-31 23:59");
    }

    #[test]
    fn ns_formatting() {
        assert_eq!(fmt_ns(3.456), "3.46");
        assert_eq!(fmt_ns(24.13), "24.1");
        assert_eq!(fmt_ns(2512.4), "2512");
        assert_eq!(fmt_ns(25_120.0), "25.1 µs");
    }

    #[test]
    fn shell_quoting() {
        assert_eq!(shell_word("bn254"), "bn254");
        assert_eq!(shell_word("bn254|bls12"), "'bn254|bls12'");
        assert_eq!(shell_word("-C target-cpu=native"), "'-C target-cpu=native'");
    }
}
