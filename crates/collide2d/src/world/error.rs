//! [`WorldError`]: why a world call was refused.

use super::handle::ColliderHandle;
use super::layers::{LayerId, MAX_LAYERS};
use super::snapshot;
use crate::broad::BroadPhaseError;
use crate::shape::ShapeError;

/// Why a world call was refused. A refused call leaves the world unchanged.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum WorldError {
    /// The handle names a collider that was removed (or never existed in this world).
    StaleHandle(ColliderHandle),
    /// A transform or offset held a NaN or infinite number.
    NonFiniteTransform,
    /// A position (a transform's, an offset's, or where the two together put the shape, or its
    /// box there) reached beyond ±[`MAX_COORDINATE`](crate::shape::MAX_COORDINATE).
    TransformOutOfRange,
    /// A rotation's `c² + s²` differed from 1 by more than
    /// [`ROTATION_TOLERANCE`](crate::math::ROTATION_TOLERANCE).
    RotationNotUnit,
    /// A number was NaN, infinite or out of range (e.g. a move delta or query box).
    InvalidInput(&'static str),
    /// A one-way direction was zero or not finite, or its margin negative.
    InvalidOneWay,
    /// No layer has this name.
    UnknownLayer(String),
    /// The layer id is not one of this world's layers.
    InvalidLayer(LayerId),
    /// A layer with this name exists already.
    DuplicateLayer(String),
    /// Layer names must not be empty.
    EmptyLayerName,
    /// A world has at most [`MAX_LAYERS`] layers.
    TooManyLayers,
    /// A layer matrix (deserialised or in a snapshot) lets `a` collide with `b` but not `b`
    /// with `a`.
    AsymmetricLayerMatrix,
    /// A snapshot is not the state of any world; the reason says which part.
    CorruptSnapshot(snapshot::SnapshotError),
    /// The broad phase refused a box.
    BroadPhase(BroadPhaseError),
    /// A shape the world was to make (a tile map region's outline or rectangle) could not be
    /// built.
    Shape(ShapeError),
}

impl std::fmt::Display for WorldError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WorldError::StaleHandle(h) => write!(
                f,
                "collider handle {}:{} is stale (removed or from another world)",
                h.index, h.generation
            ),
            WorldError::NonFiniteTransform => write!(f, "transform is not finite"),
            WorldError::TransformOutOfRange => {
                write!(f, "position is beyond ±{:e}", crate::shape::MAX_COORDINATE)
            }
            WorldError::RotationNotUnit => write!(f, "rotation is not unit length"),
            WorldError::InvalidInput(what) => write!(f, "invalid {what}"),
            WorldError::InvalidOneWay => write!(
                f,
                "one-way direction must be a non-zero finite vector and margin finite and >= 0"
            ),
            WorldError::UnknownLayer(name) => write!(f, "no layer is named `{name}`"),
            WorldError::InvalidLayer(id) => write!(f, "layer {} does not exist", id.index()),
            WorldError::DuplicateLayer(name) => write!(f, "a layer named `{name}` exists already"),
            WorldError::EmptyLayerName => write!(f, "layer names must not be empty"),
            WorldError::TooManyLayers => write!(f, "a world has at most {MAX_LAYERS} layers"),
            WorldError::AsymmetricLayerMatrix => write!(f, "the layer matrix is not symmetric"),
            WorldError::CorruptSnapshot(reason) => write!(f, "corrupt snapshot: {reason}"),
            WorldError::BroadPhase(e) => write!(f, "broad phase: {e}"),
            WorldError::Shape(e) => write!(f, "shape: {e}"),
        }
    }
}

impl std::error::Error for WorldError {}

impl From<ShapeError> for WorldError {
    fn from(e: ShapeError) -> Self {
        WorldError::Shape(e)
    }
}

impl From<BroadPhaseError> for WorldError {
    fn from(e: BroadPhaseError) -> Self {
        WorldError::BroadPhase(e)
    }
}
