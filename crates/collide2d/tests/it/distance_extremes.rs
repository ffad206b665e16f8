//! `distance` at the extremes of the accepted range: coordinates up to
//! [`MAX_COORDINATE`](collide2d::shape::MAX_COORDINATE) and size ratios up to 1e8. Distance is
//! zero exactly when `overlaps` says so, `collide` is non-empty exactly then, and nothing is NaN.

use crate::support;

use collide2d::query::DistanceOutput;
use collide2d::shape::{Polygon, Shape, ShapeError, MAX_COORDINATE};
use collide2d::{collide, distance, overlaps, Transform, Vec2};
use support::{random_shape, Kind, Rng};

const CONVEX_KINDS: [Kind; 5] = [
    Kind::Circle,
    Kind::Capsule,
    Kind::Segment,
    Kind::Polygon,
    Kind::RoundedPolygon,
];

fn is_finite(out: &DistanceOutput) -> bool {
    out.distance.is_finite()
        && out.point_a.is_finite()
        && out.point_b.is_finite()
        && out.normal.is_finite()
}

fn unit_box() -> Shape {
    Shape::from(Polygon::rect(1.0, 1.0).unwrap())
}

/// Coordinates of 1e10 gave NaN closest points; they are now refused by the constructor (the
/// limit is where every query is exact), and the same heptagon at the limit gives finite ones.
#[test]
fn huge_heptagon_against_a_unit_box_has_finite_closest_points() {
    assert_eq!(
        Polygon::regular(7, 1e10),
        Err(ShapeError::OutOfRange { value: 1e10 })
    );
    let heptagon = Shape::from(Polygon::regular(7, MAX_COORDINATE).unwrap());
    let placed = Transform::new(Vec2::new(0.3, 0.1), 0.4);
    for (a, xf_a, b, xf_b) in [
        (&heptagon, Transform::IDENTITY, &unit_box(), placed),
        (&unit_box(), placed, &heptagon, Transform::IDENTITY),
    ] {
        let out = distance(a, &xf_a, b, &xf_b);
        assert!(is_finite(&out), "{out:?}");
        assert_eq!(out.distance, 0.0, "{out:?}");
        assert!(overlaps(a, &xf_a, b, &xf_b));
    }
}

#[test]
fn unit_box_deep_inside_a_huge_box_is_at_distance_zero() {
    let huge = Shape::from(Polygon::rect(1e8, 1e8).unwrap());
    for (x, y, angle) in [(0.3, 0.1, 0.4), (0.0, 0.0, 0.0), (12.5, -7.25, 1.0)] {
        let placed = Transform::new(Vec2::new(x, y), angle);
        for (a, xf_a, b, xf_b) in [
            (&huge, Transform::IDENTITY, &unit_box(), placed),
            (&unit_box(), placed, &huge, Transform::IDENTITY),
        ] {
            let out = distance(a, &xf_a, b, &xf_b);
            assert!(is_finite(&out), "{out:?}");
            assert_eq!(out.distance, 0.0, "{out:?}");
            assert!(overlaps(a, &xf_a, b, &xf_b));
            assert!(!collide(a, &xf_a, b, &xf_b).is_empty());
        }
    }
}

/// Every power of ten of the accepted range: a regular polygon of that size with a unit box
/// inside it, on its boundary's outside, and far away.
#[test]
fn every_scale_of_polygon_against_a_unit_box() {
    let mut exponent = 0;
    while 10f32.powi(exponent) <= MAX_COORDINATE {
        let size = 10f32.powi(exponent);
        for sides in [3, 4, 7, 8, 16, 64] {
            let big = Shape::from(Polygon::regular(sides, size).unwrap());
            // Far apart: A below the origin, the box above, both within the limit.
            let far = (3.0 * size + 10.0).min(2.0 * MAX_COORDINATE);
            for (big_at, offset, expect_overlap) in [
                (Vec2::ZERO, Vec2::new(0.3, 0.1), Some(true)),
                (
                    Vec2::new(0.0, -0.5 * far),
                    Vec2::new(0.0, 0.5 * far),
                    Some(false),
                ),
                (Vec2::ZERO, Vec2::new(0.5 * size, 0.25 * size), None),
            ] {
                let big_placed = Transform::from_translation(big_at);
                let placed = Transform::new(offset, 0.4);
                let out = distance(&big, &big_placed, &unit_box(), &placed);
                let overlapping = overlaps(&big, &big_placed, &unit_box(), &placed);
                assert!(is_finite(&out), "size {size} sides {sides} {out:?}");
                assert_eq!(
                    out.distance == 0.0,
                    overlapping,
                    "size {size} sides {sides} {offset:?} {out:?}"
                );
                if let Some(expected) = expect_overlap {
                    assert_eq!(overlapping, expected, "size {size} sides {sides}");
                }
            }
        }
        exponent += 1;
    }
}

/// How one random pair is placed: B's centre at an offset from A's whose length is spread
/// log-uniformly from far inside the smaller shape to twice the larger one (then kept within
/// the limit).
struct Pair {
    a: Shape,
    xf_a: Transform,
    b: Shape,
    xf_b: Transform,
}

fn random_pair(rng: &mut Rng) -> Pair {
    let kind_a = CONVEX_KINDS[rng.below(CONVEX_KINDS.len())];
    let kind_b = CONVEX_KINDS[rng.below(CONVEX_KINDS.len())];
    // The larger shape anywhere from 1e-2 to the limit; the ratio up to 1e8.
    let large = rng.log_size(1e-2, 0.9 * MAX_COORDINATE);
    let small = (large / rng.log_size(1.0, 1e8)).max(1e-6);
    let (size_a, size_b) = if rng.below(2) == 0 {
        (large, small)
    } else {
        (small, large)
    };
    let a = random_shape(rng, kind_a, size_a);
    let b = random_shape(rng, kind_b, size_b);
    // Both somewhere within the range, B near A.
    let far = rng.log_size(1e-3, 0.5 * MAX_COORDINATE);
    let centre = Vec2::from_angle(rng.angle()) * far * (rng.below(2) as f32);
    let offset_length = rng.log_size(1e-3 * small, 2.0 * large);
    let offset = Vec2::from_angle(rng.angle()) * offset_length;
    Pair {
        a,
        xf_a: Transform::new(centre, rng.angle()),
        b,
        // Transforms stay within the limit (beyond it queries answer "no answer").
        xf_b: Transform::new(
            (centre + offset).clamp(Vec2::splat(-MAX_COORDINATE), Vec2::splat(MAX_COORDINATE)),
            rng.angle(),
        ),
    }
}

#[test]
fn distance_is_zero_exactly_when_overlapping_over_the_whole_range() {
    let mut rng = Rng(0xd157_a9ce);
    let mut overlapping_pairs = 0;
    let mut disagreements = Vec::new();
    const PAIRS: usize = 120_000;
    for case in 0..PAIRS {
        let pair = random_pair(&mut rng);
        let out = distance(&pair.a, &pair.xf_a, &pair.b, &pair.xf_b);
        let mirrored = distance(&pair.b, &pair.xf_b, &pair.a, &pair.xf_a);
        let overlapping = overlaps(&pair.a, &pair.xf_a, &pair.b, &pair.xf_b);
        let manifold = collide(&pair.a, &pair.xf_a, &pair.b, &pair.xf_b);
        assert!(
            is_finite(&out) && is_finite(&mirrored),
            "case {case}: {out:?} {mirrored:?}"
        );
        assert!(out.distance >= 0.0);
        assert!(
            manifold.normal.is_finite()
                && manifold.points[..manifold.count]
                    .iter()
                    .all(|point| point.point.is_finite() && point.penetration.is_finite()),
            "case {case}: {manifold:?}"
        );
        overlapping_pairs += usize::from(overlapping);
        if (out.distance == 0.0) != overlapping
            || (mirrored.distance == 0.0) != overlapping
            || manifold.is_empty() == overlapping
        {
            disagreements.push((case, out.distance, mirrored.distance, overlapping));
        }
    }
    assert!(
        disagreements.is_empty(),
        "{} of {PAIRS} disagree, first {:?}",
        disagreements.len(),
        &disagreements[..disagreements.len().min(10)]
    );
    // Both answers are well represented.
    assert!(overlapping_pairs > PAIRS / 5 && overlapping_pairs < PAIRS * 4 / 5);
}
