//! The generated execute cases (`conformance/cases/generated/execute-*.json`) and their stores
//! (`conformance/fixtures/gen-store-*.mg`): stored, exactly what
//! `authoring/generated/execute_cases.py` writes from its seed, flagged generated, and passed by
//! our engine. The expected answers are the authoring oracle's (`authoring/execute_mg/oracle.py`),
//! never our engine's; the only part of our toolchain the check uses is the OMS codec, here
//! in-process (so no `cal` binary is needed).

use cal_conformance::inprocess::InProcess;
use cal_conformance::runner::{self, RunOptions, Status};
use cal_conformance::{Flag, default_cases_dir, default_fixtures_dir, load_corpus};
use oms::mg::{self, MgFile, PackOptions};
use std::path::Path;
use std::process::Command;

fn generator(args: &[&str]) -> std::process::Output {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("authoring/generated/execute_cases.py");
    Command::new("python3").arg(&script).args(args).output().expect("python3 runs the generator")
}

#[test]
fn the_stored_stores_and_cases_are_what_the_generator_writes_from_its_seed() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let tmp = tempfile::tempdir().expect("a temporary directory");
    let grains_dir = tmp.path().join("grains");
    let env_dir = tmp.path().join("envelopes");
    std::fs::create_dir_all(&grains_dir).unwrap();
    std::fs::create_dir_all(&env_dir).unwrap();
    let out = generator(&["--emit-grains", grains_dir.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let mut names: Vec<_> = std::fs::read_dir(&grains_dir)
        .unwrap()
        .map(|e| e.unwrap().path().file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert!(names.len() >= 4, "{names:?}");
    for name in &names {
        // The store is the seed's grains packed as `cal mg pack --jsonl` packs them.
        let text = std::fs::read_to_string(grains_dir.join(format!("{name}.jsonl"))).unwrap();
        let grains = oms::tools::grains_from_jsonl(&text).unwrap_or_else(|(line, e)| panic!("{name}:{line}: {e}"));
        let entries: Vec<Vec<u8>> = grains.iter().map(|g| g.encode().expect("the grain encodes").bytes).collect();
        let packed =
            mg::pack(entries.iter().map(Vec::as_slice), None, &PackOptions::default()).expect("the store packs");
        let path = root.join("fixtures").join(format!("{name}.mg"));
        let committed = std::fs::read(&path).unwrap_or_default();
        assert!(committed == packed, "{} is stale: run authoring/generated/execute_cases.py", path.display());
        // The store as the codec reads it back, for the oracle (`cal mg unpack --envelope`).
        let file = MgFile::open(&committed).expect("the store opens");
        let lines: String = (0..file.len())
            .map(|i| format!("{}\n", oms::tools::unpack_line(&file, i, true).expect("the grain unpacks")))
            .collect();
        std::fs::write(env_dir.join(format!("{name}.jsonl")), lines).unwrap();
    }
    let out = generator(&["--check", "--envelopes", env_dir.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "conformance/cases/generated/execute-*.json is not what the generator writes: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn six_hundred_generated_execute_cases_our_engine_passes() {
    let corpus = load_corpus(&default_cases_dir());
    let cases: Vec<_> = corpus.cases.into_iter().filter(|c| c.id.starts_with("gen.execute.")).collect();
    assert!(cases.len() >= 600, "{}", cases.len());
    assert!(cases.iter().all(|c| c.has_flag(Flag::Generated)));
    let opts = RunOptions { fixtures_dir: default_fixtures_dir(), max_level: None, ..RunOptions::default() };
    let outcomes = runner::run(&mut InProcess::new(), &cases, &opts);
    let passed = outcomes.iter().filter(|o| o.status == Status::Passed).count();
    let bad: Vec<_> = outcomes.iter().filter(|o| o.status != Status::Passed).take(5).collect();
    assert!(bad.is_empty(), "{passed} of {} passed; {bad:#?}", outcomes.len());
}
