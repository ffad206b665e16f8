//! `project_point` from inside a compound of rounded children (circles, capsules, rounded
//! polygons), against an `f64` referee: the union's boundary sampled densely (each child's
//! boundary, less what another child covers). The crate docs promise a point of the union's
//! boundary, exact where the nearest boundary is a sharp polygon's or a rounded child's own
//! nearest point, and otherwise found by sampling each side and arc for where another child's
//! cover begins and ends (a farther point only when a cover is narrower than a sample step).

use crate::manifold_common::exact::{self, Core};
use crate::support::probe_shapes::unit;
use crate::support::Rng;
use collide2d::shape::{Capsule, Circle, Compound, Polygon, Shape};
use collide2d::{Transform, Vec2};

/// The children as `f64` cores (compound frame).
fn cores(compound: &Compound) -> Vec<Core> {
    compound
        .children()
        .iter()
        .map(|(xf, shape)| exact::core(shape, xf, Vec2::ZERO).expect("convex children"))
        .collect()
}

/// Points of the union's boundary: each child's boundary sampled (circles about every core
/// vertex and lines along every side, kept where they lie on that child's surface) and kept
/// where no other child's interior holds them.
fn boundary_samples(compound: &Compound, cores: &[Core], size: f64) -> Vec<[f64; 2]> {
    let mut samples = Vec::new();
    for (index, (xf, shape)) in compound.children().iter().enumerate() {
        let (points, radius) = exact::core_points(shape, xf, Vec2::ZERO).expect("convex children");
        let mut candidates = Vec::new();
        for &[x, y] in &points {
            for k in 0..2000 {
                let angle = std::f64::consts::TAU * f64::from(k) / 2000.0;
                candidates.push([x + radius * angle.cos(), y + radius * angle.sin()]);
            }
        }
        let n = points.len();
        for i in 0..n {
            let (a, b) = (points[i], points[(i + 1) % n]);
            let edge = [b[0] - a[0], b[1] - a[1]];
            let length = edge[0].hypot(edge[1]);
            if length == 0.0 {
                continue;
            }
            for sign in [1.0, -1.0] {
                let m = [sign * edge[1] / length, -sign * edge[0] / length];
                for k in 0..=2000 {
                    let t = f64::from(k) / 2000.0;
                    candidates.push([
                        a[0] + edge[0] * t + m[0] * radius,
                        a[1] + edge[1] * t + m[1] * radius,
                    ]);
                }
            }
        }
        let on = 1e-9 * size;
        samples.extend(candidates.into_iter().filter(|&q| {
            exact::signed_distance(&cores[index], q).abs() <= on
                && cores
                    .iter()
                    .enumerate()
                    .all(|(j, core)| j == index || exact::signed_distance(core, q) >= -on)
        }));
    }
    samples
}

fn two_overlapping_circles() -> Compound {
    let circle = Shape::from(Circle::with_radius(1.0).unwrap());
    Compound::new(vec![
        (
            Transform::from_translation(Vec2::new(-0.5, 0.0)),
            circle.clone(),
        ),
        (Transform::from_translation(Vec2::new(0.5, 0.0)), circle),
    ])
    .unwrap()
}

#[test]
fn point_between_two_overlapping_circles_projects_onto_the_union_boundary() {
    // From the origin, each circle's nearest point ((±0.5, 0)) lies inside the other circle;
    // the union's nearest boundary points are where the circles cross, (0, ±√0.75). The
    // answer was the covered point (0.5, 0) at distance 0.5, inside the compound.
    let compound = Shape::from(two_overlapping_circles());
    let projection = compound.project_point(&Transform::IDENTITY, Vec2::ZERO);
    assert!(projection.inside);
    assert!(
        (projection.distance - 0.75f32.sqrt()).abs() < 1e-5,
        "{projection:?}"
    );
    assert!(projection.point.x.abs() < 1e-5, "{projection:?}");
    // Placed far out and turned, the same answer.
    let xf = Transform::new(Vec2::new(1000.0, -2000.0), 0.7);
    let projection = compound.project_point(&xf, xf.p);
    assert!(
        (projection.distance - 0.75f32.sqrt()).abs() < 1e-3,
        "{projection:?}"
    );
}

/// A random rounded child about `size` across, placed within `size` of the compound's origin.
fn rounded_child(rng: &mut Rng, size: f32) -> (Transform, Shape) {
    let half = 0.5 * size;
    let shape = match rng.below(3) {
        0 => Shape::from(Circle::with_radius(half * rng.range(0.4, 1.0)).unwrap()),
        1 => {
            let d = unit(rng.angle()) * half * rng.range(0.2, 0.8);
            Shape::from(Capsule::new(-d, d, half * rng.range(0.2, 0.6)).unwrap())
        }
        _ => {
            let count = 3 + rng.below(4);
            let points: Vec<Vec2> = (0..count)
                .map(|_| unit(rng.angle()) * half * rng.range(0.4, 0.8))
                .collect();
            let polygon = Polygon::hull(&points)
                .unwrap_or_else(|_| Polygon::regular(count, 0.6 * half).unwrap());
            Shape::from(polygon.with_radius(half * rng.range(0.1, 0.4)).unwrap())
        }
    };
    (Transform::new(rng.point(0.6 * size), rng.angle()), shape)
}

/// Seeded sweep: compounds of 2 or 3 overlapping rounded children, 1e-2 to 1e2 across, points
/// inside. The answer lies on the union's boundary (on its child's surface, in no other child)
/// at the distance it reports, never nearer than the boundary, and in nearly every case as
/// near as the sampled boundary.
#[test]
fn points_inside_rounded_compounds_project_onto_the_union_boundary() {
    let mut rng = Rng(0xc0_2b0d);
    let (mut checked, mut farther, mut failures) = (0usize, 0usize, Vec::new());
    for round in 0..100 {
        let size = rng.pick(&[1e-2f32, 1.0, 1e2]);
        let count = 2 + rng.below(2);
        let compound =
            Compound::new((0..count).map(|_| rounded_child(&mut rng, size)).collect()).unwrap();
        let cores = cores(&compound);
        let samples = boundary_samples(&compound, &cores, f64::from(size));
        let shape = Shape::from(compound);
        for _ in 0..16 {
            let p = rng.point(0.7 * size);
            if !shape.contains(&Transform::IDENTITY, p) {
                continue;
            }
            checked += 1;
            let projection = shape.project_point(&Transform::IDENTITY, p);
            let q = [f64::from(projection.point.x), f64::from(projection.point.y)];
            let tolerance = 1e-5 * f64::from(size);
            let nearest_surface = cores
                .iter()
                .map(|core| exact::signed_distance(core, q).abs())
                .fold(f64::INFINITY, f64::min);
            let deepest_inside = cores
                .iter()
                .map(|core| exact::signed_distance(core, q))
                .fold(f64::INFINITY, f64::min);
            let reference = samples
                .iter()
                .map(|s| (s[0] - f64::from(p.x)).hypot(s[1] - f64::from(p.y)))
                .fold(f64::INFINITY, f64::min);
            let reported = f64::from(projection.distance);
            let wrong = if !projection.inside {
                Some("not inside".to_string())
            } else if nearest_surface > tolerance || deepest_inside < -tolerance {
                Some(format!(
                    "point {:?} is not on the union's boundary (depth {})",
                    projection.point, -deepest_inside
                ))
            } else if reported < reference - 3e-3 * f64::from(size) {
                Some(format!(
                    "distance {reported} nearer than the boundary's {reference}"
                ))
            } else {
                None
            };
            if reported > reference + 3e-3 * f64::from(size) {
                farther += 1;
            }
            if let Some(wrong) = wrong {
                failures.push(format!("round {round} size {size} p {p:?}: {wrong}"));
            }
        }
    }
    assert!(checked > 400, "only {checked} points inside");
    assert!(
        failures.is_empty(),
        "{} of {checked} projections wrong:\n{}",
        failures.len(),
        failures[..failures.len().min(10)].join("\n")
    );
    // The documented approximation: a farther point only past a cover narrower than a sample.
    assert!(
        farther * 100 <= checked,
        "{farther} of {checked} projections farther than the boundary"
    );
}
