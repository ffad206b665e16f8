//! Rounded shapes whose cores nearly touch, or barely cross: the depth is the total radius less
//! the signed distance of the cores (their distance when apart, minus the least push that
//! parts them when they overlap), measured in `f64` against the exact outlines.
//!
//! Cores within rounding of touching overlap by their whole radii, whichever normal is chosen:
//! the depth must stay within rounding of the total radius, never fall to zero. Apart cores
//! give the closest points' depth (and, well above rounding, their direction as the normal);
//! overlapping ones the least push, give or take the reference face's tolerance.

use collide2d::query::Manifold;
use collide2d::shape::{Capsule, Circle, Polygon, Shape};
use collide2d::{collide, Transform, Vec2};

use crate::support::vec64::{
    closest_on_segment, core_edges as edges, dot, outline_holds, place64, sub, P as Point,
};
use crate::support::Rng;

/// Both outward normals of every edge (a segment has two sides).
fn axes(outline: &[Point]) -> Vec<Point> {
    let mut out = vec![];
    for (a, b) in edges(outline) {
        let d = sub(b, a);
        let length = dot(d, d).sqrt();
        if length > 0.0 {
            out.push([d[1] / length, -d[0] / length]);
            out.push([-d[1] / length, d[0] / length]);
        }
    }
    out
}

/// The signed distance of two convex cores, and the unit direction from the first to the second
/// along their closest points when they are apart.
fn signed_distance(a: &[Point], b: &[Point]) -> (f64, Option<Point>) {
    // The largest separation over both outlines' axes (both sides of a segment).
    let mut best = f64::NEG_INFINITY;
    for n in axes(a).into_iter().chain(axes(b)) {
        let a_max = a
            .iter()
            .map(|&p| dot(p, n))
            .fold(f64::NEG_INFINITY, f64::max);
        let b_min = b.iter().map(|&p| dot(p, n)).fold(f64::INFINITY, f64::min);
        best = best.max(b_min - a_max);
    }
    // The exact closest points of the outlines.
    // Each vertex of one outline against each edge of the other, kept as (distance, the point
    // on `a`, the point on `b`).
    let mut closest = (f64::INFINITY, [0.0; 2], [0.0; 2]);
    let mut nearest = |vertices: &[Point], outline: &[Point], vertices_are_b: bool| {
        for &v in vertices {
            for (s, e) in edges(outline) {
                let w = closest_on_segment(v, s, e);
                let d = dot(sub(w, v), sub(w, v)).sqrt();
                if d < closest.0 {
                    closest = if vertices_are_b { (d, w, v) } else { (d, v, w) };
                }
            }
        }
    };
    nearest(a, b, false);
    nearest(b, a, true);
    let (distance, p, q) = closest;
    let a_point_in_b = a.iter().any(|&p| outline_holds(b, p));
    let b_point_in_a = b.iter().any(|&p| outline_holds(a, p));
    let overlap = (best <= 0.0 && a.len() >= 2 && b.len() >= 2) || a_point_in_b || b_point_in_a;
    if overlap || distance == 0.0 {
        // Overlapping (a point core can only overlap by lying inside a polygon, where SAT
        // over the polygon's axes gives its depth).
        return (best.min(0.0), None);
    }
    let offset = sub(q, p);
    (distance, Some([offset[0] / distance, offset[1] / distance]))
}

/// A random shape of about `size` across (a circle, capsule, box or polygon, rounded or not):
/// its shape, core outline (local) and radius.
fn random_shape(rng: &mut Rng, size: f64) -> (Shape, Vec<Point>, f64) {
    let radius = if rng.chance(0.2) {
        0.0
    } else {
        size * rng.range_f64(0.01, 0.6)
    };
    match rng.below(4) {
        0 => {
            let circle = Circle::with_radius(radius.max(size * 0.1) as f32).unwrap();
            let r = f64::from(circle.radius());
            (Shape::from(circle), vec![[0.0, 0.0]], r)
        }
        1 => {
            let angle = rng.range_f64(-3.2, 3.2);
            let half = size * rng.range_f64(0.1, 1.0);
            let s = Vec2::new((half * angle.cos()) as f32, (half * angle.sin()) as f32);
            let capsule = Capsule::new(-s, s, radius as f32).unwrap();
            let core = vec![
                [f64::from(-s.x), f64::from(-s.y)],
                [f64::from(s.x), f64::from(s.y)],
            ];
            (Shape::from(capsule), core, f64::from(radius as f32))
        }
        2 => {
            let (width, height) = (
                size * rng.range_f64(0.4, 2.0),
                size * rng.range_f64(0.4, 2.0),
            );
            let polygon = Polygon::rect(width as f32, height as f32)
                .and_then(|p| p.with_radius(radius as f32))
                .unwrap();
            let core = polygon
                .vertices()
                .iter()
                .map(|v| [f64::from(v.x), f64::from(v.y)])
                .collect();
            let r = f64::from(polygon.radius());
            (Shape::from(polygon), core, r)
        }
        _ => loop {
            let count = 3 + rng.below(4);
            let turn = rng.range_f64(0.0, std::f64::consts::TAU);
            let points: Vec<Vec2> = (0..count)
                .map(|i| {
                    let t = turn
                        + i as f64 * std::f64::consts::TAU / count as f64
                        + rng.range_f64(-0.3, 0.3);
                    let r = size * rng.range_f64(0.4, 1.0);
                    Vec2::new((r * t.cos()) as f32, (r * t.sin()) as f32)
                })
                .collect();
            let Ok(polygon) = Polygon::new(&points).and_then(|p| p.with_radius(radius as f32))
            else {
                continue;
            };
            let core = polygon
                .vertices()
                .iter()
                .map(|v| [f64::from(v.x), f64::from(v.y)])
                .collect();
            let r = f64::from(polygon.radius());
            break (Shape::from(polygon), core, r);
        },
    }
}

/// One random pair of the sweep, each shape turned at random: B's core vertex placed a gap of
/// 1e-7 to 1e-1 of the size from a point of A's core (a vertex or a point of an edge), in any
/// direction (apart or crossing).
struct Case {
    a: Shape,
    xf_a: Transform,
    b: Shape,
    xf_b: Transform,
    /// Total radius less the signed core distance.
    depth: f64,
    /// The unit direction from A's core to B's, when they are apart.
    direction: Option<Point>,
    /// The signed core distance.
    signed: f64,
    /// The size of the coordinates (shapes and placement): what rounding is relative to.
    scale: f64,
    /// The smaller shape's size: its core's widest extent (x plus y) plus twice its radius.
    smaller_size: f64,
}

/// A core's widest extent (x plus y) plus twice its radius: no less than the size the
/// reference-face tolerance is relative to.
fn size(core: &[Point], radius: f64) -> f64 {
    let mut widest: f64 = 0.0;
    for p in core {
        for q in core {
            widest = widest.max((p[0] - q[0]).abs() + (p[1] - q[1]).abs());
        }
    }
    widest + 2.0 * radius
}

fn random_case(rng: &mut Rng) -> Case {
    let ratio = 10f64.powf(rng.range_f64(0.0, 3.0));
    let (a, core_a, radius_a) = random_shape(rng, ratio);
    let (b, core_b, radius_b) = random_shape(rng, 1.0);
    // The cores turned by the placements' own rotations (their f32 cosine and sine, exactly).
    let (turn_a, turn_b) = (
        Transform::new(Vec2::ZERO, rng.range(-3.2, 3.2)),
        Transform::new(Vec2::ZERO, rng.range(-3.2, 3.2)),
    );
    let turned = |core: &[Point], turn: &Transform| -> Vec<Point> {
        let (c, s) = (f64::from(turn.q.c), f64::from(turn.q.s));
        core.iter()
            .map(|p| [c * p[0] - s * p[1], s * p[0] + c * p[1]])
            .collect()
    };
    let (core_a, core_b) = (turned(&core_a, &turn_a), turned(&core_b, &turn_b));
    let j = rng.below(core_a.len());
    let k = rng.below(core_b.len());
    let anchor = if core_a.len() >= 2 && rng.chance(0.5) {
        let next = core_a[(j + 1) % core_a.len()];
        let t = rng.unit_f64();
        [
            core_a[j][0] + (next[0] - core_a[j][0]) * t,
            core_a[j][1] + (next[1] - core_a[j][1]) * t,
        ]
    } else {
        core_a[j]
    };
    let gap = 10f64.powf(rng.range_f64(-7.0, -1.0)) * ratio;
    let angle = rng.range_f64(-3.2, 3.2);
    let far = if rng.chance(0.3) { 1e3 } else { 0.0 };
    let at_a = Vec2::new(far as f32, -far as f32);
    let at_b = Vec2::new(
        (far + anchor[0] + gap * angle.cos() - core_b[k][0]) as f32,
        (-far + anchor[1] + gap * angle.sin() - core_b[k][1]) as f32,
    );
    let place = |core: &[Point], at: Vec2| -> Vec<Point> {
        core.iter()
            .map(|p| [p[0] + f64::from(at.x), p[1] + f64::from(at.y)])
            .collect()
    };
    let (signed, direction) = signed_distance(&place(&core_a, at_a), &place(&core_b, at_b));
    Case {
        a,
        xf_a: Transform { p: at_a, ..turn_a },
        b,
        xf_b: Transform { p: at_b, ..turn_b },
        depth: radius_a + radius_b - signed,
        direction,
        signed,
        scale: ratio + 1.0 + far,
        smaller_size: size(&core_a, radius_a).min(size(&core_b, radius_b)),
    }
}

/// The depth error allowed: the rounding of f32 coordinates of the given scale, with room for
/// the few operations between them and the depth.
fn depth_bound(case: &Case) -> f64 {
    2e-5 * case.scale + 1e-4 * case.depth
}

/// How much deeper than exact overlapping cores may come out: the reference face is the best
/// axis of either shape unless the other's beats it by 1e-4 of the smaller size (a stable
/// choice while faces rest on each other), and the depth is measured along it.
fn reference_tolerance(case: &Case) -> f64 {
    if case.signed <= depth_bound(case) {
        1e-4 * case.smaller_size
    } else {
        0.0
    }
}

/// What is wrong with the manifold of `case`, if anything.
fn check(case: &Case, manifold: &Manifold) -> Option<String> {
    if manifold.is_empty() {
        return Some("empty manifold".into());
    }
    let got = f64::from(manifold.max_penetration());
    let error = got - case.depth;
    if error < -depth_bound(case) || error > depth_bound(case) + reference_tolerance(case) {
        return Some(format!("depth {got} (exact {})", case.depth));
    }
    if let Some(direction) = case.direction {
        // Well above rounding, the normal is the direction of the closest core points.
        if case.signed > 1e-3 * case.scale {
            let n = [f64::from(manifold.normal.x), f64::from(manifold.normal.y)];
            if dot(n, direction) < 0.999 {
                return Some(format!("normal {n:?} (exact {direction:?})"));
            }
        }
    }
    None
}

/// The failures of `count` random cases of the sweep, either argument order.
fn sweep(seed: u64, count: usize) -> (usize, Vec<String>) {
    let mut rng = Rng(seed);
    let (mut checked, mut failures) = (0, vec![]);
    for round in 0..count {
        let case = random_case(&mut rng);
        // Touching within the sweep's rounding: nothing to measure.
        if case.depth <= 2.0 * depth_bound(&case) {
            continue;
        }
        checked += 1;
        let forward = collide(&case.a, &case.xf_a, &case.b, &case.xf_b);
        let backward = collide(&case.b, &case.xf_b, &case.a, &case.xf_a).swapped();
        for (order, manifold) in [("A, B", forward), ("B, A", backward)] {
            if let Some(problem) = check(&case, &manifold) {
                failures.push(format!(
                    "seed {seed:#x} round {round} ({order}): {problem}; signed core distance \
                     {:e}; {:?} at {:?} against {:?} at {:?}",
                    case.signed, case.a, case.xf_a, case.b, case.xf_b
                ));
            }
        }
    }
    (checked, failures)
}

/// The capsule pair of the report: a long thick capsule whose end vertex is `gap` above the
/// start of a short thin one hanging down and to the right. The exact depth is the total radius
/// less the gap, straight down from A's end (the corner's normal cone: any normal with
/// `n.x >= 0` that also points along B's core, `n · (0.3, -0.946) >= 0`).
fn long_capsule_over_short_one(gap: f32) {
    let a = Shape::from(Capsule::new(Vec2::new(-100.0, 0.0), Vec2::ZERO, 5.0).unwrap());
    let b =
        Shape::from(Capsule::new(Vec2::ZERO, Vec2::new(0.3, -0.945_652_54), 0.114_976_59).unwrap());
    let xf_b = Transform::new(Vec2::new(0.0, -gap), 0.0);
    let exact = 5.0 + 0.114_976_59 - f64::from(gap);
    let forward = collide(&a, &Transform::IDENTITY, &b, &xf_b);
    let backward = collide(&b, &xf_b, &a, &Transform::IDENTITY).swapped();
    for (order, manifold) in [("A, B", forward), ("B, A", backward)] {
        assert!(!manifold.is_empty(), "gap {gap} ({order}): empty");
        let depth = f64::from(manifold.max_penetration());
        assert!(
            (depth - exact).abs() <= 1e-5,
            "gap {gap} ({order}): depth {depth}, exact {exact}: {manifold:?}"
        );
        let n = manifold.normal;
        assert!(
            n.x >= -1e-6 && n.x * 0.3 - n.y * 0.945_652_54 >= -1e-6,
            "gap {gap} ({order}): normal {n:?} outside the corner's cone"
        );
    }
}

#[test]
fn capsule_end_a_ten_thousandth_above_a_thin_capsule_is_the_full_radii_deep() {
    long_capsule_over_short_one(1e-4);
}

#[test]
fn capsule_ends_nearly_touching_are_the_full_radii_deep_at_every_gap() {
    for gap in [1e-3, 3e-4, 1e-4, 3e-5, 1e-5, 1e-6, 1e-7] {
        long_capsule_over_short_one(gap);
    }
}

#[test]
fn cores_nearly_touching_or_barely_crossing_give_the_exact_depth() {
    let mut total_checked = 0;
    let mut all_failures = vec![];
    for seed in [0x0c0e_5700_c4ed, 0x0c0e_5700_c4ee, 0x0c0e_5700_c4ef] {
        let (checked, failures) = sweep(seed, 20_000);
        total_checked += checked;
        all_failures.extend(failures);
    }
    assert!(total_checked > 30_000, "only {total_checked} cases checked");
    assert!(
        all_failures.is_empty(),
        "{} of {total_checked} cases wrong:\n{}",
        all_failures.len(),
        all_failures
            .iter()
            .take(20)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// Two rounded boxes resting on each other with their near faces turned up to 3° apart (less
/// than keeps both ends of the faces' overlap within the radii), cores apart by 2 % to 75 % of
/// the radii, B over A shifted along the face (either argument order):
/// a face contact with both ends where the closest core points lie inside a face (else one
/// corner point), as deep as the exact f64 depth, its normal between the two faces' normals. Where the reference face's axis won within the reference tolerance over a
/// face of the other box that holds the closest points, the clip along it came out deeper than
/// those points (by up to 1.4e-4 at 3°), and the first fix of that gave one point (a rounded
/// pentagon on another 1.8° apart).
#[test]
fn rounded_boxes_resting_nearly_parallel_keep_both_ends_at_the_exact_depth() {
    let mut rng = Rng(0x0c0e_5700_face);
    let mut failures = vec![];
    let (mut count, mut faces) = (0, 0);
    for _ in 0..4_000 {
        let (wa, ha) = (rng.range_f64(0.4, 2.0), rng.range_f64(0.3, 1.0));
        let (wb, hb) = (rng.range_f64(0.4, 2.0), rng.range_f64(0.3, 1.0));
        let (ra, rb) = (rng.range_f64(0.02, 0.2), rng.range_f64(0.02, 0.2));
        let gap = rng.range_f64(0.02, 0.75) * (ra + rb);
        // Both ends of the faces' overlap within the radii: turned by less than the depth
        // over the wider face.
        let most = 0.052f64.min(0.8 * (ra + rb - gap) / wa.max(wb));
        let tilt = rng.range_f64(0.002, most) * if rng.below(2) == 0 { 1.0 } else { -1.0 };
        let shift = rng.range_f64(-0.4, 0.4) * wa.min(wb);
        let far = if rng.below(3) == 0 { 1e3 } else { 0.0 };
        let a = Shape::from(
            Polygon::rect(wa as f32, ha as f32)
                .unwrap()
                .with_radius(ra as f32)
                .unwrap(),
        );
        let b = Shape::from(
            Polygon::rect(wb as f32, hb as f32)
                .unwrap()
                .with_radius(rb as f32)
                .unwrap(),
        );
        let xf_a = Transform::new(Vec2::new(far as f32, far as f32), 0.0);
        // B's bottom core face turned by `tilt` about its centre, its lowest core point `gap`
        // above A's top core face (over A's face or just past its end).
        let low = 0.5 * wb * tilt.abs().sin() + 0.5 * hb * tilt.cos();
        let centre = [far + shift, far + 0.5 * ha + gap + low];
        let xf_b = Transform::new(Vec2::new(centre[0] as f32, centre[1] as f32), tilt as f32);
        let core = |shape: &Shape, xf: &Transform| -> Vec<Point> {
            let Shape::Polygon(p) = shape else {
                unreachable!()
            };
            p.vertices().iter().map(|&v| place64(xf, v)).collect()
        };
        let (signed, direction) = signed_distance(&core(&a, &xf_a), &core(&b, &xf_b));
        let Some(direction) = direction else { continue };
        let exact = f64::from(ra as f32) + f64::from(rb as f32) - signed;
        // The closest points inside a face of either box (else corner to corner, one point).
        let face_contact =
            direction[1] >= 1.0 - 1e-9 || dot(direction, [-tilt.sin(), tilt.cos()]) >= 1.0 - 1e-9;
        faces += usize::from(face_contact);
        count += 1;
        let forward = collide(&a, &xf_a, &b, &xf_b);
        let backward = collide(&b, &xf_b, &a, &xf_a).swapped();
        for (order, m) in [("A, B", forward), ("B, A", backward)] {
            let depth = f64::from(m.max_penetration());
            let n = [f64::from(m.normal.x), f64::from(m.normal.y)];
            let bound = 1e-5 + 2e-7 * far;
            let wrong = if face_contact {
                m.points().len() != 2 || dot(n, direction) < tilt.cos() - 1e-6
            } else {
                dot(n, direction) < 1.0 - 1e-5
            };
            if wrong || (depth - exact).abs() > bound {
                failures.push(format!(
                    "({order}) tilt {tilt} gap {gap} far {far}: {} points, depth {depth} \
                     (exact {exact}), normal {n:?} (exact {direction:?})",
                    m.points().len()
                ));
            }
        }
    }
    assert!(
        count > 3_000 && faces > 2_500,
        "only {count} cases, {faces} face contacts"
    );
    assert!(
        failures.is_empty(),
        "{} of {count} wrong:\n{}",
        failures.len(),
        failures
            .iter()
            .take(10)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
