//! Contact manifolds against an exact `f64` reference clipping, per pair kind: the deepest
//! depth is the exact minimum translation depth, the normal separates the shapes when they
//! are moved apart by that depth, each point lies midway between the surfaces at its own
//! depth, the points cover the contact region (the incident face clipped to the reference face
//! in `f64`: each end of that region in contact has a point), and a pose moved by 1e-6 moves
//! the manifold by no more than the tolerance.

use crate::manifold_common::exact::{core, core_points, exact, line_extent, signed_distance};
use crate::manifold_common::Rng;
use crate::manifold_exact::depth_error;
use collide2d::query::Manifold;
use collide2d::shape::{Capsule, Circle, Polygon, Segment, Shape};
use collide2d::{collide_speculative, Transform, Vec2};
use std::f32::consts::{FRAC_PI_2, TAU};

type P = [f64; 2];

/// Below this sine of the angle between two faces, both ends of their common extent in contact
/// must get a point (just under the capsule pairs' own 0.01).
const PARALLEL: f64 = 0.009;

fn dot(a: P, b: P) -> f64 {
    a[0] * b[0] + a[1] * b[1]
}

fn sub(a: P, b: P) -> P {
    [a[0] - b[0], a[1] - b[1]]
}

/// The shape families of the sweeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Family {
    Circle,
    Capsule,
    Segment,
    /// 3 to 8 vertices.
    Polygon,
    /// 9 to 64 vertices.
    ManySided,
    RoundedPolygon,
    RoundedManySided,
    Box,
    RoundedBox,
}

pub(crate) const FAMILIES: [Family; 9] = [
    Family::Circle,
    Family::Capsule,
    Family::Segment,
    Family::Polygon,
    Family::ManySided,
    Family::RoundedPolygon,
    Family::RoundedManySided,
    Family::Box,
    Family::RoundedBox,
];

fn outline(rng: &mut Rng, half: f32, low: usize, high: usize) -> Polygon {
    loop {
        let count = low + rng.below(high - low + 1);
        let points: Vec<Vec2> = (0..count)
            .map(|_| {
                let angle = rng.range(0.0, TAU);
                Vec2::new(angle.cos(), angle.sin()) * half * rng.range(0.7, 1.0)
            })
            .collect();
        if let Ok(polygon) = Polygon::hull(&points) {
            let n = polygon.vertices().len();
            if n >= low.min(8) && polygon.area() > 0.3 * half * half {
                return polygon;
            }
        }
    }
}

/// A shape of `family` about `size` across, near its local origin.
pub(crate) fn shape_of(family: Family, size: f32, rng: &mut Rng) -> Shape {
    let half = 0.5 * size;
    match family {
        Family::Circle => Shape::from(Circle::new(rng.point(0.1 * size), half).unwrap()),
        Family::Capsule | Family::Segment => {
            let angle = rng.range(0.0, TAU);
            let d = Vec2::new(angle.cos(), angle.sin()) * half * rng.range(0.3, 1.0);
            let c = rng.point(0.1 * size);
            if family == Family::Capsule {
                Shape::from(Capsule::new(c - d, c + d, half * rng.range(0.05, 0.5)).unwrap())
            } else {
                Shape::from(Segment::new(c - d, c + d).unwrap())
            }
        }
        Family::Polygon => Shape::from(outline(rng, half, 3, 8)),
        Family::ManySided => Shape::from(outline(rng, half, 9, 64)),
        Family::RoundedPolygon => Shape::from(
            outline(rng, half, 3, 8)
                .with_radius(half * rng.range(0.02, 0.4))
                .unwrap(),
        ),
        Family::RoundedManySided => Shape::from(
            outline(rng, half, 9, 64)
                .with_radius(half * rng.range(0.02, 0.4))
                .unwrap(),
        ),
        Family::Box => Shape::from(
            Polygon::rect(size * rng.range(0.2, 1.0), size * rng.range(0.2, 1.0)).unwrap(),
        ),
        Family::RoundedBox => Shape::from(
            Polygon::rect(size * rng.range(0.2, 1.0), size * rng.range(0.2, 1.0))
                .unwrap()
                .with_radius(half * rng.range(0.02, 0.3))
                .unwrap(),
        ),
    }
}

/// The outward normals of a shape's core faces, local (a circle: one random direction).
fn face_normals(shape: &Shape, rng: &mut Rng) -> Vec<Vec2> {
    match shape {
        Shape::Polygon(p) => p.normals().to_vec(),
        Shape::Capsule(c) => {
            let d = (c.b() - c.a()).normalize();
            vec![Vec2::new(d.y, -d.x), Vec2::new(-d.y, d.x)]
        }
        Shape::Segment(s) => {
            let d = (s.b() - s.a()).normalize();
            vec![Vec2::new(d.y, -d.x), Vec2::new(-d.y, d.x)]
        }
        _ => {
            let angle = rng.range(0.0, TAU);
            vec![Vec2::new(angle.cos(), angle.sin())]
        }
    }
}

/// The size the tolerances are relative to: the larger shape's bounding diagonal.
pub(crate) fn size_of(shape: &Shape) -> f32 {
    shape.aabb(&Transform::IDENTITY).extents().length() * 2.0
}

/// How a pair is placed.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Setting {
    /// Distance of A from the origin.
    pub far: f32,
    /// Tilt of B's face against A's (radians); `None`: a general pose.
    pub tilt: Option<f32>,
    /// Depth of the faces' slabs, relative to the size of B.
    pub depth: f32,
    /// Size ratio B / A.
    pub ratio: f32,
    /// A's rotation: near a multiple of a quarter turn when set.
    pub quarter: bool,
}

/// A pair of `fa` and `fb` placed per `setting`: face to face (B's face turned against one of
/// A's by the tilt, the slabs overlapping by the depth, slid along the face) or anywhere near.
pub(crate) fn place(
    fa: Family,
    fb: Family,
    setting: Setting,
    rng: &mut Rng,
) -> (Shape, Transform, Shape, Transform) {
    let size_a = 1.0;
    let size_b = setting.ratio;
    let a = shape_of(fa, size_a, rng);
    let b = shape_of(fb, size_b, rng);
    let angle_a = if setting.quarter {
        (rng.below(4) as f32) * FRAC_PI_2 + rng.pick(&[0.0, 1e-7, -1e-7, 1e-5, -3e-4])
    } else {
        rng.range(0.0, TAU)
    };
    let direction = rng.range(0.0, TAU);
    let origin = Vec2::new(direction.cos(), direction.sin()) * setting.far;
    let xf_a = Transform::new(origin, angle_a);
    let Some(tilt) = setting.tilt else {
        let angle = rng.range(0.0, TAU);
        let reach = 0.5 * (size_of(&a) + size_of(&b)) * rng.range(0.0, 0.8);
        let xf_b = Transform::new(
            xf_a.p + Vec2::new(angle.cos(), angle.sin()) * reach,
            rng.range(0.0, TAU),
        );
        return (a, xf_a, b, xf_b);
    };
    let faces_a = face_normals(&a, rng);
    let faces_b = face_normals(&b, rng);
    let na = xf_a.rotate(faces_a[rng.below(faces_a.len())]);
    let mb = faces_b[rng.below(faces_b.len())];
    let angle_b = (-na.y).atan2(-na.x) - mb.y.atan2(mb.x) + tilt;
    // B first placed at A's origin, then moved along the normal to the depth wanted and
    // slid along the face.
    let n64 = [f64::from(na.x), f64::from(na.y)];
    let trial = Transform::new(xf_a.p, angle_b);
    let (core_a, core_b) = (
        core(&a, &xf_a, xf_a.p).unwrap(),
        core(&b, &trial, xf_a.p).unwrap(),
    );
    let depth_now = core_a.depth_along(&core_b, n64);
    let target = f64::from(setting.depth * size_b);
    let along = (depth_now - target) as f32;
    let slide = rng.range(-0.6, 0.6) * (size_of(&a) + size_of(&b)) * 0.5;
    let tangent = Vec2::new(-na.y, na.x);
    let xf_b = Transform::new(xf_a.p + na * along + tangent * slide, angle_b);
    (a, xf_a, b, xf_b)
}

/// The tolerance of a pair: 1e-4 × the larger size plus the rounding of the coordinates.
pub(crate) fn tolerance_of(a: &Shape, xf_a: &Transform, b: &Shape, xf_b: &Transform) -> f64 {
    let scale = f64::from(size_of(a).max(size_of(b)));
    let far = f64::from(xf_a.p.abs().max_element().max(xf_b.p.abs().max_element())) + scale;
    1e-4 * scale + 8.0 * f64::from(f32::EPSILON) * far
}

/// The outward-normal edges of a core (two-vertex cores both ways; none for a point).
fn edges(points: &[P]) -> Vec<(P, P, P)> {
    let n = points.len();
    let edge = |p: P, q: P| {
        let d = sub(q, p);
        let l = dot(d, d).sqrt();
        (p, q, [d[1] / l, -d[0] / l])
    };
    match n {
        1 => vec![],
        2 => vec![edge(points[0], points[1]), edge(points[1], points[0])],
        _ => (0..n)
            .map(|i| edge(points[i], points[(i + 1) % n]))
            .collect(),
    }
}

/// The exact ends of the contact region for the normal `n` (from A to B, unit): the incident
/// face clipped to the reference face (the face of A whose normal is `n`, else the face of B
/// whose normal is `-n`), each end with the exact depth of the surfaces along `n` through it
/// and the allowance for where a rounded incident end puts its point; `None` when `n` is not a
/// face normal or the faces do not overlap.
#[allow(clippy::type_complexity)]
fn region_ends(
    a: &Shape,
    xf_a: &Transform,
    b: &Shape,
    xf_b: &Transform,
    n: P,
) -> Option<(P, Vec<(f64, f64)>, f64)> {
    let origin = xf_a.p;
    let (pa, ra) = core_points(a, xf_a, origin)?;
    let (pb, rb) = core_points(b, xf_b, origin)?;
    let (ca, cb) = (core(a, xf_a, origin)?, core(b, xf_b, origin)?);
    let matches = |m: P, target: P| {
        dot(m, target) > 0.0 && (m[0] * target[1] - m[1] * target[0]).abs() < 1e-5
    };
    let neg = [-n[0], -n[1]];
    let (reference, incident_points, ri, nr) =
        if let Some(face) = edges(&pa).into_iter().find(|e| matches(e.2, n)) {
            (face, &pb, rb, n)
        } else if let Some(face) = edges(&pb).into_iter().find(|e| matches(e.2, neg)) {
            (face, &pa, ra, neg)
        } else {
            return None;
        };
    let incident = edges(incident_points)
        .into_iter()
        .min_by(|x, y| dot(x.2, nr).total_cmp(&dot(y.2, nr)))?;
    let u = [-n[1], n[0]];
    let (r0, r1) = (dot(reference.0, u), dot(reference.1, u));
    let (i0, i1) = (dot(incident.0, u), dot(incident.1, u));
    let low = r0.min(r1).max(i0.min(i1));
    let high = r0.max(r1).min(i0.max(i1));
    if low > high {
        return None;
    }
    // Where a rounded incident edge tilted by θ puts its deepest point: up to r sin θ along.
    let sine = (incident.2[0] * nr[1] - incident.2[1] * nr[0]).abs();
    if sine > PARALLEL {
        return None;
    }
    let allowance = ri * sine;
    // Each end counts where the surfaces overlap all across the window a point may take
    // around it (the depth along `n` is concave in the position along the face, so its
    // least over the window is at one of the window's ends).
    let window = allowance + tolerance_of(a, xf_a, b, xf_b);
    let depth_at = |t: f64| {
        let p = [u[0] * t, u[1] * t];
        match (line_extent(&ca, p, n), line_extent(&cb, p, n)) {
            (Some(ea), Some(eb)) => Some(ea.1 - eb.0),
            _ => None,
        }
    };
    let mut ends = Vec::new();
    for t in [low, high] {
        if let (Some(d0), Some(d1)) = (depth_at(t - window), depth_at(t + window)) {
            ends.push((t, d0.min(d1)));
        }
    }
    Some((u, ends, allowance))
}

/// Checks one manifold against the exact reference; `Err` names what is wrong.
pub(crate) fn check_manifold(
    a: &Shape,
    xf_a: &Transform,
    b: &Shape,
    xf_b: &Transform,
    margin: f32,
    m: &Manifold,
) -> Result<(), String> {
    let origin = xf_a.p;
    let (Some(ca), Some(cb)) = (core(a, xf_a, origin), core(b, xf_b, origin)) else {
        return Ok(());
    };
    let tol = tolerance_of(a, xf_a, b, xf_b);
    let ex = exact(&ca, &cb);
    let margin64 = f64::from(margin);
    if m.is_empty() {
        if ex.depth + margin64 > tol {
            return Err(format!(
                "empty, exact depth {:e} (margin {margin:e})",
                ex.depth
            ));
        }
        return Ok(());
    }
    if ex.depth + margin64 < -tol {
        return Err(format!(
            "{} points, but apart by {:e} (margin {margin:e})",
            m.count, -ex.depth
        ));
    }
    let depth = f64::from(m.max_penetration());
    if (depth - ex.depth).abs() > tol {
        return Err(format!(
            "deepest {depth:e}, exact {:e} along {:?} (tol {tol:e})",
            ex.depth, ex.normal
        ));
    }
    let n = [f64::from(m.normal.x), f64::from(m.normal.y)];
    let l = dot(n, n).sqrt();
    let n = [n[0] / l, n[1] / l];
    let along = ca.depth_along(&cb, n);
    if along - ex.depth > tol {
        return Err(format!(
            "normal {n:?} leaves depth {along:e} to clear, exact minimum {:e} along {:?} (tol {tol:e})",
            ex.depth, ex.normal
        ));
    }
    for point in m.points() {
        let p = [
            f64::from(point.point.x) - f64::from(origin.x),
            f64::from(point.point.y) - f64::from(origin.y),
        ];
        let half = 0.5 * f64::from(point.penetration);
        let on_a = [p[0] + n[0] * half, p[1] + n[1] * half];
        let on_b = [p[0] - n[0] * half, p[1] - n[1] * half];
        let surface = signed_distance(&ca, on_a)
            .abs()
            .max(signed_distance(&cb, on_b).abs());
        if surface > tol {
            return Err(format!(
                "point {:?} is {surface:e} off the surfaces (tol {tol:e})",
                point.point
            ));
        }
        let error = depth_error((&ca, &cb), p, n, f64::from(point.penetration), tol);
        if error > tol {
            return Err(format!(
                "point {:?} depth {:e} is {error:e} from the surfaces' depth (tol {tol:e})",
                point.point, point.penetration
            ));
        }
        if f64::from(point.penetration) < -margin64 - tol {
            return Err(format!("point {:?} beyond the margin", point.point));
        }
    }
    if let Some((u, ends, allowance)) = region_ends(a, xf_a, b, xf_b, n) {
        for &(t, d) in &ends {
            if d + margin64 <= 2.0 * tol {
                continue;
            }
            let covered = m.points().iter().any(|point| {
                let p = [
                    f64::from(point.point.x) - f64::from(origin.x),
                    f64::from(point.point.y) - f64::from(origin.y),
                ];
                (dot(p, u) - t).abs() <= tol + allowance
            });
            if !covered {
                return Err(format!(
                    "the contact region ends at {t:e} along {u:?} at depth {d:e}, no point there \
                     (ends {ends:?}, allowance {allowance:e}, tol {tol:e})"
                ));
            }
        }
    }
    Ok(())
}

/// Whether `second` is `first` moved by no more than `limit` (same count: points matched in
/// either order; depth; normal within `turn` rad).
fn close(first: &Manifold, second: &Manifold, limit: f32, turn: f32) -> bool {
    if first.count != second.count {
        return false;
    }
    if first.count == 0 {
        return true;
    }
    if first.normal.angle_to(second.normal).abs() > turn {
        return false;
    }
    let near = |x: &collide2d::query::ContactPoint, y: &collide2d::query::ContactPoint| {
        x.point.distance(y.point) <= limit && (x.penetration - y.penetration).abs() <= limit
    };
    let (p, q) = (first.points(), second.points());
    match first.count {
        1 => near(&p[0], &q[0]),
        _ => {
            (near(&p[0], &q[0]) && near(&p[1], &q[1])) || (near(&p[0], &q[1]) && near(&p[1], &q[0]))
        }
    }
}

#[derive(Default)]
struct Tally {
    cases: usize,
    failures: Vec<String>,
    jumps: usize,
    switches: usize,
}

fn probe(fa: Family, fb: Family, seed: u64, cases: usize, tally: &mut Tally) {
    let mut rng = Rng(seed);
    for index in 0..cases {
        let setting = Setting {
            far: rng.pick(&[0.0, 10.0, 1e5, 1e6]),
            tilt: if rng.chance(0.75) {
                Some(
                    rng.pick(&[0.0f32, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 0.1])
                        * if rng.chance(0.5) { 1.0 } else { -1.0 },
                )
            } else {
                None
            },
            depth: rng.pick(&[0.0f32, 1e-6, -1e-6, 1e-4, 1e-3, 0.02, 0.2]),
            ratio: if rng.chance(0.2) {
                rng.pick(&[1e-3f32, 1e-2, 1e2, 1e3])
            } else {
                rng.range(0.3, 3.0)
            },
            quarter: rng.chance(0.3),
        };
        let (a, xf_a, b, xf_b) = place(fa, fb, setting, &mut rng);
        let scale = size_of(&a).max(size_of(&b));
        for margin in [0.0, 0.01 * scale] {
            tally.cases += 1;
            let m = collide_speculative(&a, &xf_a, &b, &xf_b, margin);
            if let Err(e) = check_manifold(&a, &xf_a, &b, &xf_b, margin, &m) {
                tally.failures.push(format!(
                    "{fa:?}-{fb:?} seed {seed} case {index} margin {margin:e} {setting:?}: {e}\n  a {a:?} at {xf_a:?}\n  b {b:?} at {xf_b:?}\n  -> {m:?}"
                ));
                continue;
            }
            // Moved by 1e-6: the manifold moves by no more than the tolerance.
            let step = 1e-6f32;
            let moved = Transform::new(
                xf_b.p + Vec2::new(step, -step) * scale.max(1.0),
                xf_b.angle() + step,
            );
            let m2 = collide_speculative(&a, &xf_a, &b, &moved, margin);
            if let Err(e) = check_manifold(&a, &xf_a, &b, &moved, margin, &m2) {
                tally.failures.push(format!(
                    "{fa:?}-{fb:?} seed {seed} case {index} moved margin {margin:e} {setting:?}: {e}\n  a {a:?} at {xf_a:?}\n  b {b:?} at {moved:?}\n  -> {m2:?}"
                ));
                continue;
            }
            let tol = tolerance_of(&a, &xf_a, &b, &xf_b) as f32;
            if m.count == m2.count {
                if !close(&m, &m2, 2.0 * tol, 1e-3) {
                    tally.jumps += 1;
                }
            } else {
                tally.switches += 1;
            }
        }
    }
}

/// Every ordered pair of families, 120 placements each (three in four face to face, tilted by
/// 0 to 0.1 rad, resting from 1e-6 apart to 0.2 deep; sizes 1 against 1e-3 to 1e3; 0 to 1e6
/// from the origin; A near a quarter turn in three of ten), with and without a margin, each
/// also moved by 1e-6: 38,880 manifolds against the exact reference.
#[test]
fn every_family_pair_matches_the_exact_reference() {
    let mut total = Tally::default();
    for (i, &fa) in FAMILIES.iter().enumerate() {
        for (j, &fb) in FAMILIES.iter().enumerate() {
            probe(fa, fb, 1000 + (i * 16 + j) as u64, 120, &mut total);
        }
    }
    println!(
        "{} cases, {} failures, {} moved by more than the tolerance with the same count, {} count switches",
        total.cases,
        total.failures.len(),
        total.jumps,
        total.switches
    );
    assert!(
        total.failures.is_empty(),
        "{}",
        total.failures[..total.failures.len().min(3)].join("\n")
    );
}

/// A random shape for the world sweeps: every family, compounds of two of them and short
/// chains.
fn world_shape(rng: &mut Rng, size: f32) -> Shape {
    match rng.below(11) {
        9 => {
            let children = (0..2)
                .map(|_| {
                    let family = FAMILIES[rng.below(FAMILIES.len())];
                    (
                        Transform::new(rng.point(0.3 * size), rng.range(0.0, TAU)),
                        shape_of(family, 0.6 * size, rng),
                    )
                })
                .collect();
            Shape::from(collide2d::shape::Compound::new(children).unwrap())
        }
        10 => {
            let mut points = vec![Vec2::new(-size, 0.0)];
            for _ in 0..3 {
                let last = *points.last().unwrap();
                points.push(last + Vec2::new(0.7 * size, rng.range(-0.3, 0.3) * size));
            }
            Shape::from(collide2d::shape::Chain::open(&points).unwrap())
        }
        k => shape_of(FAMILIES[k], size, rng),
    }
}

/// Every `Begin` and `Stay` of `world` (and every pair of `contacts`) against `collide` on the
/// colliders' placements now: the same manifold, bit for bit.
fn events_match_collide(world: &collide2d::World) -> Result<usize, String> {
    use collide2d::world::CollisionEvent;
    let mut checked = 0;
    let same = |m: &Manifold, a, b| -> Result<(), String> {
        let (ca, cb) = (world.get(a).unwrap(), world.get(b).unwrap());
        let expected = collide2d::collide(
            ca.shape(),
            &ca.world_transform(),
            cb.shape(),
            &cb.world_transform(),
        );
        if *m != expected {
            return Err(format!(
                "world {m:?}\n  collide {expected:?}\n  a {:?} at {:?}\n  b {:?} at {:?}",
                ca.shape(),
                ca.world_transform(),
                cb.shape(),
                cb.world_transform()
            ));
        }
        Ok(())
    };
    for event in world.events() {
        if let CollisionEvent::Begin {
            a,
            b,
            manifold: Some(m),
            ..
        }
        | CollisionEvent::Stay {
            a,
            b,
            manifold: Some(m),
        } = event
        {
            same(m, *a, *b)?;
            checked += 1;
        }
    }
    for (a, b, m) in world.contacts() {
        if let Some(m) = m {
            same(m, a, b)?;
        }
    }
    Ok(checked)
}

/// Worlds of 30 colliders of every kind (compounds, chains, offsets), 1e3 to 1e6 from the
/// origin, edited by moves, batch moves, new shapes, new offsets and an origin shift: every
/// `Begin` and `Stay` manifold, and every touching pair's, is `collide`'s on the same poses.
#[test]
fn world_manifolds_equal_collide() {
    use collide2d::world::{Collider, World};
    let mut failures = Vec::new();
    let mut checked = 0;
    for seed in 0..40u64 {
        let mut rng = Rng(7000 + seed);
        let mut world = World::new();
        let far = rng.pick(&[0.0f32, 1e3, 1e5, 1e6]);
        let base = Vec2::new(far, -0.5 * far);
        let mut handles = Vec::new();
        for _ in 0..30 {
            let size = rng.range(0.3, 2.0);
            let mut collider = Collider::new(world_shape(&mut rng, size))
                .with_transform(Transform::new(base + rng.point(4.0), rng.range(0.0, TAU)));
            if rng.chance(0.2) {
                collider =
                    collider.with_offset(Transform::new(rng.point(0.5), rng.range(0.0, TAU)));
            }
            handles.push(world.insert(collider).unwrap());
        }
        for step in 0..12 {
            match rng.below(5) {
                0 => {
                    let mut moves = Vec::new();
                    for &h in &handles {
                        if rng.chance(0.5) {
                            let t = world.get(h).unwrap().transform();
                            let turn = rng.range(-0.05, 0.05);
                            moves
                                .push((h, Transform::new(t.p + rng.point(0.05), t.angle() + turn)));
                        }
                    }
                    world.set_transforms(&moves).unwrap();
                }
                1 => {
                    let h = handles[rng.below(handles.len())];
                    let size = rng.range(0.3, 2.0);
                    let shape = world_shape(&mut rng, size);
                    world.set_shape(h, shape).unwrap();
                }
                2 => {
                    let h = handles[rng.below(handles.len())];
                    world
                        .set_offset(h, Transform::new(rng.point(0.3), rng.range(0.0, TAU)))
                        .unwrap();
                }
                3 if far > 0.0 && step == 6 => {
                    world.shift_origin(base).unwrap();
                }
                _ => {
                    for &h in &handles {
                        if rng.chance(0.3) {
                            let t = world.get(h).unwrap().transform();
                            world
                                .set_transform(h, Transform::new(t.p + rng.point(0.02), t.angle()))
                                .unwrap();
                        }
                    }
                }
            }
            world.update();
            match events_match_collide(&world) {
                Ok(n) => checked += n,
                Err(e) => failures.push(format!("seed {seed} step {step}: {e}")),
            }
        }
    }
    println!("{checked} manifolds checked, {} failures", failures.len());
    assert!(
        failures.is_empty(),
        "{}",
        failures[..failures.len().min(3)].join("\n")
    );
    assert!(checked > 1000, "{checked}");
}
