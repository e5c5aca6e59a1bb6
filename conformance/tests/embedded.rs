//! The corpus compiled into the binary is the repository's: the same case files,
//! fixture stores and digests, the same cases once loaded; and the embedded
//! fixture stores are written out for a run.

use cal_conformance::embedded::{self, EMBEDDED, FixtureDir, Provenance};
use cal_conformance::{default_cases_dir, default_fixtures_dir, load_corpus, load_embedded_corpus};

#[test]
fn the_embedded_case_files_are_the_repositorys() {
    let dir = Provenance::of_dir(&default_cases_dir(), "json").expect("the repository's cases");
    let embedded = embedded::cases_provenance();
    assert_eq!(embedded.source, EMBEDDED);
    assert!(embedded.files > 50, "{embedded:?}");
    assert_eq!(
        (embedded.files, &embedded.digest),
        (dir.files, &dir.digest),
        "the binary's corpus differs from conformance/cases: rebuild (build.rs should have made cargo do it)"
    );
}

#[test]
fn the_embedded_fixtures_are_the_repositorys() {
    let dir = Provenance::of_dir(&default_fixtures_dir(), "mg").expect("the repository's fixtures");
    let embedded = embedded::fixtures_provenance();
    assert_eq!((embedded.files, &embedded.digest), (dir.files, &dir.digest));
    let written = FixtureDir::write().expect("written to a temporary directory");
    let again = Provenance::of_dir(written.path(), "mg").expect("readable");
    assert_eq!(again.digest, dir.digest);
    let path = written.path().to_path_buf();
    drop(written);
    assert!(!path.exists(), "the temporary fixture directory is removed when dropped");
}

#[test]
fn the_embedded_corpus_loads_to_the_same_cases_as_the_directory() {
    let a = load_embedded_corpus();
    let b = load_corpus(&default_cases_dir());
    assert!(a.errors.is_empty(), "{:#?}", a.errors);
    assert_eq!(a.provenance.digest, b.provenance.digest);
    let ids = |c: &cal_conformance::Corpus| c.cases.iter().map(|c| c.id.clone()).collect::<Vec<_>>();
    assert_eq!(ids(&a), ids(&b));
    // Every case the same but for the file its origin names.
    let same = |c: &cal_conformance::Case| {
        let mut c = c.clone();
        c.origin.file = std::path::PathBuf::new();
        format!("{c:?}")
    };
    let differ = a.cases.iter().zip(&b.cases).filter(|(x, y)| same(x) != same(y)).count();
    assert_eq!(differ, 0);
    assert!(a.cases[0].origin.file.starts_with("conformance/cases"), "{:?}", a.cases[0].origin);
}

#[test]
fn a_digest_depends_on_every_path_and_every_byte() {
    let one = Provenance::of("x", vec![("a.json".into(), [1; 32]), ("b.json".into(), [2; 32])]);
    let order = Provenance::of("y", vec![("b.json".into(), [2; 32]), ("a.json".into(), [1; 32])]);
    let renamed = Provenance::of("x", vec![("a.json".into(), [1; 32]), ("c.json".into(), [2; 32])]);
    let changed = Provenance::of("x", vec![("a.json".into(), [1; 32]), ("b.json".into(), [3; 32])]);
    assert_eq!(one.digest, order.digest, "the file order does not matter");
    assert_ne!(one.digest, renamed.digest);
    assert_ne!(one.digest, changed.digest);
    assert!(one.digest.starts_with("sha256:") && one.digest.len() == 71);
    assert_eq!(one.short_digest().len(), 19);
}
