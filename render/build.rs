//! Lays out the o200k_base vocabulary as tables the tokenizer reads in place (see
//! `src/o200k/mod.rs`), and enables the `toon_node` cfg when the official TOON implementation can run: `node` on the
//! PATH and `tests/toon-decode/node_modules` installed (`npm ci --prefix
//! render/tests/toon-decode`). Tests that decode our TOON with it are ignored, with that
//! reason, otherwise. Under CI (`CI=true`) the cfg is always on, so a missing node fails
//! the tests instead of skipping them.

use std::path::{Path, PathBuf};
use std::process::Command;

mod hash {
    include!("src/o200k/hash.rs");
}

/// The ranks of o200k_base's special tokens: never part of ordinary text, not in the table.
const SPECIAL: [u32; 2] = [199_999, 200_018];

/// Writes `o200k_tokens.bin` (every token's bytes, in rank order), `o200k_starts.bin` (where
/// each rank's bytes start, one more for the end; little-endian u32) and `o200k_table.bin`
/// (open addressing by `hash::slot`, linear probing; each slot rank + 1, or 0 when empty).
/// The vocabulary is tiktoken-rs's embedded copy of OpenAI's file, the one the counts were
/// taken with before.
fn vocabulary(out: &Path) {
    let bpe = tiktoken_rs::o200k_base().expect("tiktoken-rs embeds o200k_base");
    let mut tokens = Vec::new();
    let mut starts = Vec::new();
    let mut table = vec![0u32; 1 << hash::TABLE_BITS];
    let mask = table.len() - 1;
    for rank in 0..SPECIAL[0] {
        starts.push(u32::try_from(tokens.len()).expect("under 4 GB"));
        let Ok(bytes) = bpe.decode_bytes(&[rank]) else { continue };
        let mut at = hash::slot(&bytes);
        while table[at] != 0 {
            at = (at + 1) & mask;
        }
        table[at] = rank + 1;
        tokens.extend_from_slice(&bytes);
    }
    starts.push(u32::try_from(tokens.len()).expect("under 4 GB"));
    let le = |v: &[u32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    std::fs::write(out.join("o200k_tokens.bin"), &tokens).expect("write OUT_DIR");
    std::fs::write(out.join("o200k_starts.bin"), le(&starts)).expect("write OUT_DIR");
    std::fs::write(out.join("o200k_table.bin"), le(&table)).expect("write OUT_DIR");
}

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=src/o200k/hash.rs");
    vocabulary(&PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR")));
    println!("cargo::rustc-check-cfg=cfg(toon_node)");
    println!("cargo::rerun-if-env-changed=CI");
    println!("cargo::rerun-if-env-changed=PATH");
    println!("cargo::rerun-if-changed=tests/toon-decode/node_modules");
    let ci = std::env::var("CI").is_ok_and(|v| v == "true" || v == "1");
    let node = Command::new("node").arg("--version").output().is_ok_and(|o| o.status.success());
    let installed = Path::new("tests/toon-decode/node_modules/@toon-format/toon").is_dir();
    if ci || (node && installed) {
        println!("cargo::rustc-cfg=toon_node");
    }
}
