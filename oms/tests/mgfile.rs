//! `.mg` containers: pack/open round trips, flags, manifest, compression,
//! random access, tamper detection at every byte, and wire framing.

use std::io::Cursor;

use ed25519_dalek::SigningKey;
use oms::cose::sign_grain;
use oms::mg::{self, IndexState, Manifest, MgFile, PackOptions, pack, read_entry_at, verify};
use oms::{ContentAddress, Grain};

fn grain(i: u64) -> Grain {
    Grain::from_json_str(&format!(
        r#"{{"type":"belief","subject":"s{i}","relation":"r","object":"o{i}","confidence":0.5,
        "created_at":{},"namespace":"ns"}}"#,
        1_700_000_000_000u64 - i * 1000
    ))
    .unwrap()
}

fn blobs(n: u64) -> Vec<Vec<u8>> {
    (0..n).map(|i| grain(i).encode().unwrap().bytes).collect()
}

fn refs(v: &[Vec<u8>]) -> Vec<&[u8]> {
    v.iter().map(Vec::as_slice).collect()
}

#[test]
fn pack_and_open_round_trip() {
    let b = blobs(5);
    let file = pack(refs(&b), None, &PackOptions::default()).unwrap();
    assert_eq!(&file[..3], b"MG\x01");
    assert_eq!(&file[4..8], &5u32.to_be_bytes());
    let f = MgFile::open(&file).unwrap();
    assert_eq!(f.len(), 5);
    for (i, blob) in b.iter().enumerate() {
        assert_eq!(f.entry(i).unwrap(), blob.as_slice());
    }
    assert!(f.manifest().is_none());
    let report = verify(&file);
    assert!(report.is_ok(), "{report:?}");
    assert_eq!(report.entries.len(), 5);
    // The §11.4 snippet: offsets index the file directly.
    let off = u32::from_be_bytes(file[16 + 8..16 + 12].try_into().unwrap()) as usize;
    let next = u32::from_be_bytes(file[16 + 12..16 + 16].try_into().unwrap()) as usize;
    assert_eq!(&file[off..next], b[2].as_slice());
}

#[test]
fn empty_file() {
    let file = pack(Vec::<&[u8]>::new(), None, &PackOptions::default()).unwrap();
    assert_eq!(file.len(), 16 + 32);
    assert!(MgFile::open(&file).unwrap().is_empty());
    assert!(verify(&file).is_ok());
}

#[test]
fn sorted_and_deduplicated() {
    let mut b = blobs(4);
    b.push(b[1].clone());
    let file = pack(refs(&b), None, &PackOptions { sort: true, dedup: true, ..PackOptions::default() }).unwrap();
    assert_eq!(file[3] & 0b11, 0b11);
    let f = MgFile::open(&file).unwrap();
    assert_eq!(f.len(), 4);
    let created: Vec<i64> =
        (0..4).map(|i| mg::entry_grain(f.entry(i).unwrap()).unwrap().created_at().unwrap()).collect();
    assert!(created.windows(2).all(|w| w[0] <= w[1]));
    assert!(verify(&file).is_ok());
    // Setting the sorted flag on an unsorted file is reported.
    let mut lie = pack(refs(&b), None, &PackOptions::default()).unwrap();
    lie[3] |= mg::FLAG_SORTED | mg::FLAG_DEDUPLICATED;
    refooter(&mut lie);
    let r = verify(&lie);
    assert!(!r.is_ok());
    assert_eq!(r.errors.len(), 2, "{:?}", r.errors);
}

fn refooter(file: &mut Vec<u8>) {
    let n = file.len() - 32;
    file.truncate(n);
    let d = ContentAddress::of(file);
    file.extend_from_slice(d.as_bytes());
}

fn manifest_for(b: &[Vec<u8>]) -> Manifest {
    let a0 = ContentAddress::of(&b[0]);
    let a1 = ContentAddress::of(&b[1]);
    let mut m = Manifest::new();
    m.insert(
        a0,
        IndexState { superseded_by: Some(a1), system_valid_to: Some(1_737_000_000_000), ..IndexState::default() },
    );
    m.insert(
        a1,
        IndexState {
            verification_status: Some("verified".into()),
            access_count: Some(42),
            last_accessed_at: Some(1_737_500_000_000),
            ..IndexState::default()
        },
    );
    m.insert(ContentAddress::of(&b[2]), IndexState::default());
    m
}

#[test]
fn manifest_round_trip_plain_and_compressed() {
    let b = blobs(3);
    let m = manifest_for(&b);
    for compress in [false, true] {
        let file = pack(refs(&b), Some(&m), &PackOptions { compress, ..PackOptions::default() }).unwrap();
        assert_ne!(file[3] & mg::FLAG_MANIFEST, 0);
        let f = MgFile::open(&file).unwrap();
        let got = f.manifest().unwrap();
        assert_eq!(got.len(), 2, "default entries are left out");
        assert_eq!(got[&ContentAddress::of(&b[0])], m[&ContentAddress::of(&b[0])]);
        assert_eq!(got[&ContentAddress::of(&b[1])].access_count, Some(42));
        for (i, blob) in b.iter().enumerate() {
            assert_eq!(f.entry(i).unwrap(), blob.as_slice());
        }
        // The format carries the claim "b0 is superseded by b1", but b1 does not derive
        // from b0, so verify judges the claim unfounded (spec-decisions-oms.md S13).
        let report = verify(&file);
        assert!(report.checksum_ok && report.entries.iter().all(|e| e.error.is_none()));
        assert_eq!(report.errors.iter().map(|e| e.code()).collect::<Vec<_>>(), ["ERR_SCHEMA"]);
        // The last grain of an uncompressed file with a manifest, read at random.
        assert_eq!(read_entry_at(&mut Cursor::new(&file), 2).unwrap(), b[2]);
    }
    // A manifest entry for a grain that is not in the file is refused.
    let mut bad = Manifest::new();
    bad.insert(
        ContentAddress::of(b"nope"),
        IndexState { verification_status: Some("verified".into()), ..IndexState::default() },
    );
    assert_eq!(pack(refs(&b), Some(&bad), &PackOptions::default()).unwrap_err().code(), "ERR_SCHEMA");
}

#[test]
fn compressed_files_are_smaller_and_equivalent() {
    let b = blobs(200);
    let plain = pack(refs(&b), None, &PackOptions::default()).unwrap();
    let z = pack(refs(&b), None, &PackOptions { compress: true, ..PackOptions::default() }).unwrap();
    assert!(z.len() < plain.len() / 2, "{} vs {}", z.len(), plain.len());
    assert_eq!(z[9], mg::CODEC_ZSTD);
    let f = MgFile::open(&z).unwrap();
    assert_eq!(f.entry(137).unwrap(), b[137].as_slice());
    assert_eq!(read_entry_at(&mut Cursor::new(&z), 199).unwrap(), b[199]);
    assert!(verify(&z).is_ok());
}

#[test]
fn random_access_reads_only_what_it_needs() {
    let b = blobs(50);
    let file = pack(refs(&b), None, &PackOptions::default()).unwrap();
    for i in [0, 17, 49] {
        let mut c = CountingReader { inner: Cursor::new(&file), read: 0 };
        assert_eq!(read_entry_at(&mut c, i).unwrap(), b[i]);
        assert!(c.read <= 16 + 8 + b[i].len(), "read {} bytes for grain {i}", c.read);
    }
    assert!(read_entry_at(&mut Cursor::new(&file), 50).is_err());
}

struct CountingReader<R> {
    inner: R,
    read: usize,
}

impl<R: std::io::Read> std::io::Read for CountingReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read += n;
        Ok(n)
    }
}

impl<R: std::io::Seek> std::io::Seek for CountingReader<R> {
    fn seek(&mut self, pos: std::io::SeekFrom) -> std::io::Result<u64> {
        self.inner.seek(pos)
    }
}

#[test]
fn every_tampered_byte_is_detected() {
    let b = blobs(3);
    let m = manifest_for(&b);
    for compress in [false, true] {
        let file = pack(refs(&b), Some(&m), &PackOptions { compress, ..PackOptions::default() }).unwrap();
        for i in 0..file.len() {
            let mut t = file.clone();
            t[i] ^= 0x01;
            let r = verify(&t);
            assert!(!r.is_ok(), "flipping byte {i} went unnoticed");
        }
        assert!(!verify(&file[..file.len() - 1]).is_ok());
    }
}

#[test]
fn grain_level_damage_is_reported_per_grain_even_with_a_valid_footer() {
    let b = blobs(3);
    let mut file = pack(refs(&b), None, &PackOptions::default()).unwrap();
    let off = u32::from_be_bytes(file[20..24].try_into().unwrap()) as usize;
    file[off + 12] ^= 0x20; // inside grain 1's payload
    refooter(&mut file);
    let r = verify(&file);
    assert!(r.checksum_ok);
    assert!(r.entries[0].error.is_none() && r.entries[2].error.is_none());
    assert!(r.entries[1].error.is_some());
}

#[test]
fn structural_errors() {
    let b = blobs(2);
    let file = pack(refs(&b), None, &PackOptions::default()).unwrap();
    let open_err = |f: &[u8]| MgFile::open(f).map(|_| ()).unwrap_err();
    let mut v = file.clone();
    v[2] = 2;
    refooter(&mut v);
    assert_eq!(open_err(&v).code(), "ERR_VERSION");
    let mut magic = file.clone();
    magic[0] = b'X';
    refooter(&mut magic);
    assert_eq!(open_err(&magic).code(), "ERR_CORRUPT");
    let mut lz4 = file.clone();
    lz4[3] |= mg::FLAG_COMPRESSED;
    lz4[9] = mg::CODEC_LZ4;
    refooter(&mut lz4);
    assert_eq!(open_err(&lz4).code(), "ERR_UNSUPPORTED");
    let mut count = file.clone();
    count[7] = 200;
    refooter(&mut count);
    assert_eq!(open_err(&count).code(), "ERR_CORRUPT");
    let mut off = file.clone();
    off[16 + 3] += 1;
    refooter(&mut off);
    assert_eq!(open_err(&off).code(), "ERR_CORRUPT");
    // A shifted boundary between grains opens, but both grains fail to decode.
    let mut shifted = file.clone();
    shifted[16 + 7] += 1;
    refooter(&mut shifted);
    let r = verify(&shifted);
    assert!(r.entries.iter().all(|e| e.error.is_some()), "{r:?}");
    assert_eq!(open_err(&file[..20]).code(), "ERR_CORRUPT");
    assert_eq!(open_err(&file[..5]).code(), "ERR_TOO_SHORT");
    let mut reserved = file.clone();
    reserved[12] = 1;
    refooter(&mut reserved);
    assert_eq!(open_err(&reserved).code(), "ERR_CORRUPT");
}

#[test]
fn signed_grains_are_stored_as_envelopes_and_verified() {
    let k = SigningKey::from_bytes(&[9; 32]);
    let s = sign_grain(&grain(1), &k, Some(1)).unwrap();
    let plain = grain(2).encode().unwrap().bytes;
    let file = pack(vec![s.cose.as_slice(), plain.as_slice()], None, &PackOptions::default()).unwrap();
    let r = verify(&file);
    assert!(r.is_ok(), "{r:?}");
    assert!(r.entries[0].signed && r.entries[0].signer.is_some());
    assert_eq!(r.entries[0].address, Some(s.address));
    // A forged signature inside an otherwise consistent file is reported.
    let mut forged = s.cose.clone();
    let n = forged.len();
    forged[n - 1] ^= 1;
    let file = pack(vec![forged.as_slice(), plain.as_slice()], None, &PackOptions::default()).unwrap();
    let r = verify(&file);
    assert_eq!(r.entries[0].error.as_ref().unwrap().code(), "ERR_SIGNATURE");
    assert!(r.entries[1].error.is_none());
}

#[test]
fn invalid_grains_are_not_packed() {
    let mut bad = blobs(1).remove(0);
    bad[3] ^= 1;
    assert_eq!(pack(vec![bad.as_slice()], None, &PackOptions::default()).unwrap_err().code(), "ERR_CORRUPT");
}

#[test]
fn wire_framing() {
    let b = blobs(3);
    let framed = mg::encode_frames(refs(&b)).unwrap();
    assert_eq!(&framed[framed.len() - 4..], &[0, 0, 0, 0]);
    assert_eq!(&framed[..4], &(b[0].len() as u32).to_be_bytes());
    assert_eq!(mg::decode_frames(&framed).unwrap(), b);
    assert_eq!(mg::decode_frames(&framed[..framed.len() - 4]).unwrap_err().code(), "ERR_CORRUPT");
    let mut extra = framed.clone();
    extra.push(0);
    assert_eq!(mg::decode_frames(&extra).unwrap_err().code(), "ERR_CORRUPT");
    let huge = [0xff, 0xff, 0xff, 0xff];
    assert_eq!(mg::decode_frames(&huge).unwrap_err().code(), "ERR_CORRUPT");
    let frames: Vec<_> = mg::FrameReader::with_limit(Cursor::new(&framed), 10).collect();
    assert!(frames[0].is_err());
    assert!(mg::write_frame(&mut Vec::new(), &[]).is_err());
}

/// A decompression bomb: a compressed `.mg` whose one grain region is a small zstd frame that
/// declares (and really holds) 200 MB. The offsets say the region holds one grain starting at
/// the beginning, so it may be at most one grain long: the file is refused before anything is
/// decompressed or allocated (it used to cost 4.2 GB of memory for a 145 KB file).
#[test]
fn a_decompression_bomb_is_refused_before_decompressing() {
    use sha2::Digest as _;
    use std::io::Write as _;
    let opts = PackOptions { compress: true, ..PackOptions::default() };
    let blob = grain(1).encode().unwrap().bytes;
    let honest = pack([blob.as_slice()], None, &opts).unwrap();
    assert!(MgFile::open(&honest).is_ok());
    // Same header and offsets, the frame replaced by the bomb, the footer recomputed.
    let header_and_offsets = 16 + 4; // the file header, then one offset (mg::FILE_HEADER_LEN)
    let declared: u64 = 200 << 20;
    let mut enc = zstd::stream::Encoder::new(Vec::new(), 19).unwrap();
    enc.include_contentsize(true).unwrap();
    enc.set_pledged_src_size(Some(declared)).unwrap();
    let zeros = vec![0u8; 1 << 20];
    for _ in 0..200 {
        enc.write_all(&zeros).unwrap();
    }
    let frame = enc.finish().unwrap();
    assert!(frame.len() < 64 * 1024, "a bomb: {} bytes of frame", frame.len());
    let mut bomb = honest[..header_and_offsets].to_vec();
    bomb.extend_from_slice(&frame);
    let digest = sha2::Sha256::digest(&bomb);
    bomb.extend_from_slice(&digest);
    let e = MgFile::open(&bomb).unwrap_err();
    assert!(e.to_string().contains("refused before decompressing"), "{e}");
    // A ceiling set by the caller applies to an honest file as well.
    let e = MgFile::open_limited(&honest, 16).unwrap_err();
    assert!(e.to_string().contains("limit"), "{e}");
}
