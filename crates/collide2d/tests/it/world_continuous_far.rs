//! Continuous colliders far from the origin and at huge speeds, against an exact `f64`
//! reference: nothing tunnels, and every swept `Begin` carries a time of impact at which the
//! shapes are within the cast's tolerance of touching.
//!
//! Each case is one world about a centre at the origin or 1e4, 1e5 or 1e6 out: a bullet
//! (circle, capsule or small box, 0.01–0.3 across) moved once by 1–10,000 units, past thin
//! rotated walls, rotated boxes, capsules and open zigzag chains placed along its path (some
//! beside it), and a second continuous bullet crossing the path. The reference places every
//! shape in `f64` from the stored `f32` placements and finds the first time two of them come
//! within touching distance: the distance between two convex pieces moving apart by a straight
//! relative motion is convex in time, so the minimum is found by ternary search and the first
//! touch by bisection before it (a chain is the earliest of its segments). Paths that only
//! graze (closest approach within the tolerance of touching) are left out. The three broad
//! phases take turns.

use crate::support::vec64::{cross, dot, length, sub, P};
use crate::support::Rng;
use collide2d::shape::{Capsule, Chain, Circle, Polygon, Shape};
use collide2d::world::{BroadPhaseKind, Collider, ColliderHandle, CollisionEvent, World};
use collide2d::{Transform, Vec2};
use std::collections::BTreeMap;

/// A convex piece in `f64` world coordinates: the hull of `points` (one, two, or a convex
/// counter-clockwise outline) grown by `radius`.
#[derive(Clone, Debug)]
struct Piece {
    points: Vec<P>,
    radius: f64,
    /// A chain segment's front (unit normal): only shapes whose centroid is on this side when
    /// they first touch hit it.
    front: Option<P>,
}

impl Piece {
    fn centroid(&self) -> P {
        let n = self.points.len() as f64;
        let sum = self
            .points
            .iter()
            .fold([0.0, 0.0], |acc, p| [acc[0] + p[0], acc[1] + p[1]]);
        [sum[0] / n, sum[1] / n]
    }
}

/// The pieces of `shape` placed by `xf`, in `f64`.
fn pieces(shape: &Shape, xf: &Transform) -> Vec<Piece> {
    let (c, s) = (f64::from(xf.q.c), f64::from(xf.q.s));
    let (px, py) = (f64::from(xf.p.x), f64::from(xf.p.y));
    let place = |v: Vec2| -> P {
        let (x, y) = (f64::from(v.x), f64::from(v.y));
        [px + c * x - s * y, py + s * x + c * y]
    };
    match shape {
        Shape::Circle(circle) => vec![Piece {
            points: vec![place(Vec2::ZERO)],
            radius: f64::from(circle.radius()),
            front: None,
        }],
        Shape::Capsule(capsule) => vec![Piece {
            points: vec![place(capsule.a()), place(capsule.b())],
            radius: f64::from(capsule.radius()),
            front: None,
        }],
        Shape::Polygon(polygon) => vec![Piece {
            points: polygon.vertices().iter().map(|&v| place(v)).collect(),
            radius: f64::from(polygon.radius()),
            front: None,
        }],
        Shape::Chain(chain) => chain
            .vertices()
            .windows(2)
            .map(|w| {
                let (a, b) = (place(w[0]), place(w[1]));
                let d = sub(b, a);
                let len = length(d);
                Piece {
                    points: vec![a, b],
                    radius: 0.0,
                    front: Some([d[1] / len, -d[0] / len]),
                }
            })
            .collect(),
        other => panic!("no reference for {other:?}"),
    }
}

/// Distance from `p` to segment `a`–`b`.
fn point_segment(p: P, a: P, b: P) -> f64 {
    let ab = sub(b, a);
    let len2 = dot(ab, ab);
    let t = if len2 > 0.0 {
        (dot(sub(p, a), ab) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    length(sub(p, [a[0] + ab[0] * t, a[1] + ab[1] * t]))
}

/// Whether segments `a`–`b` and `c`–`d` cross.
fn segments_cross(a: P, b: P, c: P, d: P) -> bool {
    let d1 = cross(sub(b, a), sub(c, a));
    let d2 = cross(sub(b, a), sub(d, a));
    let d3 = cross(sub(d, c), sub(a, c));
    let d4 = cross(sub(d, c), sub(b, c));
    d1 * d2 <= 0.0 && d3 * d4 <= 0.0
}

/// Whether `p` lies in the convex counter-clockwise outline `points` (three or more).
fn inside(p: P, points: &[P]) -> bool {
    points.len() >= 3
        && (0..points.len()).all(|i| {
            let (a, b) = (points[i], points[(i + 1) % points.len()]);
            cross(sub(b, a), sub(p, a)) >= 0.0
        })
}

/// The edges of a piece's core (a point is one degenerate edge).
fn edges(points: &[P]) -> Vec<(P, P)> {
    match points.len() {
        1 => vec![(points[0], points[0])],
        2 => vec![(points[0], points[1])],
        n => (0..n).map(|i| (points[i], points[(i + 1) % n])).collect(),
    }
}

/// The distance between the cores of two pieces, the second moved by `shift` (0 when they
/// overlap).
fn core_distance(a: &Piece, b: &Piece, shift: P) -> f64 {
    let moved: Vec<P> = b
        .points
        .iter()
        .map(|p| [p[0] + shift[0], p[1] + shift[1]])
        .collect();
    if inside(moved[0], &a.points) || inside(a.points[0], &moved) {
        return 0.0;
    }
    let mut best = f64::INFINITY;
    for &(p, q) in &edges(&a.points) {
        for &(r, s) in &edges(&moved) {
            if segments_cross(p, q, r, s) && (p != q || r != s) {
                let parallel = cross(sub(q, p), sub(s, r)) == 0.0;
                if !parallel {
                    return 0.0;
                }
            }
            best = best
                .min(point_segment(p, r, s))
                .min(point_segment(q, r, s))
                .min(point_segment(r, p, q))
                .min(point_segment(s, p, q));
        }
    }
    best
}

/// The gap between two pieces when the second has moved by `t · motion` relative to the first:
/// convex in `t`.
fn gap(a: &Piece, b: &Piece, motion: P, t: f64) -> f64 {
    core_distance(a, b, [motion[0] * t, motion[1] * t]) - a.radius - b.radius
}

/// What the reference says of two pieces over the step.
enum Touch {
    /// Never within touching distance.
    Miss,
    /// First touching at this time.
    At(f64),
    /// Too close to call: a graze, or a chain segment met edge-on.
    Unclear,
}

/// The closest approach over `t` in `[0, 1]` and the first time the gap reaches zero, if it
/// does, of `a` and `b` moving by `motion` relative to `a`; a chain segment is touched only from
/// its front (`margin`: how far from its line the other's centroid must be to tell).
fn first_touch(a: &Piece, b: &Piece, motion: P, tolerance: f64, margin: f64) -> Touch {
    let (mut low, mut high) = (0.0f64, 1.0f64);
    for _ in 0..80 {
        let m1 = low + (high - low) / 3.0;
        let m2 = high - (high - low) / 3.0;
        if gap(a, b, motion, m1) <= gap(a, b, motion, m2) {
            high = m2;
        } else {
            low = m1;
        }
    }
    let t_min = (low + high) / 2.0;
    let closest = gap(a, b, motion, t_min).min(gap(a, b, motion, 0.0));
    if closest.abs() <= 4.0 * tolerance {
        return Touch::Unclear;
    }
    if closest > 0.0 {
        return Touch::Miss;
    }
    let (mut low, mut high) = (0.0f64, t_min);
    for _ in 0..80 {
        let mid = (low + high) / 2.0;
        if gap(a, b, motion, mid) > 0.0 {
            low = mid;
        } else {
            high = mid;
        }
    }
    // The side of a chain segment the other's centroid is on then.
    let side = match (a.front, b.front) {
        (Some(n), _) => {
            let c = b.centroid();
            Some(dot(
                sub(
                    [c[0] + motion[0] * high, c[1] + motion[1] * high],
                    a.points[0],
                ),
                n,
            ))
        }
        (_, Some(n)) => {
            let c = a.centroid();
            let start = [
                b.points[0][0] + motion[0] * high,
                b.points[0][1] + motion[1] * high,
            ];
            Some(dot(sub(c, start), n))
        }
        _ => None,
    };
    match side {
        Some(side) if side.abs() <= margin => Touch::Unclear,
        Some(side) if side < 0.0 => Touch::Miss,
        _ => Touch::At(high),
    }
}

fn rect(width: f32, height: f32) -> Shape {
    Shape::from(Polygon::rect(width, height).unwrap())
}

fn bullet_shape(rng: &mut Rng) -> Shape {
    let size = rng.log_size(0.01, 0.3);
    match rng.below(3) {
        0 => Shape::from(Circle::with_radius(size / 2.0).unwrap()),
        1 => {
            let half = Vec2::from_angle(rng.angle()) * size * 0.3;
            Shape::from(Capsule::new(-half, half, size * 0.2).unwrap())
        }
        _ => rect(size, size * rng.range(0.3, 1.0)),
    }
}

fn obstacle_shape(rng: &mut Rng) -> Shape {
    match rng.below(4) {
        0 => rect(rng.log_size(0.005, 0.2), rng.range(2.0, 8.0)),
        1 => rect(rng.range(0.3, 3.0), rng.range(0.3, 3.0)),
        2 => {
            let half = Vec2::new(0.0, rng.range(0.5, 3.0));
            Shape::from(Capsule::new(-half, half, rng.log_size(0.005, 0.5)).unwrap())
        }
        _ => {
            let count = 3 + rng.below(4);
            let points: Vec<Vec2> = (0..count)
                .map(|i| {
                    let x = if i % 2 == 0 { 0.0 } else { rng.range(0.2, 1.0) };
                    Vec2::new(x, i as f32 * rng.range(0.5, 1.5) - count as f32 * 0.5)
                })
                .collect();
            Shape::from(Chain::open(&points).unwrap())
        }
    }
}

#[test]
fn far_fast_bullets_hit_walls_boxes_chains_and_each_other_at_the_reference_time() {
    let kinds = [
        BroadPhaseKind::Tree,
        BroadPhaseKind::Grid { cell_size: 4.0 },
        BroadPhaseKind::SweepAndPrune,
    ];
    let (mut hits, mut misses, mut crossings) = (0, 0, 0);
    for case in 0..1500u64 {
        let mut rng = Rng(0x5851_f42d_4c95_7f2d ^ case.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let kind = kinds[case as usize % 3];
        let center = match rng.below(4) {
            0 => Vec2::ZERO,
            1 => Vec2::new(1.0e4, -1.0e4),
            2 => Vec2::new(-1.0e5, 1.0e5),
            _ => Vec2::new(1.0e6, 1.0e6),
        };
        let path_length = rng.log_size(1.0, 1.0e4);
        let direction = Vec2::from_angle(rng.angle());
        let start = center - direction * (path_length / 2.0);
        let end = center + direction * (path_length / 2.0);
        let normal = direction.perp();
        let mut world = World::with_broad_phase(kind).unwrap();
        let bullet = world
            .insert(
                Collider::new(bullet_shape(&mut rng))
                    .with_transform(Transform::new(start, 0.0))
                    .with_continuous(true),
            )
            .unwrap();
        let mut obstacles = Vec::new();
        for _ in 0..4 {
            let along = rng.range(0.1, 0.9) * path_length - path_length / 2.0;
            let beside = rng.range(-2.0, 2.0);
            let at = center + direction * along + normal * beside;
            let handle = world
                .insert(
                    Collider::new(obstacle_shape(&mut rng))
                        .with_transform(Transform::new(at, rng.angle())),
                )
                .unwrap();
            obstacles.push(handle);
        }
        // A second bullet crossing the path, meeting the first or not.
        let meet = rng.range(0.1, 0.9);
        let meet_at = start + (end - start) * meet + normal * rng.range(-1.0, 1.0);
        let cross_length = rng.log_size(1.0, 1.0e3);
        let cross_direction = Vec2::from_angle(rng.angle());
        let cross_start = meet_at - cross_direction * (cross_length * meet);
        let cross_end = meet_at + cross_direction * (cross_length * (1.0 - meet));
        let crosser = world
            .insert(
                Collider::new(bullet_shape(&mut rng))
                    .with_transform(Transform::new(cross_start, 0.0))
                    .with_continuous(true),
            )
            .unwrap();
        world.update();
        let starts: BTreeMap<ColliderHandle, Vec<Piece>> = world
            .iter()
            .map(|(h, c)| (h, pieces(c.shape(), &c.world_transform())))
            .collect();
        let start_placements: BTreeMap<ColliderHandle, Transform> = world
            .iter()
            .map(|(h, c)| (h, c.world_transform()))
            .collect();
        let touching_at_start: Vec<_> = world.contacts().map(|(a, b, _)| (a, b)).collect();
        world
            .set_transform(bullet, Transform::new(end, 0.0))
            .unwrap();
        world
            .set_transform(crosser, Transform::new(cross_end, 0.0))
            .unwrap();
        world.update();
        let began: BTreeMap<(ColliderHandle, ColliderHandle), Option<f32>> = world
            .began()
            .iter()
            .filter_map(|e| match *e {
                CollisionEvent::Begin {
                    a,
                    b,
                    time_of_impact,
                    ..
                } => Some(((a, b), time_of_impact.map(|t| t.get()))),
                _ => None,
            })
            .collect();
        let travel = |h: ColliderHandle| -> P {
            let (before, now) = (
                start_placements[&h].p,
                world.get(h).unwrap().world_transform().p,
            );
            [
                f64::from(now.x) - f64::from(before.x),
                f64::from(now.y) - f64::from(before.y),
            ]
        };
        let mut pairs: Vec<(ColliderHandle, ColliderHandle)> = obstacles
            .iter()
            .map(|&o| (bullet.min(o), bullet.max(o)))
            .collect();
        pairs.extend(obstacles.iter().map(|&o| (crosser.min(o), crosser.max(o))));
        pairs.push((bullet.min(crosser), bullet.max(crosser)));
        for (a, b) in pairs {
            if touching_at_start.contains(&(a, b)) {
                continue;
            }
            let motion = sub(travel(b), travel(a));
            // The cast's tolerance (see `continuous::cast_options`), with room for rounding.
            let scale = [start, end, cross_start, cross_end]
                .iter()
                .map(|p| p.abs().max_element())
                .fold(path_length.max(cross_length), f32::max);
            let tolerance = f64::from((scale * 4.0 * f32::EPSILON).max(1.0e-5));
            // How far from a chain's line a centroid must be to tell its side: the bullet's
            // extent (its centroid meets the line edge-on near a segment's end).
            let margin = 0.3 + tolerance;
            let mut unclear = false;
            let mut first: Option<f64> = None;
            for pa in &starts[&a] {
                for pb in &starts[&b] {
                    match first_touch(pa, pb, motion, tolerance, margin) {
                        Touch::Miss => {}
                        Touch::Unclear => unclear = true,
                        Touch::At(t) => first = Some(first.map_or(t, |f: f64| f.min(t))),
                    }
                }
            }
            let context = format!(
                "case {case}, {kind:?}, about {center}, pair {a:?} {b:?}: first {first:?}, \
                 tolerance {tolerance}, {:?} / {:?}",
                world.get(a).unwrap().shape(),
                world.get(b).unwrap().shape()
            );
            if unclear {
                continue; // a graze or an edge-on meeting: either answer is right
            }
            let time = began.get(&(a, b));
            let Some(exact) = first else {
                assert!(time.is_none(), "{context}: a Begin at {time:?} for a miss");
                misses += 1;
                continue;
            };
            if a == bullet.min(crosser) && b == bullet.max(crosser) {
                crossings += 1;
            }
            hits += 1;
            let Some(&Some(time)) = time else {
                panic!("{context}: tunnelled ({time:?})");
            };
            // At the reported time the shapes are within the tolerance of touching (not
            // apart by more, not deeper), and not later than the exact first touch.
            let time = f64::from(time);
            let gap_then = starts[&a]
                .iter()
                .flat_map(|pa| starts[&b].iter().map(move |pb| (pa, pb)))
                .map(|(pa, pb)| gap(pa, pb, motion, time))
                .fold(f64::INFINITY, f64::min);
            let speed = length(motion);
            assert!(
                gap_then.abs() <= 3.0 * tolerance
                    || (time - exact).abs() * speed <= 3.0 * tolerance,
                "{context}: time {time}, exact {exact}, gap then {gap_then}"
            );
            assert!(
                time <= exact + 3.0 * tolerance / speed,
                "{context}: time {time} after the exact {exact}"
            );
        }
    }
    assert!(
        hits > 1000 && misses > 4000 && crossings > 50,
        "{hits} hits, {misses} misses, {crossings} crossings"
    );
}
