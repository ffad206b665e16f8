//! A test helper: how clearly the separating-axis test picks its axis.

use crate::math::{cross, Transform, Vec2};
use crate::query::manifold::core_shape::{CoreShape, SegmentCore};
use crate::shape::Shape;

/// For two convex shapes with straight edges (polygons, capsules, segments): the best SAT
/// separation minus the best separation along a clearly different direction (more than 1e-3 rad
/// apart, directions taken from A to B). `f32::INFINITY` when the answer has no tie to break
/// (a circle or a capsule with coincident ends is involved, or there is one direction only).
///
/// Where this gap is below the reference-axis tolerance the normal is legitimately ambiguous,
/// so the property and differential tests skip normal comparisons there.
#[doc(hidden)]
pub fn sat_axis_gap(a: &Shape, xf_a: &Transform, b: &Shape, xf_b: &Transform) -> f32 {
    let storage_a;
    let storage_b;
    let core_a = match a {
        Shape::Polygon(p) => CoreShape::of_polygon(p),
        Shape::Capsule(c) if c.a() != c.b() => {
            storage_a = SegmentCore::new(c.a(), c.b(), c.radius());
            storage_a.view()
        }
        Shape::Segment(s) => {
            storage_a = SegmentCore::new(s.a(), s.b(), 0.0);
            storage_a.view()
        }
        _ => return f32::INFINITY,
    };
    let core_b = match b {
        Shape::Polygon(p) => CoreShape::of_polygon(p),
        Shape::Capsule(c) if c.a() != c.b() => {
            storage_b = SegmentCore::new(c.a(), c.b(), c.radius());
            storage_b.view()
        }
        Shape::Segment(s) => {
            storage_b = SegmentCore::new(s.a(), s.b(), 0.0);
            storage_b.view()
        }
        _ => return f32::INFINITY,
    };
    let b_in_a = xf_a.inv_mul(xf_b);
    let vertices_b: Vec<Vec2> = core_b.vertices.iter().map(|v| b_in_a.apply(*v)).collect();
    let normals_b: Vec<Vec2> = core_b.normals.iter().map(|n| b_in_a.rotate(*n)).collect();
    // (separation, direction from A to B)
    let mut axes: Vec<(f32, Vec2)> = Vec::new();
    for (vertex, normal) in core_a.vertices.iter().zip(core_a.normals) {
        let smallest = vertices_b
            .iter()
            .map(|v| normal.dot(*v - *vertex))
            .fold(f32::INFINITY, f32::min);
        axes.push((smallest, *normal));
    }
    for (vertex, normal) in vertices_b.iter().zip(&normals_b) {
        let smallest = core_a
            .vertices
            .iter()
            .map(|v| normal.dot(*v - *vertex))
            .fold(f32::INFINITY, f32::min);
        axes.push((smallest, -*normal));
    }
    axes.sort_by(|x, y| y.0.total_cmp(&x.0));
    let (best, best_direction) = axes[0];
    axes.iter()
        .find(|(_, direction)| {
            cross(*direction, best_direction).abs() > 1e-3 || direction.dot(best_direction) < 0.0
        })
        .map_or(f32::INFINITY, |(separation, _)| best - separation)
}
