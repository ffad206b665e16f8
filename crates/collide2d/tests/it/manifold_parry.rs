//! Differential tests against parry2d 0.31 on random configurations of every convex pair family,
//! with an exact `f64` referee ([`manifold_common::exact`]) for every case.
//!
//! Sizes 0.01–100, positions within ±1,000. Per family this compares, with `size` the larger
//! shape's bounding diagonal:
//! - `overlaps` with parry's `intersection_test`, except where parry's signed distance is within
//!   1e-4 × size of zero (either answer is right to rounding);
//! - our deepest penetration with parry's `-contact.dist`, within 1e-3 × size;
//! - our normal with parry's, within 1e-3 rad, where the normal is unique (the best and
//!   second-best separating axes differ by more than 1e-3 × size, and rounded cores are not
//!   within 1e-3 × size of touching).
//!
//! The same three answers of ours are also compared with the exact referee on every case. A
//! family fails on any case where ours is not within those bounds of the exact answer; where
//! ours and parry's differ, the referee decides, and the test counts how often it sided with
//! us. Each family prints its rates of agreement with parry and the configurations of the
//! first failures.

use crate::manifold_common;

use collide2d::shape::Shape;
use collide2d::{collide, overlaps, Transform};
use manifold_common::axis_gap::sat_axis_gap;
use manifold_common::{
    angle_between, exact, make_shape, part, placements_within_reach, rounding, shape_size, Kind,
    Rng,
};
use parry2d::math::{Pose, Rot2, Vector};
use parry2d::shape::{ConvexPolygon, RoundShape, SharedShape};

const CASES: usize = 100_000;

fn vector(v: collide2d::Vec2) -> Vector {
    Vector::new(v.x, v.y)
}

/// The parry shape and pose for one of ours (a circle's offset centre goes into the pose).
fn to_parry(shape: &Shape, xf: &Transform) -> (SharedShape, Pose) {
    let pose = |xf: &Transform| {
        Pose::from_parts(vector(xf.p), Rot2::from_cos_sin_unchecked(xf.q.c, xf.q.s))
    };
    match shape {
        Shape::Circle(c) => {
            let centre = Transform {
                p: xf.apply(c.center()),
                q: xf.q,
            };
            (SharedShape::ball(c.radius()), pose(&centre))
        }
        Shape::Capsule(c) => (
            SharedShape::capsule(vector(c.a()), vector(c.b()), c.radius()),
            pose(xf),
        ),
        Shape::Segment(s) => (SharedShape::segment(vector(s.a()), vector(s.b())), pose(xf)),
        Shape::Polygon(p) => {
            let points: Vec<Vector> = p.vertices().iter().map(|v| vector(*v)).collect();
            // The outline exactly as ours (no re-simplification), rounded when ours is.
            let polygon = ConvexPolygon::from_convex_polyline_unmodified(points)
                .expect("a valid convex polygon");
            let parry_shape = if p.radius() > 0.0 {
                SharedShape::new(RoundShape {
                    inner_shape: polygon,
                    border_radius: p.radius(),
                })
            } else {
                SharedShape::new(polygon)
            };
            (parry_shape, pose(xf))
        }
        Shape::Compound(compound) => {
            let children = compound
                .children()
                .iter()
                .map(|(child_xf, child)| to_parry(child, child_xf))
                .map(|(child, child_pose)| (child_pose, child))
                .collect();
            (SharedShape::compound(children), pose(xf))
        }
        Shape::Chain(_) => unreachable!("chains are not compared"),
    }
}

/// Circles centred on their local origin (parry's ball has no offset; baking one into a pose a
/// thousand units away would round it by more than the tolerances).
fn centred(shape: Shape) -> Shape {
    match shape {
        Shape::Circle(c) => Shape::from(collide2d::shape::Circle::with_radius(c.radius()).unwrap()),
        other => other,
    }
}

#[derive(Default)]
struct Tally {
    cases: usize,
    overlapping: usize,
    boolean_agree: usize,
    boolean_exempt: usize,
    depth_checked: usize,
    depth_agree: usize,
    normal_checked: usize,
    normal_agree: usize,
    unsupported: usize,
    /// Disagreements with parry where ours matches the exact referee (overlap, depth, normal).
    parry_off: [usize; 3],
    /// Depths and normals of ours compared with the exact referee.
    exact_checked: [usize; 2],
    /// Answers of ours that the exact referee does not confirm.
    failures: Vec<String>,
}

fn run_family(kind_a: Kind, kind_b: Kind, seed: u64) -> Tally {
    let mut tally = Tally::default();
    let mut rng = Rng(seed);
    for case in 0..CASES {
        let size_a = rng.log_size(0.01, 100.0);
        let size_b = rng.log_size(0.01, 100.0);
        let a = centred(make_shape(kind_a, size_a, &mut rng));
        let b = centred(make_shape(kind_b, size_b, &mut rng));
        let (xf_a, xf_b) = placements_within_reach(&a, &b, 1.1, &mut rng);
        let size = shape_size(&a).max(shape_size(&b));
        let describe = || format!("case {case}: A = {a:?} at {xf_a:?}; B = {b:?} at {xf_b:?}");

        // parry runs about A's position: its `Pose::inv_mul` inverts first, which loses the
        // digits of a small offset a thousand units from the origin. Our calls stay far away.
        let shift = |xf: &Transform| Transform {
            p: xf.p - xf_a.p,
            q: xf.q,
        };
        let (parry_a, pose_a) = to_parry(&a, &shift(&xf_a));
        let (parry_b, pose_b) = to_parry(&b, &shift(&xf_b));
        let parry_overlap =
            parry2d::query::intersection_test(&pose_a, &*parry_a, &pose_b, &*parry_b);
        let parry_contact = parry2d::query::contact(&pose_a, &*parry_a, &pose_b, &*parry_b, 0.0);
        let parry_distance = parry2d::query::distance(&pose_a, &*parry_a, &pose_b, &*parry_b);
        let (Ok(parry_overlap), Ok(parry_contact), Ok(parry_distance)) =
            (parry_overlap, parry_contact, parry_distance)
        else {
            tally.unsupported += 1;
            continue;
        };
        tally.cases += 1;
        let parry_overlap = parry_overlap.intersecting;

        // 1. The overlap boolean.
        let ours = overlaps(&a, &xf_a, &b, &xf_b);
        let manifold = collide(&a, &xf_a, &b, &xf_b);
        let signed_distance = match parry_contact {
            Some(contact) if contact.dist <= 0.0 => contact.dist,
            _ => parry_distance.distance,
        };
        // The exact answer (positions relative to A's, as parry's are); for compounds, the
        // deepest pair of children, and how far ahead of the next pair it is.
        let (truth, (child_a, child_b), lead) = exact::deepest(
            &exact::cores(&a, &xf_a, xf_a.p),
            &exact::cores(&b, &xf_b, xf_a.p),
        );
        let exact_size = f64::from(size);
        let overlap_is_exact =
            ours == (truth.depth >= 0.0) || truth.depth.abs() < 1e-4 * exact_size;
        if !overlap_is_exact {
            tally.failures.push(format!(
                "overlap: ours {ours}, exact depth {}; {}",
                truth.depth,
                describe()
            ));
        }
        if !manifold.is_empty() {
            let depth = f64::from(manifold.max_penetration());
            tally.exact_checked[0] += 1;
            if (depth - truth.depth).abs() > 1e-3 * exact_size {
                tally.failures.push(format!(
                    "depth: ours {depth}, exact {}; {}",
                    truth.depth,
                    describe()
                ));
            }
        }
        if ours == parry_overlap {
            tally.boolean_agree += 1;
        } else if signed_distance.abs() < 1e-4 * size {
            tally.boolean_exempt += 1;
        } else if overlap_is_exact {
            tally.parry_off[0] += 1;
        }

        // 2. Depth and normal where both see an overlap.
        let Some(contact) = parry_contact else {
            continue;
        };
        if manifold.is_empty() || contact.dist > 0.0 {
            continue;
        }
        tally.overlapping += 1;
        let depth = manifold.max_penetration();
        tally.depth_checked += 1;
        if (depth - (-contact.dist)).abs() <= 1e-3 * size {
            tally.depth_agree += 1;
        } else if (f64::from(depth) - truth.depth).abs() <= 1e-3 * exact_size {
            tally.parry_off[1] += 1;
        }
        // Uniqueness is judged on the pair of convex pieces that decides (compounds: the
        // deepest pair of children, which must lead the next one clearly).
        let (piece_a, piece_xf_a) = part(&a, &xf_a, child_a);
        let (piece_b, piece_xf_b) = part(&b, &xf_b, child_b);
        let radii = rounding(&piece_a) + rounding(&piece_b);
        let core_distance = radii - depth;
        let unique = sat_axis_gap(&piece_a, &piece_xf_a, &piece_b, &piece_xf_b) > 1e-3 * size
            && !(radii > 0.0 && core_distance.abs() < 1e-3 * size)
            && depth > 1e-3 * size
            && lead > 1e-3 * exact_size;
        let off = exact::angle_to(&truth, manifold.normal);
        if unique {
            tally.exact_checked[1] += 1;
            if off > 1e-3 {
                tally.failures.push(format!(
                    "normal: ours {:?}, exact {:?} ({off} rad apart), depth {depth}; {}",
                    manifold.normal,
                    truth.normal,
                    describe()
                ));
            }
            tally.normal_checked += 1;
            let parry_normal = collide2d::Vec2::new(contact.normal1.x, contact.normal1.y);
            let angle = angle_between(manifold.normal, parry_normal);
            if angle <= 1e-3 {
                tally.normal_agree += 1;
            } else if off <= 1e-3 {
                tally.parry_off[2] += 1;
            }
        }
    }
    tally
}

fn check_family(name: &str, kind_a: Kind, kind_b: Kind, seed: u64) {
    let tally = run_family(kind_a, kind_b, seed);
    let percent = |agree: usize, total: usize| {
        if total == 0 {
            100.0
        } else {
            100.0 * agree as f64 / total as f64
        }
    };
    println!(
        "{name}: {} cases ({} overlapping, {} unsupported by parry); with parry: overlap agree \
         {:.3}% ({} exempt near zero distance), depth agree {:.3}% of {}, normal agree {:.3}% of \
         {}; where parry differs, the exact answer is ours: overlap {}, depth {}, normal {}; \
         against the exact answer: {} depths and {} normals checked, {} failures",
        tally.cases,
        tally.overlapping,
        tally.unsupported,
        percent(tally.boolean_agree + tally.boolean_exempt, tally.cases),
        tally.boolean_exempt,
        percent(tally.depth_agree, tally.depth_checked),
        tally.depth_checked,
        percent(tally.normal_agree, tally.normal_checked),
        tally.normal_checked,
        tally.parry_off[0],
        tally.parry_off[1],
        tally.parry_off[2],
        tally.exact_checked[0],
        tally.exact_checked[1],
        tally.failures.len(),
    );
    for failure in tally.failures.iter().take(5) {
        println!("  {failure}");
    }
    // parry's GJK/EPA path answers some deep or near-degenerate cases differently (and at times
    // inconsistently with its own `distance`); the referee settles each of those. Ours must
    // always match it.
    assert!(
        tally.failures.is_empty(),
        "{name}: {} answers differ from the exact ones",
        tally.failures.len()
    );
}

macro_rules! family {
    ($name:ident, $a:expr, $b:expr, $seed:expr) => {
        #[test]
        fn $name() {
            check_family(stringify!($name), $a, $b, $seed);
        }
    };
}

family!(circle_circle_against_parry, Kind::Circle, Kind::Circle, 11);
family!(
    circle_capsule_against_parry,
    Kind::Circle,
    Kind::Capsule,
    12
);
family!(
    circle_segment_against_parry,
    Kind::Circle,
    Kind::Segment,
    13
);
family!(
    circle_polygon_against_parry,
    Kind::Circle,
    Kind::Polygon,
    14
);
// parry's ball–round-polygon normals are the outlier here; `manifold_props` checks ours against
// an exact closest-point reference instead.
family!(
    circle_rounded_polygon_against_parry,
    Kind::Circle,
    Kind::RoundedPolygon,
    15
);
family!(
    capsule_capsule_against_parry,
    Kind::Capsule,
    Kind::Capsule,
    16
);
family!(
    capsule_segment_against_parry,
    Kind::Capsule,
    Kind::Segment,
    17
);
family!(
    capsule_polygon_against_parry,
    Kind::Capsule,
    Kind::Polygon,
    18
);
family!(
    capsule_rounded_polygon_against_parry,
    Kind::Capsule,
    Kind::RoundedPolygon,
    19
);
family!(
    segment_polygon_against_parry,
    Kind::Segment,
    Kind::Polygon,
    20
);
family!(
    segment_rounded_polygon_against_parry,
    Kind::Segment,
    Kind::RoundedPolygon,
    21
);
family!(
    segment_segment_against_parry,
    Kind::Segment,
    Kind::Segment,
    25
);
family!(
    compound_circle_against_parry,
    Kind::Compound,
    Kind::Circle,
    26
);
family!(
    compound_polygon_against_parry,
    Kind::Compound,
    Kind::Polygon,
    27
);
family!(
    compound_rounded_polygon_against_parry,
    Kind::Compound,
    Kind::RoundedPolygon,
    28
);
family!(
    compound_capsule_against_parry,
    Kind::Compound,
    Kind::Capsule,
    29
);
family!(
    compound_compound_against_parry,
    Kind::Compound,
    Kind::Compound,
    30
);
family!(
    polygon_polygon_against_parry,
    Kind::Polygon,
    Kind::Polygon,
    22
);
family!(
    polygon_rounded_polygon_against_parry,
    Kind::Polygon,
    Kind::RoundedPolygon,
    23
);
family!(
    rounded_polygon_rounded_polygon_against_parry,
    Kind::RoundedPolygon,
    Kind::RoundedPolygon,
    24
);

/// The referee on hand-computed cases: boxes overlapping by a quarter, circles apart, a
/// capsule across a box, a point inside a triangle, two crossing segments.
#[test]
fn exact_referee_on_hand_computed_cases() {
    use collide2d::shape::{Capsule, Circle, Polygon, Segment};
    use collide2d::Vec2;
    let at = |x: f32, y: f32| Transform::new(Vec2::new(x, y), 0.0);
    let judge = |a: &Shape, xf_a: &Transform, b: &Shape, xf_b: &Transform| {
        let core_a = exact::core(a, xf_a, Vec2::ZERO).unwrap();
        let core_b = exact::core(b, xf_b, Vec2::ZERO).unwrap();
        exact::exact(&core_a, &core_b)
    };
    let square = Shape::from(Polygon::rect(1.0, 1.0).unwrap());
    let truth = judge(&square, &at(0.0, 0.0), &square, &at(0.75, 0.1));
    assert!((truth.depth - 0.25).abs() < 1e-9, "{truth:?}");
    assert!((truth.normal[0] - 1.0).abs() < 1e-9 && truth.normal[1].abs() < 1e-9);

    let circle = Shape::from(Circle::with_radius(0.5).unwrap());
    let truth = judge(&circle, &at(0.0, 0.0), &circle, &at(0.0, 3.0));
    assert!((truth.depth + 2.0).abs() < 1e-9, "{truth:?}");
    assert!(truth.normal[0].abs() < 1e-9 && (truth.normal[1] - 1.0).abs() < 1e-9);

    // A capsule lying across the top of the square, its core 0.1 inside: depth 0.1 + 0.2.
    let capsule =
        Shape::from(Capsule::new(Vec2::new(-2.0, 0.0), Vec2::new(2.0, 0.0), 0.2).unwrap());
    let truth = judge(&square, &at(0.0, 0.0), &capsule, &at(0.0, 0.4));
    assert!((truth.depth - 0.3).abs() < 1e-7, "{truth:?}");
    assert!(truth.normal[0].abs() < 1e-9 && (truth.normal[1] - 1.0).abs() < 1e-9);

    // A point core inside a triangle, nearest the bottom edge (0.2 away), radius 0.1.
    let triangle = Shape::from(
        Polygon::new(&[
            Vec2::new(-3.0, 0.0),
            Vec2::new(3.0, 0.0),
            Vec2::new(0.0, 3.0),
        ])
        .unwrap(),
    );
    let dot = Shape::from(Circle::with_radius(0.1).unwrap());
    let truth = judge(&triangle, &at(0.0, 0.0), &dot, &at(0.0, 0.2));
    assert!((truth.depth - 0.3).abs() < 1e-7, "{truth:?}");
    assert!(truth.normal[0].abs() < 1e-9 && (truth.normal[1] + 1.0).abs() < 1e-9);

    // Two segments crossing at right angles, one reaching 0.25 past the other.
    let horizontal = Shape::from(Segment::new(Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0)).unwrap());
    let vertical = Shape::from(Segment::new(Vec2::new(0.0, -1.0), Vec2::new(0.0, 1.0)).unwrap());
    let truth = judge(&horizontal, &at(0.0, 0.0), &vertical, &at(0.75, 0.0));
    assert!((truth.depth - 0.25).abs() < 1e-7, "{truth:?}");
    assert!((truth.normal[0] - 1.0).abs() < 1e-9 && truth.normal[1].abs() < 1e-9);
}
