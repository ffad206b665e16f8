//! The convex "core" view of a shape used by the separating-axis code: a polygon outline
//! (possibly just two vertices) plus a rounding radius.
//!
//! A polygon is its own core. A capsule or a segment is a two-vertex polygon whose edge `0` runs
//! from `a` to `b` with normal `n` and whose edge `1` runs back with normal `-n`; its radius is the
//! capsule's (zero for a segment). Both sides of that outline are reported as `Edge(0)`, the
//! numbering of [`Feature`](crate::query::Feature).

use crate::math::{right_perp, Vec2};
use crate::shape::{PaddedOutline, Polygon};

/// A convex outline with outward unit normals and a rounding radius, in some local frame.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CoreShape<'a> {
    /// Counter-clockwise vertices (two for a segment core).
    pub vertices: &'a [Vec2],
    /// `normals[i]` is the outward unit normal of the edge from vertex `i` to vertex `i + 1`.
    pub normals: &'a [Vec2],
    /// Rounding radius around the outline.
    pub radius: f32,
    /// The outline already in padded lanes (polygons of up to 8 vertices), if stored.
    pub padded: Option<&'a PaddedOutline<2>>,
}

impl<'a> CoreShape<'a> {
    /// The core of a polygon.
    #[inline]
    pub fn of_polygon(polygon: &'a Polygon) -> CoreShape<'a> {
        CoreShape {
            vertices: polygon.vertices(),
            normals: polygon.normals(),
            radius: polygon.radius(),
            padded: polygon.padded_outline(),
        }
    }

    /// A rough diameter of the outline plus the radius: the scale for relative tolerances.
    /// Computed when asked, as most pairs are decided before it is needed.
    #[inline(always)]
    pub fn size(&self) -> f32 {
        let across = self.vertices[self.vertices.len() / 2] - self.vertices[0];
        across.x.abs() + across.y.abs() + 2.0 * self.radius
    }

    /// The outline in `C` padded chunks; it must have at most `4 × C` vertices.
    #[inline(always)]
    pub fn padded_outline<const C: usize>(&self) -> PaddedOutline<C> {
        match self.padded {
            Some(stored) if C <= 2 => stored.narrowed::<C>(),
            _ => PaddedOutline::new(self.vertices, self.normals),
        }
    }

    /// The feature id of edge `index` (both sides of a two-vertex core are edge 0).
    #[inline]
    pub fn edge_feature(&self, index: usize) -> crate::query::Feature {
        if self.vertices.len() == 2 {
            crate::query::Feature::Edge(0)
        } else {
            crate::query::Feature::Edge(index as u8)
        }
    }
}

/// Storage for the two-vertex core of a segment or capsule.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SegmentCore {
    vertices: [Vec2; 2],
    normals: [Vec2; 2],
    radius: f32,
}

impl SegmentCore {
    /// The core of the segment `a`–`b` inflated by `radius`; `a != b` is required by the callers
    /// (a capsule with coincident ends is handled as a circle).
    #[inline]
    pub fn new(a: Vec2, b: Vec2, radius: f32) -> SegmentCore {
        let normal = crate::math::unit_or(right_perp(b - a), Vec2::Y);
        SegmentCore {
            vertices: [a, b],
            normals: [normal, -normal],
            radius,
        }
    }

    /// The view used by the separating-axis code.
    #[inline]
    pub fn view(&self) -> CoreShape<'_> {
        CoreShape {
            vertices: &self.vertices,
            normals: &self.normals,
            radius: self.radius,
            padded: None,
        }
    }
}

/// Storage for the four-vertex core of a box centred on the local origin.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BoxCore {
    vertices: [Vec2; 4],
    normals: [Vec2; 4],
}

impl BoxCore {
    /// The box with the given half extents, vertices counter-clockwise from the lower left.
    pub fn new(half_extents: Vec2) -> BoxCore {
        let h = half_extents;
        BoxCore {
            vertices: [
                Vec2::new(-h.x, -h.y),
                Vec2::new(h.x, -h.y),
                Vec2::new(h.x, h.y),
                Vec2::new(-h.x, h.y),
            ],
            normals: [Vec2::NEG_Y, Vec2::X, Vec2::Y, Vec2::NEG_X],
        }
    }

    /// The view used by the separating-axis code (its [`CoreShape::size`] is `2 hx + 2 hy`).
    pub fn view(&self) -> CoreShape<'_> {
        CoreShape {
            vertices: &self.vertices,
            normals: &self.normals,
            radius: 0.0,
            padded: None,
        }
    }
}
