//! Properties every manifold must have, checked on random configurations of every pair family.

use crate::manifold_common;

use collide2d::query::Manifold;
use collide2d::shape::Shape;
use collide2d::{collide, collide_speculative, overlaps, Transform, Vec2};
use manifold_common::axis_gap::sat_axis_gap;
use manifold_common::{
    make_shape, moved, part, placements, rounding, shape_size, Kind, Rng, ALL_KINDS,
};
use proptest::prelude::*;

const CASES: u32 = 10_000;

/// Whether the normal is clearly determined (no near-tie between distinct SAT axes).
fn normal_is_unique(a: &Shape, xf_a: &Transform, b: &Shape, xf_b: &Transform, scale: f32) -> bool {
    sat_axis_gap(a, xf_a, b, xf_b) > 1e-3 * scale
}

fn is_finite(m: &Manifold) -> bool {
    m.normal.is_finite()
        && m.points()
            .iter()
            .all(|p| p.point.is_finite() && p.penetration.is_finite())
}

/// Every point of `expected` deeper than `tolerance` has a match in `actual`.
fn points_match(expected: &Manifold, actual: &Manifold, tolerance: f32) -> bool {
    expected
        .points()
        .iter()
        .filter(|p| p.penetration > tolerance)
        .all(|p| {
            actual.points().iter().any(|q| {
                (q.point - p.point).length() <= tolerance
                    && (q.penetration - p.penetration).abs() <= tolerance
            })
        })
}

/// All the properties for one configuration.
fn check_all(
    a: &Shape,
    xf_a: &Transform,
    b: &Shape,
    xf_b: &Transform,
    motion: &Transform,
) -> Result<(), TestCaseError> {
    let scale = shape_size(a).max(shape_size(b));
    let tolerance = 1e-3 * scale;
    // Composing the motion in world coordinates rounds positions by about an ulp of their size.
    let far = xf_a
        .p
        .abs()
        .max_element()
        .max(motion.mul(xf_a).p.abs().max_element())
        + 1.0;
    let motion_tolerance = tolerance + 1e-6 * far;
    let m = collide(a, xf_a, b, xf_b);
    // A normal along the line between two nearly coincident cores turns with that rounding.
    let radii = rounding(&part(a, xf_a, m.child_a).0) + rounding(&part(b, xf_b, m.child_b).0);
    let core_distance = (radii - m.max_penetration()).max(1e-9);
    let motion_angle_tolerance =
        1e-3 + 1e-5 * far / shape_size(a).min(shape_size(b)).min(core_distance);
    let motion_tolerance = motion_tolerance + radii * motion_angle_tolerance;
    prop_assert!(is_finite(&m), "non-finite manifold {:?}", m);
    if !m.is_empty() {
        prop_assert!(
            (m.normal.length() - 1.0).abs() < 1e-4,
            "normal not unit: {:?}",
            m
        );
    }

    // overlaps == !collide.is_empty(), both orders.
    prop_assert_eq!(
        overlaps(a, xf_a, b, xf_b),
        !m.is_empty(),
        "overlaps disagrees with {:?}",
        m
    );
    let w = collide(b, xf_b, a, xf_a);
    prop_assert_eq!(
        overlaps(b, xf_b, a, xf_a),
        !w.is_empty(),
        "overlaps (swapped) disagrees with {:?}",
        w
    );

    // contacts with a margin: a superset, never below -margin.
    let margin = 0.05 * scale;
    let speculative = collide_speculative(a, xf_a, b, xf_b, margin);
    prop_assert!(
        m.is_empty() || !speculative.is_empty(),
        "margin lost the contact"
    );
    prop_assert!(speculative
        .points()
        .iter()
        .all(|p| p.penetration >= -margin * (1.0 + 1e-5) - 1e-6 * scale));
    prop_assert!(
        m.points().iter().all(|p| p.penetration >= -1e-6 * scale),
        "negative penetration in collide: {:?}",
        m
    );
    prop_assert_eq!(collide_speculative(a, xf_a, b, xf_b, 0.0), m);

    let unique = {
        let (part_a, part_xf_a) = part(a, xf_a, m.child_a);
        let (part_b, part_xf_b) = part(b, xf_b, m.child_b);
        normal_is_unique(&part_a, &part_xf_a, &part_b, &part_xf_b, scale)
    };

    // Swapping A and B negates the normal and keeps points and penetrations.
    if m.is_empty() != w.is_empty() {
        let deepest = m.max_penetration().max(w.max_penetration());
        prop_assert!(
            deepest <= tolerance,
            "swapping changed emptiness: {:?} vs {:?}",
            m,
            w
        );
    } else if !m.is_empty() {
        prop_assert!(
            (m.max_penetration() - w.max_penetration()).abs() <= tolerance,
            "swap depth {:?} vs {:?}",
            m,
            w
        );
        // Compounds: a different child pair of (nearly) the same depth may win the other way.
        let same_children = m.child_a == w.child_b && m.child_b == w.child_a;
        if unique && same_children {
            prop_assert!(
                (m.normal + w.normal).length() <= 1e-3,
                "swap normal {:?} vs {:?}",
                m,
                w
            );
            prop_assert!(
                points_match(&m, &w, tolerance) && points_match(&w, &m, tolerance),
                "swap points {:?} vs {:?}",
                m,
                w
            );
        }
    }

    // Moving and rotating both shapes together moves the manifold with them.
    let mm = collide(a, &motion.mul(xf_a), b, &motion.mul(xf_b));
    let expected = moved(&m, motion);
    if m.is_empty() != mm.is_empty() {
        prop_assert!(
            m.max_penetration().max(mm.max_penetration()) <= motion_tolerance,
            "motion changed emptiness: {:?} vs {:?}",
            m,
            mm
        );
    } else if !m.is_empty() {
        prop_assert!(
            (m.max_penetration() - mm.max_penetration()).abs() <= motion_tolerance,
            "motion depth {:?} vs {:?}",
            expected,
            mm
        );
        let same_children = m.child_a == mm.child_a && m.child_b == mm.child_b;
        if unique && same_children {
            prop_assert!(
                (expected.normal - mm.normal).length() <= motion_angle_tolerance,
                "motion normal {:?} vs {:?}",
                expected,
                mm
            );
            prop_assert!(
                points_match(&expected, &mm, motion_tolerance),
                "motion points {:?} vs {:?}",
                expected,
                mm
            );
        }
    }

    if m.is_empty() {
        return Ok(());
    }
    let (part_a, part_xf_a) = part(a, xf_a, m.child_a);
    let (part_b, part_xf_b) = part(b, xf_b, m.child_b);

    // Pushing B along the normal by the penetration (+1e-3) separates the touching parts.
    let push = m.normal * (m.max_penetration() + tolerance);
    let pushed = Transform {
        p: part_xf_b.p + push,
        q: part_xf_b.q,
    };
    prop_assert!(
        !overlaps(&part_a, &part_xf_a, &part_b, &pushed),
        "still overlapping after the push: {:?}",
        m
    );

    // Every point lies midway between the surfaces.
    for p in m.points() {
        let distance_a = part_a.project_point(&part_xf_a, p.point).distance;
        let distance_b = part_b.project_point(&part_xf_b, p.point).distance;
        let half = 0.5 * p.penetration.abs();
        prop_assert!(
            distance_a <= half + tolerance && distance_b <= half + tolerance,
            "point {:?} is {} from A and {} from B (penetration {}) in {:?}",
            p.point,
            distance_a,
            distance_b,
            p.penetration,
            m
        );
    }
    Ok(())
}

fn run_family(kind_a: Kind, kind_b: Kind, seed: u64) -> Result<(), TestCaseError> {
    let mut rng = Rng(seed | 1);
    let size_a = rng.log_size(0.1, 10.0);
    let size_b = rng.log_size(0.1, 10.0);
    let a = make_shape(kind_a, size_a, &mut rng);
    let b = make_shape(kind_b, size_b, &mut rng);
    let (xf_a, xf_b) = placements(size_a, size_b, 50.0, &mut rng);
    let motion = Transform::new(
        Vec2::new(rng.range(-50.0, 50.0), rng.range(-50.0, 50.0)),
        rng.range(0.0, std::f32::consts::TAU),
    );
    check_all(&a, &xf_a, &b, &xf_b, &motion).map_err(|e| {
        TestCaseError::fail(format!(
            "seed {seed}: {e}\nA = {a:?} at {xf_a:?}\nB = {b:?} at {xf_b:?}"
        ))
    })
}

macro_rules! family {
    ($name:ident, $a:expr, $b:expr) => {
        proptest! {
            #![proptest_config(ProptestConfig { cases: CASES, failure_persistence: None, ..ProptestConfig::default() })]
            #[test]
            fn $name(seed in any::<u64>()) {
                run_family($a, $b, seed)?;
            }
        }
    };
}

family!(circle_circle_properties, Kind::Circle, Kind::Circle);
family!(circle_capsule_properties, Kind::Circle, Kind::Capsule);
family!(circle_segment_properties, Kind::Circle, Kind::Segment);
family!(circle_polygon_properties, Kind::Circle, Kind::Polygon);
family!(
    circle_rounded_polygon_properties,
    Kind::Circle,
    Kind::RoundedPolygon
);
family!(capsule_capsule_properties, Kind::Capsule, Kind::Capsule);
family!(capsule_segment_properties, Kind::Capsule, Kind::Segment);
family!(capsule_polygon_properties, Kind::Capsule, Kind::Polygon);
family!(
    capsule_rounded_polygon_properties,
    Kind::Capsule,
    Kind::RoundedPolygon
);
family!(segment_segment_properties, Kind::Segment, Kind::Segment);
family!(segment_polygon_properties, Kind::Segment, Kind::Polygon);
family!(
    segment_rounded_polygon_properties,
    Kind::Segment,
    Kind::RoundedPolygon
);
family!(polygon_polygon_properties, Kind::Polygon, Kind::Polygon);
family!(
    polygon_rounded_polygon_properties,
    Kind::Polygon,
    Kind::RoundedPolygon
);
family!(
    rounded_polygon_rounded_polygon_properties,
    Kind::RoundedPolygon,
    Kind::RoundedPolygon
);
family!(compound_circle_properties, Kind::Compound, Kind::Circle);
family!(compound_polygon_properties, Kind::Compound, Kind::Polygon);
family!(compound_compound_properties, Kind::Compound, Kind::Compound);

/// Replays one failing seed: `REPLAY=seed cargo test --test manifold_props replay -- --ignored`.
#[test]
#[ignore]
fn replay() {
    let seed: u64 = std::env::var("REPLAY")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    for a in ALL_KINDS {
        for b in ALL_KINDS {
            if let Err(e) = run_family(a, b, seed) {
                println!("{a:?}-{b:?}: {e}");
            }
        }
    }
}

/// An exact reference for circles against rounded polygons (the family where parry2d disagrees
/// most): the normal points from the circle's centre to the closest point of the polygon.
#[test]
fn circle_normal_points_to_the_closest_surface_point() {
    let mut rng = Rng(15);
    let mut bad = 0;
    let mut total = 0;
    for _ in 0..20000 {
        let size_a = rng.log_size(0.01, 100.0);
        let size_b = rng.log_size(0.01, 100.0);
        let a = make_shape(Kind::Circle, size_a, &mut rng);
        let b = make_shape(Kind::RoundedPolygon, size_b, &mut rng);
        let a = match a {
            Shape::Circle(c) => {
                Shape::from(collide2d::shape::Circle::with_radius(c.radius()).unwrap())
            }
            o => o,
        };
        let xf_a = Transform::new(
            Vec2::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0)),
            rng.range(0.0, std::f32::consts::TAU),
        );
        let d = rng.range(0.0, std::f32::consts::TAU);
        let reach = 0.5 * (shape_size(&a) + shape_size(&b));
        let xf_b = Transform::new(
            xf_a.p + Vec2::new(d.cos(), d.sin()) * reach * rng.range(0.0, 1.1),
            rng.range(0.0, std::f32::consts::TAU),
        );
        let m = collide(&a, &xf_a, &b, &xf_b);
        if m.is_empty() {
            continue;
        }
        // Independent: the closest boundary point of B to A's centre (outside B) or push-out (inside).
        let projection = b.project_point(&xf_b, xf_a.p);
        if projection.inside || projection.distance < 1e-3 * size_b {
            continue;
        }
        total += 1;
        let expected = (projection.point - xf_a.p).normalize();
        // The reference is computed in world space: allow for its rounding near the surface.
        if (expected - m.normal).length()
            > 1e-3 + 1e-6 * (1.0 + xf_a.p.length()) / projection.distance
        {
            bad += 1;
            println!("ours {:?} expected {:?} {:?}", m.normal, expected, m);
        }
    }
    assert_eq!(
        bad, 0,
        "{bad} of {total} normals disagree with the exact projection"
    );
}

/// Regressions: swapping two shapes of the same kind once picked a different reference edge
/// (capsule–capsule, one point against two) or a different axis (rounded polygon–polygon).
#[test]
fn swapping_same_kind_shapes_mirrors_exactly() {
    run_family(Kind::Capsule, Kind::Capsule, 12778189556823603480).unwrap();
    run_family(Kind::RoundedPolygon, Kind::Polygon, 9510589591716623119).unwrap();
}
