//! Full verification of a `.mg` file: checksum, structure, every grain's
//! decoding and address, every signature, the sorted/deduplicated flags, the
//! manifest's references and its claims (judged as `Store::import` judges
//! them: a forged `superseded_by` on a locked grain or a reference to a grain
//! that is not in the file fails), reported precisely rather than stopping
//! at the first failure.

use std::collections::HashSet;

use super::read::MgFile;
use super::{FLAG_DEDUPLICATED, FLAG_SORTED, entry_info};
use crate::address::ContentAddress;
use crate::cose;
use crate::error::{OmsError, Result};
use crate::grain::{Grain, decode};

/// The outcome for one grain.
#[derive(Debug, Clone, PartialEq)]
pub struct EntryReport {
    /// Position in the file.
    pub index: usize,
    /// Content address of the inner blob, when it could be extracted.
    pub address: Option<ContentAddress>,
    /// Whether the entry is COSE-signed.
    pub signed: bool,
    /// The verified signer DID, for signed entries that verified.
    pub signer: Option<String>,
    /// What was wrong, if anything.
    pub error: Option<OmsError>,
}

/// The outcome for a whole file.
#[derive(Debug, Clone, PartialEq)]
pub struct MgReport {
    /// Number of grains the header announces.
    pub count: usize,
    /// Header flags.
    pub flags: u8,
    /// Whether the footer checksum matched.
    pub checksum_ok: bool,
    /// Per-grain results.
    pub entries: Vec<EntryReport>,
    /// Number of manifest entries.
    pub manifest_entries: usize,
    /// File-level problems (structure, flags, manifest).
    pub errors: Vec<OmsError>,
}

impl MgReport {
    /// True when nothing at all is wrong.
    pub fn is_ok(&self) -> bool {
        self.checksum_ok && self.errors.is_empty() && self.entries.iter().all(|e| e.error.is_none())
    }

    /// Every problem, file-level first, each with its grain index if any.
    pub fn problems(&self) -> Vec<(Option<usize>, &OmsError)> {
        let mut out: Vec<(Option<usize>, &OmsError)> = self.errors.iter().map(|e| (None, e)).collect();
        out.extend(self.entries.iter().filter_map(|e| e.error.as_ref().map(|err| (Some(e.index), err))));
        out
    }
}

fn check_entry(entry: &[u8]) -> (Option<ContentAddress>, bool, Option<String>, Result<Grain>) {
    let signed = cose::is_cose(entry);
    if signed {
        match cose::verify(entry) {
            Ok(v) => (Some(v.address), true, Some(v.signer), Ok(v.grain)),
            Err(e) => (entry_info(entry).ok().map(|i| i.address), true, None, Err(e)),
        }
    } else {
        (Some(ContentAddress::of(entry)), false, None, decode(entry))
    }
}

/// Verifies a file held in memory.
pub fn verify(data: &[u8]) -> MgReport {
    let mut report = MgReport {
        count: 0,
        flags: data.get(3).copied().unwrap_or(0),
        checksum_ok: false,
        entries: Vec::new(),
        manifest_entries: 0,
        errors: Vec::new(),
    };
    let file = match MgFile::open(data) {
        Ok(f) => f,
        Err(e) => {
            report.checksum_ok = !matches!(e, OmsError::Integrity { .. });
            report.errors.push(e);
            return report;
        }
    };
    report.checksum_ok = true;
    report.count = file.len();
    let mut seen = HashSet::new();
    let mut last_created = i64::MIN;
    let mut sorted = true;
    let mut duplicate = None;
    for i in 0..file.len() {
        let entry = match file.entry(i) {
            Ok(e) => e,
            Err(e) => {
                report.entries.push(EntryReport {
                    index: i,
                    address: None,
                    signed: false,
                    signer: None,
                    error: Some(e),
                });
                continue;
            }
        };
        if crate::store::sealed::is_sealed_entry(entry) {
            // Encrypted (§20.2): its address and clear header are all there is to verify.
            let sealed = crate::store::sealed::parse_sealed(entry);
            if let Ok(g) = &sealed {
                if !seen.insert(g.address) && duplicate.is_none() {
                    duplicate = Some(g.address);
                }
                let ca = i64::from(g.created_at_sec) * 1000;
                sorted &= ca >= last_created;
                last_created = ca;
            }
            let address = sealed.as_ref().ok().map(|g| g.address);
            report.entries.push(EntryReport { index: i, address, signed: false, signer: None, error: sealed.err() });
            continue;
        }
        let (address, signed, signer, grain) = check_entry(entry);
        if let Some(a) = address
            && !seen.insert(a)
            && duplicate.is_none()
        {
            duplicate = Some(a);
        }
        let error = match grain {
            Ok(g) => {
                let ca = g.created_at().unwrap_or(0);
                if ca < last_created {
                    sorted = false;
                }
                last_created = ca;
                None
            }
            Err(e) => Some(e),
        };
        report.entries.push(EntryReport { index: i, address, signed, signer, error });
    }
    if file.header().flags & FLAG_SORTED != 0 && !sorted {
        report.errors.push(super::container("sorted flag set but grains are not in created_at order"));
    }
    if file.header().flags & FLAG_DEDUPLICATED != 0
        && let Some(a) = duplicate
    {
        report.errors.push(super::container(format!("deduplicated flag set but {a} occurs twice")));
    }
    if let Some(m) = file.manifest() {
        report.manifest_entries = m.len();
        for a in m.keys() {
            if !seen.contains(a) {
                report.errors.push(OmsError::schema("manifest", format!("entry for {a}, which is not in the file")));
            }
        }
    }
    // The manifest's claims are judged as a load would judge them, once the
    // grains themselves are sound (a load would refuse the file anyway).
    if file.manifest().is_some() && report.is_ok() {
        match crate::store::parse_file(&file) {
            Ok(parsed) => report.errors.extend(crate::store::manifest_problems(&file, parsed)),
            Err(e) => report.errors.push(e),
        }
    }
    report
}
