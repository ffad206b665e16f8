//! A small polygon outline padded to whole four-lane chunks, for the separating-axis kernel.

use crate::math::{Lanes, Transform, Vec2};

/// An outline of at most `4 × C` vertices with the outward unit normal of each edge, as
/// separate coordinate lanes.
///
/// Slots past the real vertex count repeat vertex `0` and edge `0`: a repeated vertex cannot
/// change a minimum over vertices, and a repeated edge cannot win a first-strictly-greater
/// maximum over edges, so padding never changes a separation or the edge chosen.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct PaddedOutline<const C: usize> {
    /// Vertex x coordinates.
    pub vertex_x: [Lanes; C],
    /// Vertex y coordinates.
    pub vertex_y: [Lanes; C],
    /// Edge normal x components (`normal[i]` belongs to the edge from vertex `i` to `i + 1`).
    pub normal_x: [Lanes; C],
    /// Edge normal y components.
    pub normal_y: [Lanes; C],
}

// Two chunks fill the first two cache lines of a polygon's outline block.
const _: () = assert!(std::mem::size_of::<PaddedOutline<2>>() == 128);

impl<const C: usize> PaddedOutline<C> {
    /// The outline as given; `1 <= vertices.len() == normals.len() <= 4 × C` is required.
    #[inline(always)]
    pub fn new(vertices: &[Vec2], normals: &[Vec2]) -> PaddedOutline<C> {
        debug_assert!(!vertices.is_empty() && vertices.len() <= 4 * C);
        debug_assert_eq!(vertices.len(), normals.len());
        let mut outline = PaddedOutline {
            vertex_x: [Lanes::splat(vertices[0].x); C],
            vertex_y: [Lanes::splat(vertices[0].y); C],
            normal_x: [Lanes::splat(normals[0].x); C],
            normal_y: [Lanes::splat(normals[0].y); C],
        };
        for (i, (vertex, normal)) in vertices.iter().zip(normals).enumerate().skip(1) {
            let (chunk, lane) = (i / 4, i % 4);
            outline.vertex_x[chunk].0[lane] = vertex.x;
            outline.vertex_y[chunk].0[lane] = vertex.y;
            outline.normal_x[chunk].0[lane] = normal.x;
            outline.normal_y[chunk].0[lane] = normal.y;
        }
        outline
    }

    /// The outline moved by `xf`, with the arithmetic of [`Transform::apply`] for vertices and
    /// [`Transform::rotate`] for normals.
    #[inline(always)]
    pub fn transformed(&self, xf: &Transform) -> PaddedOutline<C> {
        let (c, s) = (Lanes::splat(xf.q.c), Lanes::splat(xf.q.s));
        let (px, py) = (Lanes::splat(xf.p.x), Lanes::splat(xf.p.y));
        let mut moved = *self;
        for k in 0..C {
            let (x, y) = (self.vertex_x[k], self.vertex_y[k]);
            moved.vertex_x[k] = (c * x - s * y) + px;
            moved.vertex_y[k] = (s * x + c * y) + py;
            let (x, y) = (self.normal_x[k], self.normal_y[k]);
            moved.normal_x[k] = c * x - s * y;
            moved.normal_y[k] = s * x + c * y;
        }
        moved
    }

    /// Vertex `i`.
    #[inline(always)]
    pub fn vertex(&self, i: usize) -> Vec2 {
        Vec2::new(self.vertex_x[i / 4].0[i % 4], self.vertex_y[i / 4].0[i % 4])
    }

    /// Normal `i`.
    #[inline(always)]
    pub fn normal(&self, i: usize) -> Vec2 {
        Vec2::new(self.normal_x[i / 4].0[i % 4], self.normal_y[i / 4].0[i % 4])
    }
}

impl PaddedOutline<2> {
    /// The first `D` chunks (`D` ≤ 2): the whole outline when it has at most `4 × D` vertices.
    #[inline(always)]
    pub fn narrowed<const D: usize>(&self) -> PaddedOutline<D> {
        debug_assert!(D <= 2);
        PaddedOutline {
            vertex_x: std::array::from_fn(|k| self.vertex_x[k]),
            vertex_y: std::array::from_fn(|k| self.vertex_y[k]),
            normal_x: std::array::from_fn(|k| self.normal_x[k]),
            normal_y: std::array::from_fn(|k| self.normal_y[k]),
        }
    }
}
