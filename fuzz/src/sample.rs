//! A small `.mg` file with the demo memory's variety, for the targets that damage whole files
//! and stores (`mg_file`, `durable_open`). The whole demo memory holds hundreds of grains, and
//! every input re-reads, re-verifies and re-indexes all of them, though a damaged byte lands in
//! one: those targets ran at 52 and 169 executions a second (fuzz/README.md, third campaign).
//! This sample keeps what makes the file interesting to damage — every grain type, bare and
//! signed entries, the manifest's index state with the supersessions it records, the grains the
//! `durable_open` queries find — in a few dozen grains.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

use cal_interp::demo::DEMO_MG;
use oms::ContentAddress;
use oms::mg::{Manifest, MgFile, PackOptions, entry_grain, entry_info, pack};

/// Grains of each (type, signed) kind taken, in file order.
const PER_KIND: usize = 1;
/// Manifest entries (with the grains they name) taken, in address order.
const MANIFEST_ENTRIES: usize = 4;
/// Grains taken for each `durable_open` query (the subject `alice`, the words `dark mode`).
const PER_QUERY: usize = 2;

/// The sample, as a `.mg` file with its index manifest (built once per process).
pub fn demo_sample() -> &'static [u8] {
    static SAMPLE: OnceLock<Vec<u8>> = OnceLock::new();
    SAMPLE.get_or_init(build)
}

fn build() -> Vec<u8> {
    let file = MgFile::open(DEMO_MG).expect("the demo memory opens");
    let entries: Vec<&[u8]> = file.entries().map(|e| e.expect("a demo entry")).collect();
    let addresses: Vec<ContentAddress> =
        entries.iter().map(|e| entry_info(e).expect("a demo entry has a blob").address).collect();
    let manifest = file.manifest().cloned().unwrap_or_default();

    let mut keep: BTreeSet<ContentAddress> = BTreeSet::new();
    let mut kinds: BTreeMap<(String, bool), usize> = BTreeMap::new();
    let (mut alice, mut dark) = (0, 0);
    for (e, a) in entries.iter().zip(&addresses) {
        let signed = entry_info(e).is_ok_and(|i| i.signed);
        // An entry that does not decode here (an encrypted grain) is a kind of its own.
        let (kind, wanted) = match entry_grain(e) {
            Ok(grain) => {
                let is_alice = grain.get_str("subject") == Some("alice") && alice < PER_QUERY;
                let is_dark = format!("{:?}", grain.fields()).to_lowercase().contains("dark mode") && dark < PER_QUERY;
                alice += usize::from(is_alice);
                dark += usize::from(is_dark);
                (format!("{:?}", grain.grain_type()), is_alice || is_dark)
            }
            Err(_) => ("undecoded".to_owned(), false),
        };
        let seen = kinds.entry((kind, signed)).or_default();
        if *seen < PER_KIND || wanted {
            *seen += 1;
            keep.insert(*a);
        }
    }
    for (a, st) in manifest.iter().take(MANIFEST_ENTRIES) {
        keep.insert(*a);
        keep.extend(st.superseded_by);
    }
    let sample: Manifest = manifest
        .into_iter()
        .filter(|(a, st)| keep.contains(a) && st.superseded_by.is_none_or(|b| keep.contains(&b)))
        .collect();
    let kept = entries.iter().zip(&addresses).filter(|(_, a)| keep.contains(a)).map(|(e, _)| *e);
    let bytes = pack(kept, Some(&sample), &PackOptions::default()).expect("the sample packs");
    assert!(oms::mg::verify(&bytes).is_ok(), "the sample verifies");
    bytes
}
