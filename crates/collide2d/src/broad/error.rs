//! The error returned by broad-phase operations.

use std::fmt;

use crate::broad::ProxyId;
use crate::shape::Aabb;

/// Why a broad-phase operation was refused. The structure is left unchanged.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum BroadPhaseError {
    /// A box corner was NaN or infinite.
    NonFiniteAabb {
        /// The rejected box.
        aabb: Aabb,
    },
    /// A box had `min > max` on some axis.
    InvertedAabb {
        /// The rejected box.
        aabb: Aabb,
    },
    /// The id was removed earlier (its slot's generation moved on).
    StaleProxy {
        /// The rejected id.
        id: ProxyId,
    },
    /// The id's index was never handed out by this broad phase.
    UnknownProxy {
        /// The rejected id.
        id: ProxyId,
    },
    /// A ray had a non-finite origin, a zero or non-finite direction, or a NaN or negative length.
    InvalidRay,
    /// The structure holds as many proxies as it can index.
    TooManyProxies {
        /// The most it can hold.
        limit: usize,
    },
    /// A hash-grid cell size was not finite and positive.
    InvalidCellSize {
        /// The rejected size.
        cell_size: f32,
    },
}

impl fmt::Display for BroadPhaseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            BroadPhaseError::NonFiniteAabb { aabb } => {
                write!(f, "box {aabb:?} has a NaN or infinite corner")
            }
            BroadPhaseError::InvertedAabb { aabb } => {
                write!(f, "box {aabb:?} has min greater than max")
            }
            BroadPhaseError::StaleProxy { id } => write!(f, "{id} was removed"),
            BroadPhaseError::UnknownProxy { id } => {
                write!(f, "{id} was never created by this broad phase")
            }
            BroadPhaseError::InvalidRay => write!(
                f,
                "ray needs a finite origin, a finite non-zero direction and a length >= 0"
            ),
            BroadPhaseError::TooManyProxies { limit } => {
                write!(f, "no room for more proxies (at most {limit})")
            }
            BroadPhaseError::InvalidCellSize { cell_size } => {
                write!(
                    f,
                    "cell size {cell_size} must be finite and greater than zero"
                )
            }
        }
    }
}

impl std::error::Error for BroadPhaseError {}

/// Checks that a box may be stored: finite corners, `min <= max` on both axes.
pub(crate) fn check_aabb(aabb: Aabb) -> Result<Aabb, BroadPhaseError> {
    if !aabb.min.is_finite() || !aabb.max.is_finite() {
        Err(BroadPhaseError::NonFiniteAabb { aabb })
    } else if aabb.min.x > aabb.max.x || aabb.min.y > aabb.max.y {
        Err(BroadPhaseError::InvertedAabb { aabb })
    } else {
        Ok(aabb)
    }
}
