//! Grain types (OMS §3.1.1 byte 2, §8): the ten standard types, the `fact`
//! alias for Belief, and the type bytes OMS reserves for the future (0x0B–0xEF)
//! or leaves to domain profiles (0xF0–0xFF).

use crate::error::{OmsError, Result};

/// The cognitive type of a grain, as carried in header byte 2.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GrainType {
    /// 0x01: a (subject, relation, object) belief; payload name `belief` or `fact`.
    Belief,
    /// 0x02: a timestamped occurrence.
    Event,
    /// 0x03: an agent state snapshot.
    State,
    /// 0x04: a learned action sequence.
    Workflow,
    /// 0x05: a tool invocation or code execution.
    Action,
    /// 0x06: raw sensory or cognitive input.
    Observation,
    /// 0x07: an objective with lifecycle semantics.
    Goal,
    /// 0x08: an inference chain.
    Reasoning,
    /// 0x09: a multi-agent agreement record.
    Consensus,
    /// 0x0A: a permission grant or withdrawal.
    Consent,
    /// A reserved (0x0B–0xEF) or domain-profile (0xF0–0xFF) type byte, read as
    /// an opaque map without schema validation (§19.4).
    Other(u8),
}

/// The ten standard types in type-byte order.
pub const STANDARD_TYPES: [GrainType; 10] = [
    GrainType::Belief,
    GrainType::Event,
    GrainType::State,
    GrainType::Workflow,
    GrainType::Action,
    GrainType::Observation,
    GrainType::Goal,
    GrainType::Reasoning,
    GrainType::Consensus,
    GrainType::Consent,
];

impl GrainType {
    /// The header type byte.
    pub fn byte(self) -> u8 {
        match self {
            GrainType::Belief => 0x01,
            GrainType::Event => 0x02,
            GrainType::State => 0x03,
            GrainType::Workflow => 0x04,
            GrainType::Action => 0x05,
            GrainType::Observation => 0x06,
            GrainType::Goal => 0x07,
            GrainType::Reasoning => 0x08,
            GrainType::Consensus => 0x09,
            GrainType::Consent => 0x0A,
            GrainType::Other(b) => b,
        }
    }

    /// The type for a header byte. 0x00 is not a type byte (Appendix B) and
    /// fails with `ERR_UNKNOWN_TYPE`; 0x0B–0xFF read as [`GrainType::Other`].
    pub fn from_byte(b: u8) -> Result<Self> {
        Ok(match b {
            0x01 => GrainType::Belief,
            0x02 => GrainType::Event,
            0x03 => GrainType::State,
            0x04 => GrainType::Workflow,
            0x05 => GrainType::Action,
            0x06 => GrainType::Observation,
            0x07 => GrainType::Goal,
            0x08 => GrainType::Reasoning,
            0x09 => GrainType::Consensus,
            0x0A => GrainType::Consent,
            0x00 => return Err(OmsError::UnknownType { found: "type byte 0x00".into() }),
            other => GrainType::Other(other),
        })
    }

    /// The type for a payload type name (`fact` is an alias of `belief`).
    /// Returns `None` for names that are not standard.
    pub fn from_name(name: &str) -> Option<Self> {
        Some(match name {
            "belief" | "fact" => GrainType::Belief,
            "event" => GrainType::Event,
            "state" => GrainType::State,
            "workflow" => GrainType::Workflow,
            "action" => GrainType::Action,
            "observation" => GrainType::Observation,
            "goal" => GrainType::Goal,
            "reasoning" => GrainType::Reasoning,
            "consensus" => GrainType::Consensus,
            "consent" => GrainType::Consent,
            _ => return None,
        })
    }

    /// The canonical payload name of a standard type; `None` for `Other`.
    pub fn name(self) -> Option<&'static str> {
        Some(match self {
            GrainType::Belief => "belief",
            GrainType::Event => "event",
            GrainType::State => "state",
            GrainType::Workflow => "workflow",
            GrainType::Action => "action",
            GrainType::Observation => "observation",
            GrainType::Goal => "goal",
            GrainType::Reasoning => "reasoning",
            GrainType::Consensus => "consensus",
            GrainType::Consent => "consent",
            GrainType::Other(_) => return None,
        })
    }

    /// Whether this is one of the ten standard types (schema-validated).
    pub fn is_standard(self) -> bool {
        !matches!(self, GrainType::Other(_))
    }

    /// Whether the byte is in the domain-profile range 0xF0–0xFF.
    pub fn is_domain_profile(self) -> bool {
        matches!(self, GrainType::Other(b) if b >= 0xF0)
    }
}
