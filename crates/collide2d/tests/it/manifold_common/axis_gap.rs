//! How clearly the separating-axis test picks its axis, for the tests that compare normals.

use collide2d::shape::Shape;
use collide2d::{Transform, Vec2};

/// A convex core with straight edges: vertices and outward normals (a segment has two
/// vertices and two opposite normals).
fn straight_core(shape: &Shape) -> Option<(Vec<Vec2>, Vec<Vec2>)> {
    let segment = |a: Vec2, b: Vec2| {
        let d = b - a;
        let normal = Vec2::new(d.y, -d.x).try_normalize().unwrap_or(Vec2::Y);
        (vec![a, b], vec![normal, -normal])
    };
    match shape {
        Shape::Polygon(p) => Some((p.vertices().to_vec(), p.normals().to_vec())),
        Shape::Capsule(c) if c.a() != c.b() => Some(segment(c.a(), c.b())),
        Shape::Segment(s) => Some(segment(s.a(), s.b())),
        _ => None,
    }
}

/// For two convex shapes with straight edges (polygons, capsules, segments): the best SAT
/// separation minus the best separation along a clearly different direction (more than 1e-3 rad
/// apart, directions taken from A to B). `f32::INFINITY` when the answer has no tie to break
/// (a circle or a capsule with coincident ends is involved, or there is one direction only).
///
/// Where this gap is below the reference-axis tolerance the normal is legitimately ambiguous,
/// so the property and differential tests skip normal comparisons there.
pub fn sat_axis_gap(a: &Shape, xf_a: &Transform, b: &Shape, xf_b: &Transform) -> f32 {
    let (Some((vertices_a, normals_a)), Some((local_vertices_b, local_normals_b))) =
        (straight_core(a), straight_core(b))
    else {
        return f32::INFINITY;
    };
    let b_in_a = xf_a.inv_mul(xf_b);
    let vertices_b: Vec<Vec2> = local_vertices_b.iter().map(|v| b_in_a.apply(*v)).collect();
    let normals_b: Vec<Vec2> = local_normals_b.iter().map(|n| b_in_a.rotate(*n)).collect();
    // (separation, direction from A to B)
    let mut axes: Vec<(f32, Vec2)> = Vec::new();
    for (vertex, normal) in vertices_a.iter().zip(&normals_a) {
        let smallest = vertices_b
            .iter()
            .map(|v| normal.dot(*v - *vertex))
            .fold(f32::INFINITY, f32::min);
        axes.push((smallest, *normal));
    }
    for (vertex, normal) in vertices_b.iter().zip(&normals_b) {
        let smallest = vertices_a
            .iter()
            .map(|v| normal.dot(*v - *vertex))
            .fold(f32::INFINITY, f32::min);
        axes.push((smallest, -*normal));
    }
    axes.sort_by(|x, y| y.0.total_cmp(&x.0));
    let (best, best_direction) = axes[0];
    axes.iter()
        .find(|(_, direction)| {
            direction.perp_dot(best_direction).abs() > 1e-3 || direction.dot(best_direction) < 0.0
        })
        .map_or(f32::INFINITY, |(separation, _)| best - separation)
}
