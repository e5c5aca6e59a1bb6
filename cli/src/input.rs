//! Reading the command's input: a file or standard input, always as bytes.

use std::io::Read;
use std::path::PathBuf;

/// Where input comes from, for messages and diagnostics.
pub struct Input {
    /// `<stdin>` or the path as given.
    pub name: String,
    /// The raw bytes.
    pub bytes: Vec<u8>,
}

/// Reads FILE, or standard input when FILE is absent or `-`.
pub fn read(file: Option<&PathBuf>) -> Result<Input, String> {
    match file {
        Some(p) if p.as_os_str() != "-" => std::fs::read(p)
            .map(|bytes| Input { name: p.display().to_string(), bytes })
            .map_err(|e| format!("cannot read {}: {e}", p.display())),
        _ => {
            let mut bytes = Vec::new();
            std::io::stdin().read_to_end(&mut bytes).map_err(|e| format!("cannot read standard input: {e}"))?;
            Ok(Input { name: "<stdin>".into(), bytes })
        }
    }
}
