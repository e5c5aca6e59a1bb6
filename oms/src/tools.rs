//! Helpers behind the `cal mg` command line, kept in the library so the
//! command stays a thin layer: recognising what bytes a user handed over,
//! and rendering results as JSON or text.

use serde_json::{Value as Json, json};

use crate::address::{ContentAddress, hex, unhex};
use crate::cose;
use crate::error::{CorruptReason, OmsError, Result};
use crate::grain::{Blob, Grain, decode};
use crate::json::{map_to_json, parse_json};
use crate::mg::{self, MgReport};

/// What a user-supplied input turned out to be.
#[derive(Debug, Clone, PartialEq)]
pub enum GrainInput {
    /// A grain written as JSON with full field names (not yet encoded).
    Json(Grain),
    /// A bare blob, decoded.
    Blob {
        /// The grain.
        grain: Grain,
        /// The blob bytes.
        bytes: Vec<u8>,
    },
    /// A COSE_Sign1 envelope, verified.
    Signed(Box<cose::Verified>, Vec<u8>),
}

impl GrainInput {
    /// The grain, whatever the form.
    pub fn grain(&self) -> &Grain {
        match self {
            GrainInput::Json(g) => g,
            GrainInput::Blob { grain, .. } => grain,
            GrainInput::Signed(v, _) => &v.grain,
        }
    }

    /// The bytes to store for this input: the envelope for signed grains,
    /// the blob otherwise (JSON grains are encoded).
    pub fn entry_bytes(&self) -> Result<Vec<u8>> {
        match self {
            GrainInput::Json(g) => Ok(g.encode()?.bytes),
            GrainInput::Blob { bytes, .. } => Ok(bytes.clone()),
            GrainInput::Signed(_, cose) => Ok(cose.clone()),
        }
    }

    /// The blob (inner blob for signed grains).
    pub fn blob(&self) -> Result<Blob> {
        match self {
            GrainInput::Json(g) => g.encode(),
            GrainInput::Blob { bytes, .. } => Ok(Blob { address: ContentAddress::of(bytes), bytes: bytes.clone() }),
            GrainInput::Signed(v, _) => Ok(Blob { address: v.address, bytes: v.blob.clone() }),
        }
    }
}

/// Recognises an input: a JSON object (first non-blank byte `{`), a COSE
/// envelope, a bare blob (first byte 0x01), or any of the binary forms
/// written as hex text. `force_hex` treats the input as hex text.
pub fn read_grain_input(bytes: &[u8], force_hex: bool) -> Result<GrainInput> {
    let trimmed = trim(bytes);
    if !force_hex && trimmed.first() == Some(&b'{') {
        let text = std::str::from_utf8(trimmed).map_err(|_| OmsError::corrupt(CorruptReason::InvalidUtf8))?;
        return Ok(GrainInput::Json(Grain::from_json(&parse_json(text)?)?));
    }
    let binary = if force_hex || looks_like_hex(trimmed) {
        let text = std::str::from_utf8(trimmed).map_err(|_| OmsError::corrupt(CorruptReason::InvalidUtf8))?;
        unhex(text).ok_or_else(|| OmsError::corrupt(CorruptReason::Container("input is not valid hex".into())))?
    } else {
        bytes.to_vec()
    };
    if cose::is_cose(&binary) {
        let v = cose::verify(&binary)?;
        return Ok(GrainInput::Signed(Box::new(v), binary));
    }
    let grain = decode(&binary)?;
    Ok(GrainInput::Blob { grain, bytes: binary })
}

fn trim(b: &[u8]) -> &[u8] {
    let start = b.iter().position(|c| !c.is_ascii_whitespace()).unwrap_or(b.len());
    let end = b.iter().rposition(|c| !c.is_ascii_whitespace()).map_or(start, |e| e + 1);
    &b[start..end]
}

fn looks_like_hex(b: &[u8]) -> bool {
    !b.is_empty() && b.iter().all(|c| c.is_ascii_hexdigit() || c.is_ascii_whitespace())
}

/// Parses JSON lines into grains; blank lines are skipped and errors name
/// the line.
pub fn grains_from_jsonl(text: &str) -> Result<Vec<Grain>, (usize, OmsError)> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| parse_json(l).and_then(|j| Grain::from_json(&j)).map_err(|e| (i + 1, e)))
        .collect()
}

/// `{"content_address", "size", "blob_hex"}` for an encoded grain.
pub fn blob_summary(blob: &Blob) -> Json {
    json!({ "content_address": blob.address.to_hex(), "size": blob.bytes.len(), "blob_hex": hex(&blob.bytes) })
}

/// One `unpack` line: the grain, or with `envelope` its address, signature
/// state and manifest entry as well.
pub fn unpack_line(file: &mg::MgFile<'_>, i: usize, envelope: bool) -> Result<Json> {
    let entry = file.entry(i)?;
    if crate::store::sealed::is_sealed_entry(entry) {
        // Encrypted (§20.2): what the clear header says, and the bytes, never a grain.
        let g = crate::store::sealed::parse_sealed(entry)?;
        let mut out = json!({
            "content_address": g.address.to_hex(),
            "encrypted": true,
            "type": g.grain_type.name(),
            "created_at": i64::from(g.created_at_sec) * 1000,
            "ns_hash": format!("{:04x}", g.ns_hash),
            "sensitivity": g.sensitivity.name(),
            "blob_hex": crate::address::hex(g.blob()),
        });
        if envelope {
            out["index"] = i.into();
            out["signed"] = false.into();
            out["grain"] = Json::Null;
        }
        return Ok(out);
    }
    let info = mg::entry_info(entry)?;
    let grain = mg::entry_grain(entry)?;
    if !envelope {
        return Ok(grain.to_json());
    }
    let mut out = json!({
        "index": i,
        "content_address": info.address.to_hex(),
        "signed": info.signed,
        "grain": grain.to_json(),
    });
    if let Some(st) = file.manifest().and_then(|m| m.get(&info.address)) {
        out["index_state"] = json!({
            "superseded_by": st.superseded_by.map(|a| a.to_hex()),
            "system_valid_to": st.system_valid_to,
            "verification_status": st.verification_status,
            "access_count": st.access_count,
            "last_accessed_at": st.last_accessed_at,
            "extra": map_to_json(&st.extra),
        });
    }
    Ok(out)
}

/// The verification report as JSON.
pub fn report_json(r: &MgReport) -> Json {
    json!({
        "ok": r.is_ok(),
        "grains": r.count,
        "flags": r.flags,
        "checksum_ok": r.checksum_ok,
        "manifest_entries": r.manifest_entries,
        "errors": r.errors.iter().map(error_json).collect::<Vec<_>>(),
        "entries": r.entries.iter().map(|e| json!({
            "index": e.index,
            "content_address": e.address.map(|a| a.to_hex()),
            "signed": e.signed,
            "signer": e.signer,
            "error": e.error.as_ref().map(error_json),
        })).collect::<Vec<_>>(),
    })
}

/// The verification report as text: one line per problem, then a summary.
pub fn report_text(r: &MgReport) -> String {
    let mut out = String::new();
    for (index, e) in r.problems() {
        match index {
            Some(i) => out.push_str(&format!("grain {i}: {e}\n")),
            None => out.push_str(&format!("file: {e}\n")),
        }
    }
    let signed = r.entries.iter().filter(|e| e.signed && e.error.is_none()).count();
    out.push_str(&format!(
        "{}: {} grains, checksum {}, {} signatures verified, {} manifest entries, {} problems\n",
        if r.is_ok() { "OK" } else { "FAILED" },
        r.count,
        if r.checksum_ok { "ok" } else { "BAD" },
        signed,
        r.manifest_entries,
        r.problems().len()
    ));
    out
}

/// An error as the JSON object the command line prints.
pub fn error_json(e: &OmsError) -> Json {
    json!({ "code": e.code(), "message": e.to_string() })
}
