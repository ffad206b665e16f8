//! Shapes in local space: circles, capsules, segments, convex polygons, compounds and boxes.
//!
//! Every shape is a plain value in its own local frame, placed in the world by a
//! [`Transform`]. Constructors validate their input and return [`ShapeError`] instead of building
//! a broken shape; see the crate's [conventions](crate#conventions).

mod aabb;
mod capsule;
mod chain;
mod circle;
mod compound;
mod compound_seams;
mod decompose;
mod error;
mod hull;
mod padded_outline;
mod polygon;
mod ray;

pub use aabb::Aabb;
pub use capsule::Capsule;
pub(crate) use chain::Joint;
pub use chain::{Chain, MAX_CHAIN_VERTICES};
pub use circle::Circle;
pub use compound::Compound;
pub(crate) use compound_seams::{Admission, Seams};
pub(crate) use error::MAX_WORLD_COORDINATE;
pub use error::{ShapeError, MAX_COORDINATE, MIN_EDGE_LENGTH};
pub use hull::WELD_TOLERANCE;
pub(crate) use padded_outline::PaddedOutline;
pub use polygon::Polygon;
pub use ray::{Ray, RayError};

use crate::math::{Transform, Vec2};

/// Most vertices a convex [`Polygon`] may have.
pub const MAX_POLYGON_VERTICES: usize = 64;

/// Whether both coordinates of a world point lie within ±[`MAX_WORLD_COORDINATE`] (NaN and
/// infinities do not).
#[inline]
pub(crate) fn point_within_world(point: Vec2) -> bool {
    point.x.abs() <= MAX_WORLD_COORDINATE && point.y.abs() <= MAX_WORLD_COORDINATE
}

/// The result of projecting a point onto a shape's boundary.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PointProjection {
    /// The closest point on the shape's boundary, in world space.
    pub point: Vec2,
    /// Whether the query point is inside the shape (boundary included).
    pub inside: bool,
    /// The distance from the query point to `point` (never negative).
    pub distance: f32,
}

impl PointProjection {
    /// The answer to a query that has none (a point beyond the world's reach, a transform that
    /// is not [valid](Transform::is_valid)): the origin, outside, at distance `f32::INFINITY`.
    pub const NONE: PointProjection = PointProjection {
        point: Vec2::ZERO,
        inside: false,
        distance: f32::INFINITY,
    };
}

/// Any collision shape.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(tag = "kind", rename_all = "snake_case")
)]
pub enum Shape {
    /// A disc.
    Circle(Circle),
    /// A segment with a radius.
    Capsule(Capsule),
    /// A segment with no thickness.
    Segment(Segment),
    /// A convex polygon, optionally rounded.
    Polygon(Polygon),
    /// Several convex shapes as one.
    Compound(Compound),
    /// A polyline of one-sided segments for level geometry.
    Chain(Chain),
}

mod segment;
pub use segment::Segment;

macro_rules! dispatch {
    ($shape:expr, $s:ident => $body:expr) => {
        match $shape {
            Shape::Circle($s) => $body,
            Shape::Capsule($s) => $body,
            Shape::Segment($s) => $body,
            Shape::Polygon($s) => $body,
            Shape::Compound($s) => $body,
            Shape::Chain($s) => $body,
        }
    };
}

impl Shape {
    /// The world-space bounding box of the shape placed by `xf` (tight, radius included).
    ///
    /// ```
    /// use collide2d::{shape::{Shape, Circle}, Transform, Vec2};
    /// let ball = Shape::from(Circle::with_radius(0.5)?);
    /// let aabb = ball.aabb(&Transform::new(Vec2::new(2.0, 1.0), 0.0));
    /// assert_eq!(aabb.min, Vec2::new(1.5, 0.5));
    /// # Ok::<(), collide2d::ShapeError>(())
    /// ```
    ///
    /// A transform that is not [valid](Transform::is_valid) gives [`Aabb::EMPTY`].
    pub fn aabb(&self, xf: &Transform) -> Aabb {
        if !xf.is_valid() {
            return Aabb::EMPTY;
        }
        dispatch!(self, s => s.aabb(xf))
    }

    /// [`Shape::aabb`] for a placement known to be [valid](Transform::is_valid) (the collision
    /// world checks its placements when they are set).
    #[inline]
    pub(crate) fn aabb_of_valid(&self, xf: &Transform) -> Aabb {
        debug_assert!(xf.is_valid());
        dispatch!(self, s => s.aabb(xf))
    }

    /// Whether the world point is inside the shape placed by `xf`; the boundary counts as inside.
    ///
    /// ```
    /// use collide2d::{shape::{Polygon, Shape}, Transform, Vec2};
    /// let square = Shape::from(Polygon::rect(2.0, 2.0)?);
    /// let xf = Transform::new(Vec2::new(10.0, 0.0), std::f32::consts::FRAC_PI_4);
    /// assert!(square.contains(&xf, Vec2::new(10.0, 1.4)));
    /// assert!(!square.contains(&xf, Vec2::new(11.0, 1.0)));
    /// # Ok::<(), collide2d::ShapeError>(())
    /// ```
    ///
    /// `false` for a transform that is not [valid](Transform::is_valid) and for a point beyond
    /// `±4 ·` [`MAX_COORDINATE`] on either axis (non-finite or too far from any valid placement
    /// to be inside).
    pub fn contains(&self, xf: &Transform, point: Vec2) -> bool {
        if !(xf.is_valid() && point_within_world(point)) {
            return false;
        }
        dispatch!(self, s => s.contains(xf, point))
    }

    /// The closest point on the boundary of the shape placed by `xf` to a world point.
    ///
    /// [`PointProjection::NONE`] for a transform that is not [valid](Transform::is_valid) and
    /// for a point beyond `±4 ·` [`MAX_COORDINATE`] on either axis (non-finite, or so far
    /// from every valid placement that its distance would lose all precision).
    pub fn project_point(&self, xf: &Transform, point: Vec2) -> PointProjection {
        if !(xf.is_valid() && point_within_world(point)) {
            return PointProjection::NONE;
        }
        dispatch!(self, s => s.project_point(xf, point))
    }

    /// The area (zero for a segment).
    pub fn area(&self) -> f32 {
        match self {
            Shape::Segment(_) | Shape::Chain(_) => 0.0,
            Shape::Circle(s) => s.area(),
            Shape::Capsule(s) => s.area(),
            Shape::Polygon(s) => s.area(),
            Shape::Compound(s) => s.area(),
        }
    }

    /// The centroid in local space.
    pub fn centroid(&self) -> Vec2 {
        dispatch!(self, s => s.centroid())
    }

    /// Whether the shape is convex (everything but a compound or a chain).
    pub fn is_convex(&self) -> bool {
        !matches!(self, Shape::Compound(_) | Shape::Chain(_))
    }

    /// The shape scaled about its local origin.
    ///
    /// Polygons, segments and compounds of those take any non-zero per-axis scale (a negative
    /// component mirrors the shape and its winding is restored). Circles, capsules and rounded
    /// polygons take only uniform scales (`|x| == |y|`); anything else is
    /// [`ShapeError::NonUniformScale`].
    pub fn scaled(&self, scale: Vec2) -> Result<Shape, ShapeError> {
        error::check_point(scale)?;
        if scale.x == 0.0 || scale.y == 0.0 {
            return Err(ShapeError::NonPositiveSize {
                size: if scale.x == 0.0 { scale.x } else { scale.y },
            });
        }
        let uniform = scale.x.abs() == scale.y.abs();
        let factor = scale.x.abs();
        Ok(match self {
            Shape::Circle(c) => {
                if !uniform {
                    return Err(ShapeError::NonUniformScale);
                }
                Shape::Circle(Circle::new(c.center() * scale, c.radius() * factor)?)
            }
            Shape::Capsule(c) => {
                if !uniform {
                    return Err(ShapeError::NonUniformScale);
                }
                Shape::Capsule(Capsule::new(
                    c.a() * scale,
                    c.b() * scale,
                    c.radius() * factor,
                )?)
            }
            Shape::Segment(s) => Shape::Segment(Segment::new(s.a() * scale, s.b() * scale)?),
            Shape::Polygon(p) => {
                if p.radius() > 0.0 && !uniform {
                    return Err(ShapeError::NonUniformScale);
                }
                let vertices: Vec<Vec2> = p.vertices().iter().map(|v| *v * scale).collect();
                Shape::Polygon(Polygon::new(&vertices)?.with_radius(p.radius() * factor)?)
            }
            Shape::Compound(c) => Shape::Compound(c.scaled(scale)?),
            Shape::Chain(c) => {
                let vertices: Vec<Vec2> = c.vertices().iter().map(|v| *v * scale).collect();
                // A mirror reverses the order along the chain; keep the collision side.
                let chain = if c.is_closed() {
                    Chain::closed(&vertices)?
                } else {
                    Chain::open(&vertices)?
                };
                Shape::Chain(if scale.x * scale.y < 0.0 {
                    chain.reversed()
                } else {
                    chain
                })
            }
        })
    }

    /// The convex shape with `xf` baked into its local coordinates.
    pub(crate) fn transformed(&self, xf: &Transform) -> Result<Shape, ShapeError> {
        Ok(match self {
            Shape::Circle(c) => Shape::Circle(Circle::new(xf.apply(c.center()), c.radius())?),
            Shape::Capsule(c) => {
                Shape::Capsule(Capsule::new(xf.apply(c.a()), xf.apply(c.b()), c.radius())?)
            }
            Shape::Segment(s) => Shape::Segment(Segment::new(xf.apply(s.a()), xf.apply(s.b()))?),
            Shape::Polygon(p) => {
                let vertices: Vec<Vec2> = p.vertices().iter().map(|v| xf.apply(*v)).collect();
                Shape::Polygon(Polygon::new(&vertices)?.with_radius(p.radius())?)
            }
            Shape::Compound(_) | Shape::Chain(_) => return Err(ShapeError::NestedCompound),
        })
    }
}

impl From<Circle> for Shape {
    fn from(s: Circle) -> Shape {
        Shape::Circle(s)
    }
}
impl From<Capsule> for Shape {
    fn from(s: Capsule) -> Shape {
        Shape::Capsule(s)
    }
}
impl From<Segment> for Shape {
    fn from(s: Segment) -> Shape {
        Shape::Segment(s)
    }
}
impl From<Polygon> for Shape {
    fn from(s: Polygon) -> Shape {
        Shape::Polygon(s)
    }
}
impl From<Chain> for Shape {
    fn from(s: Chain) -> Shape {
        Shape::Chain(s)
    }
}
impl From<Compound> for Shape {
    fn from(s: Compound) -> Shape {
        Shape::Compound(s)
    }
}

/// The point of segment `a`–`b` closest to `p` (all in one frame).
#[inline]
pub(crate) fn closest_point_on_segment(a: Vec2, b: Vec2, p: Vec2) -> Vec2 {
    let d = b - a;
    let length_squared = d.length_squared();
    if length_squared <= 0.0 {
        return a;
    }
    let t = (p - a).dot(d) / length_squared;
    if t <= 0.0 {
        a
    } else if t >= 1.0 {
        b
    } else {
        a + d * t
    }
}

/// Whether a vector is no longer than `radius` (≥ 0), exactly also for tiny numbers whose squares
/// would underflow to zero.
#[inline]
pub(crate) fn within_radius(offset: Vec2, radius: f32) -> bool {
    if offset.abs().max_element() > radius {
        return false;
    }
    if radius < 1e-18 {
        // Here |offset| <= radius; compare at the radius's scale (radius 0: offset is 0).
        return radius == 0.0 || (offset / radius).length_squared() <= 1.0;
    }
    offset.length_squared() <= radius * radius
}
