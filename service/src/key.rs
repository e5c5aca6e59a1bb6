//! The server key that signs capability tokens: 32 random bytes in a file
//! only its owner can read.
//!
//! Whoever reads the key can mint any token, so the file is created with mode
//! 0600, never overwritten, and refused when others can read it (the rule
//! ssh applies to private keys).

use std::io::Write;
use std::path::Path;

/// Bytes in a server key.
pub const KEY_LEN: usize = 32;

/// A server key.
#[derive(Clone, PartialEq, Eq)]
pub struct ServerKey([u8; KEY_LEN]);

impl std::fmt::Debug for ServerKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ServerKey(…)") // never print the secret
    }
}

/// Why a key file could not be made or read.
#[derive(Debug)]
pub enum KeyError {
    /// The file could not be created, read or written.
    Io(std::io::Error),
    /// The file exists already (`key new` never overwrites).
    Exists,
    /// The file does not hold exactly 32 bytes.
    WrongLength(usize),
    /// Others than the owner may read or write it.
    TooOpen(u32),
    /// The system has no randomness to offer.
    NoRandomness(String),
}

impl std::fmt::Display for KeyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            KeyError::Io(e) => write!(f, "{e}"),
            KeyError::Exists => f.write_str("the file exists already; a key is never overwritten"),
            KeyError::WrongLength(n) => write!(f, "a key file holds exactly {KEY_LEN} bytes, this one {n}"),
            KeyError::TooOpen(mode) => write!(
                f,
                "the key file's mode is {mode:o}: others may read it, so any of them could mint tokens (chmod 600 it)"
            ),
            KeyError::NoRandomness(e) => write!(f, "no randomness available: {e}"),
        }
    }
}

impl std::error::Error for KeyError {}

impl ServerKey {
    /// A key from its bytes (tests, embedders that keep keys elsewhere).
    pub fn from_bytes(bytes: [u8; KEY_LEN]) -> Self {
        ServerKey(bytes)
    }

    /// A fresh random key.
    pub fn generate() -> Result<Self, KeyError> {
        let mut b = [0u8; KEY_LEN];
        getrandom::fill(&mut b).map_err(|e| KeyError::NoRandomness(e.to_string()))?;
        Ok(ServerKey(b))
    }

    /// A key for another purpose derived from this one (HMAC-SHA256 of `label`), so that one
    /// secret file serves token signatures and, say, audit pseudonyms without reusing the key.
    pub fn derive(&self, label: &str) -> Vec<u8> {
        use hmac::Mac;
        let mut mac = hmac::Hmac::<sha2::Sha256>::new_from_slice(&self.0).expect("HMAC takes any key length");
        mac.update(label.as_bytes());
        mac.finalize().into_bytes().to_vec()
    }

    /// The key's bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.0
    }

    /// Creates `path` with a fresh key, mode 0600; refuses an existing file.
    pub fn create(path: &Path) -> Result<Self, KeyError> {
        let key = ServerKey::generate()?;
        let mut opts = std::fs::OpenOptions::new();
        opts.write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut opts, 0o600);
        let mut f = opts.open(path).map_err(|e| match e.kind() {
            std::io::ErrorKind::AlreadyExists => KeyError::Exists,
            _ => KeyError::Io(e),
        })?;
        f.write_all(&key.0).and_then(|()| f.sync_all()).map_err(KeyError::Io)?;
        Ok(key)
    }

    /// Reads the key in `path`: exactly 32 bytes, readable by its owner only.
    pub fn load(path: &Path) -> Result<Self, KeyError> {
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(path).map_err(KeyError::Io)?.permissions().mode() & 0o777;
            if mode & 0o077 != 0 {
                return Err(KeyError::TooOpen(mode));
            }
        }
        let bytes = std::fs::read(path).map_err(KeyError::Io)?;
        let arr: [u8; KEY_LEN] = bytes.as_slice().try_into().map_err(|_| KeyError::WrongLength(bytes.len()))?;
        Ok(ServerKey(arr))
    }
}
