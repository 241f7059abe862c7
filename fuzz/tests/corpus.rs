//! Replays every committed seed corpus (`corpus/<target>/*`) through its target: the cheap
//! part of the fuzzing that runs with the workspace's tests. A finding panics with the file.

use std::path::Path;

#[test]
fn every_target_has_a_corpus_and_replays_it() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let mut total = 0;
    for t in fieldgen_fuzz::TARGETS {
        let dir = root.join(t.name);
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.expect("entry").path())
            .collect();
        files.sort();
        assert!(!files.is_empty(), "{}: empty corpus", dir.display());
        for f in &files {
            let data = std::fs::read(f).expect("read");
            let r = std::panic::catch_unwind(|| (t.run)(&data));
            assert!(r.is_ok(), "{} fails on {}", t.name, f.display());
        }
        total += files.len();
    }
    println!("replayed {total} corpus files");
}
