//! The error returned by shape constructors.

use std::fmt;

pub use crate::math::MAX_COORDINATE;

/// The farthest from the origin (on either axis) a point of a shape at a
/// [valid](crate::Transform::is_valid) transform can be, rounded up: a translation of
/// [`MAX_COORDINATE`] plus a local point `√2 ·` [`MAX_COORDINATE`] from its origin is within
/// `2.5 ·` [`MAX_COORDINATE`]. World points beyond it (query points, the ends of closed-form
/// sweeps) touch no shape; squares of numbers this size are far from overflowing `f32`.
pub(crate) const MAX_WORLD_COORDINATE: f32 = 4.0 * MAX_COORDINATE;

/// Shortest edge (segment, capsule core, chain segment, polygon edge) a constructor accepts.
///
/// Below it, products of edge components leave `f32`'s normal range and directions lose their
/// unit length: such shapes are [`ShapeError::TooSmall`]. (Coincident capsule ends, a circle, are
/// fine.)
pub const MIN_EDGE_LENGTH: f32 = 1.0e-12;

/// Why a shape could not be built from the numbers it was given.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum ShapeError {
    /// A coordinate, size, radius or angle was NaN or infinite.
    NonFinite,
    /// A coordinate or size had a magnitude above [`MAX_COORDINATE`].
    OutOfRange {
        /// The offending value.
        value: f32,
    },
    /// A radius was negative.
    NegativeRadius {
        /// The offending radius.
        radius: f32,
    },
    /// A width, height or other size was zero or negative.
    NonPositiveSize {
        /// The offending size.
        size: f32,
    },
    /// Fewer than three distinct points remained after welding near-duplicates.
    TooFewPoints {
        /// How many distinct points there were.
        distinct: usize,
    },
    /// All points lie on one line, so they enclose no area.
    Collinear,
    /// The outline is not convex (or winds around more than once) at this vertex.
    NotConvex {
        /// Index of the first vertex where convexity fails, in the caller's order.
        vertex: usize,
    },
    /// The polygon needs more vertices than [`MAX_POLYGON_VERTICES`](crate::shape::MAX_POLYGON_VERTICES).
    TooManyVertices {
        /// How many vertices were needed.
        count: usize,
    },
    /// Two edges of an outline cross or touch where they are not neighbours.
    SelfIntersecting {
        /// Index of the first edge (edge `i` runs from vertex `i` to vertex `i + 1`).
        edge_a: usize,
        /// Index of the second edge.
        edge_b: usize,
    },
    /// A segment's two end points coincide.
    DegenerateSegment,
    /// The shape can only be scaled uniformly (circles, capsules, rounded polygons).
    NonUniformScale,
    /// A compound was given no children.
    EmptyCompound,
    /// A compound child was a compound or a chain; children must be convex shapes.
    NestedCompound,
    /// An axis-aligned box had `min > max` on some axis.
    InvertedAabb,
    /// An edge is shorter than [`MIN_EDGE_LENGTH`]: too small for `f32` arithmetic.
    TooSmall,
}

impl fmt::Display for ShapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ShapeError::NonFinite => write!(f, "a number was NaN or infinite"),
            ShapeError::OutOfRange { value } => write!(
                f,
                "value {value} is out of range (local coordinates must be within ±{MAX_COORDINATE:e})"
            ),
            ShapeError::NegativeRadius { radius } => {
                write!(f, "radius {radius} is negative")
            }
            ShapeError::NonPositiveSize { size } => {
                write!(f, "size {size} must be greater than zero")
            }
            ShapeError::TooFewPoints { distinct } => write!(
                f,
                "too few distinct points ({distinct} after welding near-duplicates): a polygon or a closed chain needs 3, an open chain 2"
            ),
            ShapeError::Collinear => write!(f, "all points lie on one line"),
            ShapeError::NotConvex { vertex } => {
                write!(f, "outline is not convex at vertex {vertex}")
            }
            ShapeError::TooManyVertices { count } => write!(
                f,
                "polygon needs {count} vertices, more than the supported {}",
                crate::shape::MAX_POLYGON_VERTICES
            ),
            ShapeError::SelfIntersecting { edge_a, edge_b } => {
                write!(f, "outline edges {edge_a} and {edge_b} intersect")
            }
            ShapeError::DegenerateSegment => write!(f, "segment end points coincide"),
            ShapeError::NonUniformScale => {
                write!(f, "this shape can only be scaled uniformly")
            }
            ShapeError::EmptyCompound => write!(f, "a compound needs at least one child"),
            ShapeError::NestedCompound => {
                write!(f, "compound children must be convex shapes, not compounds or chains")
            }
            ShapeError::InvertedAabb => write!(f, "box has min greater than max"),
            ShapeError::TooSmall => write!(f, "shape is too small to represent in f32"),
        }
    }
}

impl std::error::Error for ShapeError {}

/// Checks that `value` is finite and within [`MAX_COORDINATE`].
pub(crate) fn check_scalar(value: f32) -> Result<f32, ShapeError> {
    if !value.is_finite() {
        Err(ShapeError::NonFinite)
    } else if value.abs() > MAX_COORDINATE {
        Err(ShapeError::OutOfRange { value })
    } else {
        Ok(value)
    }
}

/// Checks both components of a point.
pub(crate) fn check_point(point: glam::Vec2) -> Result<glam::Vec2, ShapeError> {
    check_scalar(point.x)?;
    check_scalar(point.y)?;
    Ok(point)
}

/// Checks a radius: finite, in range and not negative.
pub(crate) fn check_radius(radius: f32) -> Result<f32, ShapeError> {
    check_scalar(radius)?;
    if radius < 0.0 {
        Err(ShapeError::NegativeRadius { radius })
    } else {
        Ok(radius)
    }
}

/// Checks a size: finite, in range and strictly positive.
pub(crate) fn check_size(size: f32) -> Result<f32, ShapeError> {
    check_scalar(size)?;
    if size > 0.0 {
        Ok(size)
    } else {
        Err(ShapeError::NonPositiveSize { size })
    }
}
