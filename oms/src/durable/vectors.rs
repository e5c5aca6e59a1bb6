//! The semantic side of a durable store: the embedder setting and one vector per grain and
//! model. Vectors are index-layer data (OMS §5.6): they are derived from grains, never part of
//! one, and a grain's blob and address are the same with or without them.
//!
//! Each vector is stored with the identity of the model that made it (`model@dimensions`),
//! so that vectors of another model are never mixed into a search: a changed embedder finds
//! none of its own and backfills (`cal store embed`).

use rusqlite::{OptionalExtension, params};

use super::read::load;
use super::{DurableStore, db_error, rows};
use crate::address::ContentAddress;
use crate::error::Result;
use crate::store::Stored;
use crate::store::indexes::Id;
use crate::store::stored;

/// A stored vector with what a search filters on.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredVector {
    /// The grain's content address.
    pub address: ContentAddress,
    /// The grain type's byte.
    pub grain_type: u8,
    /// The grain's namespace ("" when none).
    pub namespace: String,
    /// The vector, as the model made it.
    pub vector: Vec<f32>,
}

/// A grain still to be embedded, with its position for resuming.
#[derive(Debug, Clone)]
pub struct Unembedded {
    /// The grain's row, increasing: a backfill resumes after the last one it stored.
    pub row: i64,
    /// The grain.
    pub grain: Stored,
}

/// Whether an error is a table a read-only older store does not have.
fn missing_table(e: &rusqlite::Error) -> bool {
    matches!(e, rusqlite::Error::SqliteFailure(_, Some(m)) if m.starts_with("no such table"))
}

fn to_bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn from_bytes(b: &[u8]) -> Option<Vec<f32>> {
    b.len().is_multiple_of(4).then(|| b.chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect())
}

impl DurableStore {
    /// A store setting (`None` when never set, or in an older store without settings).
    pub fn setting(&self, name: &str) -> Result<Option<String>> {
        let conn = self.conn();
        match conn.query_row("SELECT value FROM settings WHERE name = ?1", params![name], |r| r.get(0)).optional() {
            Ok(v) => Ok(v),
            Err(e) if missing_table(&e) => Ok(None),
            Err(e) => Err(db_error(e)),
        }
    }

    /// Sets a store setting, durably, with an audit entry saying who changed what.
    pub fn set_setting(&self, name: &str, value: &str, audit: &serde_json::Value) -> Result<()> {
        self.writable()?;
        self.transaction(|tx| {
            tx.tx
                .execute(
                    "INSERT INTO settings (name, value) VALUES (?1, ?2) \
                     ON CONFLICT (name) DO UPDATE SET value = excluded.value",
                    params![name, value],
                )
                .map_err(db_error)?;
            tx.append_audit(audit)
        })
    }

    /// Each model identity with how many vectors the store holds for it, by identity.
    pub fn vector_models(&self) -> Result<Vec<(String, u64)>> {
        let conn = self.conn();
        let mut stmt = match conn.prepare("SELECT model, COUNT(*) FROM vectors GROUP BY model ORDER BY model") {
            Ok(s) => s,
            Err(e) if missing_table(&e) => return Ok(Vec::new()),
            Err(e) => return Err(db_error(e)),
        };
        let rows = stmt.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?))).map_err(db_error)?;
        let mut out = Vec::new();
        for row in rows {
            let (model, n) = row.map_err(db_error)?;
            out.push((model, u64::try_from(n).unwrap_or(0)));
        }
        Ok(out)
    }

    /// Every vector made by `model` (an identity, `name@dimensions`), by grain row.
    pub fn vectors(&self, model: &str) -> Result<Vec<StoredVector>> {
        let conn = self.conn();
        let sql = "SELECT g.address, v.type, v.namespace, v.vector FROM vectors v \
                   JOIN grains g ON g.id = v.grain_id WHERE v.model = ?1 ORDER BY v.grain_id";
        let mut stmt = match conn.prepare(sql) {
            Ok(s) => s,
            Err(e) if missing_table(&e) => return Ok(Vec::new()),
            Err(e) => return Err(db_error(e)),
        };
        let rows = stmt
            .query_map(params![model], |r| {
                Ok((r.get::<_, Vec<u8>>(0)?, r.get::<_, i64>(1)?, r.get::<_, String>(2)?, r.get::<_, Vec<u8>>(3)?))
            })
            .map_err(db_error)?;
        let mut out = Vec::new();
        for row in rows {
            let (address, grain_type, namespace, vector) = row.map_err(db_error)?;
            let address: [u8; 32] = address.try_into().map_err(|_| rows::damaged("a grain address"))?;
            let vector = from_bytes(&vector).ok_or_else(|| rows::damaged("a stored vector"))?;
            let grain_type = u8::try_from(grain_type).map_err(|_| rows::damaged("a stored vector's grain type"))?;
            out.push(StoredVector { address: ContentAddress::from_bytes(address), grain_type, namespace, vector });
        }
        Ok(out)
    }

    /// Up to `limit` grains after row `after` that have no vector of `model`, in row order: a
    /// backfill takes them a batch at a time and, interrupted, resumes where it stopped.
    pub fn unembedded(&self, model: &str, after: i64, limit: usize) -> Result<Vec<Unembedded>> {
        let conn = self.snapshot()?;
        let sql = "SELECT g.id FROM grains g WHERE g.id > ?1 AND NOT EXISTS \
                   (SELECT 1 FROM vectors v WHERE v.model = ?2 AND v.grain_id = g.id) ORDER BY g.id LIMIT ?3";
        let ids: Vec<i64> = match conn.prepare(sql) {
            Ok(mut stmt) => stmt
                .query_map(params![after, model, i64::try_from(limit).unwrap_or(i64::MAX)], |r| r.get(0))
                .map_err(db_error)?
                .collect::<rusqlite::Result<_>>()
                .map_err(db_error)?,
            Err(e) if missing_table(&e) => {
                let mut stmt =
                    conn.prepare("SELECT id FROM grains WHERE id > ?1 ORDER BY id LIMIT ?2").map_err(db_error)?;
                stmt.query_map(params![after, i64::try_from(limit).unwrap_or(i64::MAX)], |r| r.get(0))
                    .map_err(db_error)?
                    .collect::<rusqlite::Result<_>>()
                    .map_err(db_error)?
            }
            Err(e) => return Err(db_error(e)),
        };
        let ids: Vec<Id> = ids
            .into_iter()
            .map(|i| Id::try_from(i).map_err(|_| rows::damaged("a grain row")))
            .collect::<Result<_>>()?;
        Ok(load(&conn, &ids)?.into_iter().map(|(id, r)| Unembedded { row: i64::from(id), grain: stored(&r) }).collect())
    }

    /// Stores vectors of `model` for grains (replacing one it already has), in one durable
    /// transaction; grains the store does not hold are skipped. The answer is how many were stored.
    pub fn put_vectors(&self, model: &str, vectors: &[(ContentAddress, u8, String, Vec<f32>)]) -> Result<usize> {
        self.writable()?;
        self.transaction(|tx| {
            let mut stored = 0;
            let mut find = tx.tx.prepare_cached("SELECT id FROM grains WHERE address = ?1").map_err(db_error)?;
            let mut put = tx
                .tx
                .prepare_cached(
                    "INSERT INTO vectors (grain_id, model, type, namespace, vector) VALUES (?1, ?2, ?3, ?4, ?5) \
                     ON CONFLICT (model, grain_id) DO UPDATE SET vector = excluded.vector",
                )
                .map_err(db_error)?;
            for (address, grain_type, namespace, vector) in vectors {
                let Some(id) =
                    find.query_row([&address.as_bytes()[..]], |r| r.get::<_, i64>(0)).optional().map_err(db_error)?
                else {
                    continue;
                };
                put.execute(params![id, model, i64::from(*grain_type), namespace, to_bytes(vector)])
                    .map_err(db_error)?;
                stored += 1;
            }
            Ok(stored)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vectors_round_trip_through_bytes() {
        let v = vec![0.25f32, -1.5, 3.0e-7, f32::MAX];
        assert_eq!(from_bytes(&to_bytes(&v)), Some(v));
        assert_eq!(from_bytes(&[0, 1, 2]), None);
    }
}
