//! Differential tests against Box2D v3's manifold functions (through `boxdd-sys`), a second
//! referee beside parry2d, on the pair families whose conventions match ours: circles, capsules
//! and polygons (sharp and rounded, up to 8 vertices).
//!
//! Box2D answers in A's frame with the normal from A to B and a signed separation per point;
//! points with a positive separation are speculative (Box2D keeps them for its solver) and are
//! left out here. Sizes 0.1–10 (Box2D assumes metre-scale shapes: its welding and speculative
//! distances are fixed lengths), positions within ±1,000. With `size` the larger shape's
//! bounding diagonal, where Box2D sees an overlap deeper than 1e-3 × size, per case:
//! - ours must report a contact;
//! - our deepest penetration matches Box2D's within 1e-3 × size;
//! - our normal matches Box2D's within 1e-3 rad where the normal is unique (as in
//!   `manifold_parry.rs`).
//!
//! Where ours and Box2D's differ, the exact `f64` referee decides: ours must match it. Each
//! family prints its rates of agreement with Box2D, including how often both report the same
//! number of points.

use crate::box2d;
use crate::manifold_common;

use box2d::{b2LocalManifold, b2Transform};
use collide2d::shape::Shape;
use collide2d::{collide, Transform, Vec2};
use manifold_common::axis_gap::sat_axis_gap;
use manifold_common::{
    angle_between, exact, make_shape, placements_within_reach, rounding, shape_size, Kind, Rng,
};

const CASES: usize = 20_000;

/// One of Box2D's shape types for one of ours.
enum Box2dShape {
    Circle(box2d::b2Circle),
    Capsule(box2d::b2Capsule),
    Polygon(box2d::b2Polygon),
}

fn to_box2d(shape: &Shape) -> Option<Box2dShape> {
    Some(match shape {
        Shape::Circle(c) => Box2dShape::Circle(box2d::b2Circle {
            center: box2d::vec(c.center()),
            radius: c.radius(),
        }),
        Shape::Capsule(c) => Box2dShape::Capsule(box2d::capsule(c)),
        Shape::Polygon(p) => Box2dShape::Polygon(box2d::try_polygon(p)?),
        _ => return None,
    })
}

/// Box2D's manifold for A and B in world space: the normal from A to B and the penetrations of
/// its non-speculative points. Box2D takes the polygon first against circles and capsules, so
/// those pairs are asked the other way round and turned back.
fn box2d_manifold(
    a: &Shape,
    xf_a: &Transform,
    b: &Shape,
    xf_b: &Transform,
) -> Option<(Vec2, Vec<f32>)> {
    let (shape_a, shape_b) = (to_box2d(a)?, to_box2d(b)?);
    let (b2_a, b2_b) = (box2d::transform(xf_a), box2d::transform(xf_b));
    let relative = |first: &b2Transform, second: &b2Transform| box2d::inv_mul(first, second);
    let (local, flipped): (b2LocalManifold, bool) = match (&shape_a, &shape_b) {
        (Box2dShape::Circle(p), Box2dShape::Circle(q)) => {
            (box2d::collide_circles(p, q, relative(&b2_a, &b2_b)), false)
        }
        (Box2dShape::Capsule(p), Box2dShape::Capsule(q)) => {
            (box2d::collide_capsules(p, q, relative(&b2_a, &b2_b)), false)
        }
        (Box2dShape::Polygon(p), Box2dShape::Polygon(q)) => {
            (box2d::collide_polygons(p, q, relative(&b2_a, &b2_b)), false)
        }
        (Box2dShape::Polygon(p), Box2dShape::Circle(q)) => (
            box2d::collide_polygon_circle(p, q, relative(&b2_a, &b2_b)),
            false,
        ),
        (Box2dShape::Circle(q), Box2dShape::Polygon(p)) => (
            box2d::collide_polygon_circle(p, q, relative(&b2_b, &b2_a)),
            true,
        ),
        (Box2dShape::Polygon(p), Box2dShape::Capsule(q)) => (
            box2d::collide_polygon_capsule(p, q, relative(&b2_a, &b2_b)),
            false,
        ),
        (Box2dShape::Capsule(q), Box2dShape::Polygon(p)) => (
            box2d::collide_polygon_capsule(p, q, relative(&b2_b, &b2_a)),
            true,
        ),
        _ => return None,
    };
    let frame = if flipped { xf_b } else { xf_a };
    let normal = frame.rotate(Vec2::new(local.normal.x, local.normal.y));
    let normal = if flipped { -normal } else { normal };
    let penetrations = local.points[..local.pointCount as usize]
        .iter()
        .filter(|point| point.separation <= 0.0)
        .map(|point| -point.separation)
        .collect();
    Some((normal, penetrations))
}

#[derive(Default)]
struct Tally {
    compared: usize,
    unsupported: usize,
    depth_agree: usize,
    normal_checked: usize,
    normal_agree: usize,
    count_agree: usize,
    /// Disagreements with Box2D where ours matches the exact referee (depth, normal).
    box2d_off: [usize; 2],
    /// Answers of ours that neither Box2D nor the exact referee confirms.
    failures: Vec<String>,
}

fn run_family(kind_a: Kind, kind_b: Kind, seed: u64) -> Tally {
    let mut tally = Tally::default();
    let mut rng = Rng(seed);
    for case in 0..CASES {
        let a = make_shape(kind_a, rng.log_size(0.1, 10.0), &mut rng);
        let b = make_shape(kind_b, rng.log_size(0.1, 10.0), &mut rng);
        let (xf_a, xf_b) = placements_within_reach(&a, &b, 0.9, &mut rng);
        let size = shape_size(&a).max(shape_size(&b));
        let describe = || format!("case {case}: A = {a:?} at {xf_a:?}; B = {b:?} at {xf_b:?}");
        let Some((box2d_normal, box2d_points)) = box2d_manifold(&a, &xf_a, &b, &xf_b) else {
            tally.unsupported += 1;
            continue;
        };
        let box2d_depth = box2d_points
            .iter()
            .copied()
            .fold(f32::NEG_INFINITY, f32::max);
        if box2d_depth <= 1e-3 * size {
            continue;
        }
        tally.compared += 1;
        let manifold = collide(&a, &xf_a, &b, &xf_b);
        let truth = exact::exact(
            &exact::core(&a, &xf_a, xf_a.p).expect("a convex shape"),
            &exact::core(&b, &xf_b, xf_a.p).expect("a convex shape"),
        );
        let exact_size = f64::from(size);
        if manifold.is_empty() {
            if truth.depth > 1e-4 * exact_size {
                tally.failures.push(format!(
                    "no contact, Box2D depth {box2d_depth}, exact {}; {}",
                    truth.depth,
                    describe()
                ));
            }
            continue;
        }
        if manifold.count == box2d_points.len() {
            tally.count_agree += 1;
        }

        // 1. Deepest penetration.
        let depth = manifold.max_penetration();
        let depth_is_exact = (f64::from(depth) - truth.depth).abs() <= 1e-3 * exact_size;
        if (depth - box2d_depth).abs() <= 1e-3 * size {
            tally.depth_agree += 1;
        } else if depth_is_exact {
            tally.box2d_off[0] += 1;
        } else {
            tally.failures.push(format!(
                "depth: ours {depth}, Box2D {box2d_depth}, exact {}; {}",
                truth.depth,
                describe()
            ));
        }

        // 2. The normal, where it is unique.
        let radii = rounding(&a) + rounding(&b);
        let unique = sat_axis_gap(&a, &xf_a, &b, &xf_b) > 1e-3 * size
            && !(radii > 0.0 && (radii - depth).abs() < 1e-3 * size)
            && depth > 1e-3 * size;
        if unique {
            tally.normal_checked += 1;
            let angle = angle_between(manifold.normal, box2d_normal);
            let off = exact::angle_to(&truth, manifold.normal);
            if angle <= 1e-3 {
                tally.normal_agree += 1;
            } else if off <= 1e-3 {
                tally.box2d_off[1] += 1;
            } else {
                tally.failures.push(format!(
                    "normal: ours {:?}, Box2D {box2d_normal:?}, exact {:?}; {}",
                    manifold.normal,
                    truth.normal,
                    describe()
                ));
            }
        }
    }
    tally
}

fn check_family(name: &str, kind_a: Kind, kind_b: Kind, seed: u64) {
    let tally = run_family(kind_a, kind_b, seed);
    let percent = |agree: usize, total: usize| 100.0 * agree as f64 / total.max(1) as f64;
    println!(
        "{name}: {} overlapping cases compared ({} not expressible in Box2D); with Box2D: depth \
         agree {:.3}%, normal agree {:.3}% of {}, same point count {:.3}%; where Box2D differs, \
         the exact answer is ours: depth {}, normal {}; {} failures",
        tally.compared,
        tally.unsupported,
        percent(tally.depth_agree, tally.compared),
        percent(tally.normal_agree, tally.normal_checked),
        tally.normal_checked,
        percent(tally.count_agree, tally.compared),
        tally.box2d_off[0],
        tally.box2d_off[1],
        tally.failures.len(),
    );
    for failure in tally.failures.iter().take(5) {
        println!("  {failure}");
    }
    assert!(
        tally.compared > CASES / 4,
        "{name}: too few overlapping cases"
    );
    assert!(
        tally.failures.is_empty(),
        "{name}: {} answers differ from both Box2D and the exact referee",
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

family!(circle_circle_against_box2d, Kind::Circle, Kind::Circle, 41);
family!(
    circle_polygon_against_box2d,
    Kind::Circle,
    Kind::Polygon,
    42
);
family!(
    circle_rounded_polygon_against_box2d,
    Kind::Circle,
    Kind::RoundedPolygon,
    43
);
family!(
    capsule_capsule_against_box2d,
    Kind::Capsule,
    Kind::Capsule,
    44
);
family!(
    capsule_polygon_against_box2d,
    Kind::Capsule,
    Kind::Polygon,
    45
);
family!(
    capsule_rounded_polygon_against_box2d,
    Kind::Capsule,
    Kind::RoundedPolygon,
    46
);
family!(
    polygon_polygon_against_box2d,
    Kind::Polygon,
    Kind::Polygon,
    47
);
family!(
    polygon_rounded_polygon_against_box2d,
    Kind::Polygon,
    Kind::RoundedPolygon,
    48
);
family!(
    rounded_polygon_rounded_polygon_against_box2d,
    Kind::RoundedPolygon,
    Kind::RoundedPolygon,
    49
);
