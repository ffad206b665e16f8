//! Pair queries at the edges a game reaches, against an exact `f64` referee
//! ([`manifold_common::exact`]): every convex pair family touching, resting (0 to 1e-6 deep),
//! with nearly parallel faces (tilts of 1e-8 to 1e-3 rad), coincident, at size ratios of 1e6
//! (1e-3 against 1e3) and far from the origin (1e4 to 1e6). `collide`, `distance`, ray casts
//! and linear shape casts are each held to the crate's tolerance: 1e-4 × the smaller shape's
//! size plus the rounding of the coordinates involved (8 `f32` ulps of the farthest one).
//!
//! Where the crate docs give no tolerance (whether a ray that grazes a corner hits, how early a
//! cast may stop), the tests expect what a game needs: an answer may differ from the exact one
//! only where the exact one changes within that same tolerance (a ray that enters a shape by
//! more than the tolerance hits it; a cast stops before the shapes overlap by more than it).

use crate::manifold_common::exact::{core, exact, line_extent, signed_distance, Core, Exact};
use crate::support::probe_shapes::{make, Kind, CONVEX_KINDS as KINDS};
use crate::support::{assert_no_failures, bisect, Rng};

use collide2d::query::{shape_cast, CastOptions, Sweep};
use collide2d::shape::{Capsule, Circle, Polygon, Segment, Shape};
use collide2d::{collide, distance, overlaps, Ray, Rot, Transform, Vec2};
use std::f32::consts::TAU;

/// The local outward directions of the shape's flat faces (a random direction for a circle).
fn faces(shape: &Shape, rng: &mut Rng) -> Vec<Vec2> {
    match shape {
        Shape::Polygon(polygon) => polygon.normals().to_vec(),
        Shape::Capsule(capsule) => {
            let n = (capsule.b() - capsule.a()).normalize().perp();
            vec![n, -n]
        }
        Shape::Segment(segment) => vec![segment.normal(), -segment.normal()],
        _ => vec![Rot::from_angle(rng.range(0.0, TAU)).rotate(Vec2::X)],
    }
}

fn size(shape: &Shape) -> f32 {
    shape.aabb(&Transform::IDENTITY).extents().max_element() * 2.0
}

/// A pair and where it is placed.
struct Pair {
    a: Shape,
    xf_a: Transform,
    b: Shape,
    xf_b: Transform,
}

impl Pair {
    /// The crate's tolerance for this pair: 1e-4 × the smaller size plus 8 ulps of the
    /// farthest coordinate involved.
    fn tolerance(&self) -> f64 {
        let (size_a, size_b) = (size(&self.a), size(&self.b));
        let far = self
            .xf_a
            .p
            .abs()
            .max_element()
            .max(self.xf_b.p.abs().max_element())
            + size_a.max(size_b);
        1e-4 * f64::from(size_a.min(size_b)) + 8.0 * f64::from(f32::EPSILON) * f64::from(far)
    }
    fn cores(&self) -> (Core, Core) {
        let origin = self.xf_a.p;
        (
            core(&self.a, &self.xf_a, origin).unwrap(),
            core(&self.b, &self.xf_b, origin).unwrap(),
        )
    }
    fn exact(&self) -> Exact {
        let (a, b) = self.cores();
        exact(&a, &b)
    }
    /// A point relative to A's position, in `f64`.
    fn local(&self, p: Vec2) -> [f64; 2] {
        [
            f64::from(p.x) - f64::from(self.xf_a.p.x),
            f64::from(p.y) - f64::from(self.xf_a.p.y),
        ]
    }
}

impl std::fmt::Debug for Pair {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{:?} at {:?} / {:?} at {:?}",
            self.a, self.xf_a, self.b, self.xf_b
        )
    }
}

/// The configurations the probes draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Setting {
    /// Faces facing each other exactly, 0 to 1e-6 deep (relative to the smaller size).
    Resting,
    /// Faces tilted by 1e-8 to 1e-3 rad, within ±1e-6 of touching.
    Tilted,
    /// Any orientation, just touching.
    Touching,
    /// Any orientation, from 10 % deep to 10 % apart.
    General,
    /// One shape 1e-3 across and the other 1e3, resting or tilted.
    HugeRatio,
    /// A placed 1e4 to 1e6 from the origin, resting or tilted.
    Far,
}

const SETTINGS: [Setting; 6] = [
    Setting::Resting,
    Setting::Tilted,
    Setting::Touching,
    Setting::General,
    Setting::HugeRatio,
    Setting::Far,
];

/// A pair of `kind_a` and `kind_b` in `setting`: B's face turned to face one of A's (tilted by
/// `tilt`), slid along it, then pushed along A's face normal until the exact depth is the one
/// wanted (bisection on the referee).
fn place(kinds: (Kind, Kind), setting: Setting, rng: &mut Rng) -> Pair {
    let (mut size_a, mut size_b) = (rng.log_size(0.2, 5.0), rng.log_size(0.2, 5.0));
    if setting == Setting::HugeRatio {
        (size_a, size_b) = if rng.chance(0.5) {
            (1e-3, 1e3)
        } else {
            (1e3, 1e-3)
        };
    }
    let a = make(kinds.0, size_a, rng);
    let b = make(kinds.1, size_b, rng);
    let small = size(&a).min(size(&b));
    let position = match setting {
        Setting::Far => {
            let reach = rng.log_size(1e4, 1e6);
            Rot::from_angle(rng.angle()).rotate(Vec2::X) * reach
        }
        _ => rng.point(50.0),
    };
    let xf_a = Transform::new(position, rng.angle());
    let faces_a = faces(&a, rng);
    let face_a = xf_a.rotate(rng.pick(&faces_a));
    let faces_b = faces(&b, rng);
    let face_b = rng.pick(&faces_b);
    let flat = matches!(setting, Setting::Resting) || rng.chance(0.3);
    let tilt = match setting {
        Setting::Touching | Setting::General => rng.angle(),
        _ if flat => 0.0,
        _ => rng.log_size(1e-8, 1e-3) * if rng.chance(0.5) { 1.0 } else { -1.0 },
    };
    let angle = (-face_a).y.atan2((-face_a).x) + tilt - face_b.y.atan2(face_b.x);
    let q = Rot::from_angle(angle);
    let depth = match setting {
        Setting::Resting => f64::from(small) * rng.range_f64(0.0, 1e-6),
        Setting::Touching => 0.0,
        Setting::General => f64::from(small) * rng.range_f64(-0.1, 0.1),
        _ => f64::from(small) * rng.range_f64(-1e-6, 1e-6),
    };
    let lateral = face_a.perp() * rng.range(-0.6, 0.6) * size_a.min(size_b * 2.0);
    let at = |s: f64| Transform {
        p: xf_a.p + lateral + face_a * s as f32,
        q,
    };
    let depth_at = |s: f64| {
        let pair = Pair {
            a: a.clone(),
            xf_a,
            b: b.clone(),
            xf_b: at(s),
        };
        pair.exact().depth
    };
    let mut low = 0.0;
    if depth_at(low) >= depth {
        let high = f64::from(size_a + size_b);
        (low, _) = bisect(low, high, 80, |s| depth_at(s) >= depth);
    }
    Pair {
        a,
        xf_a,
        xf_b: at(low),
        b,
    }
}

/// Every pair of kinds in every setting, `per` cases each, handed to `check`, which returns
/// an error message for a wrong answer. Panics with the first few failures.
fn probe(seed: u64, per: usize, mut check: impl FnMut(&Pair, &mut Rng) -> Option<String>) {
    let mut rng = Rng(seed);
    let mut failures = Vec::new();
    let mut count = 0;
    for kind_a in KINDS {
        for kind_b in KINDS {
            for setting in SETTINGS {
                for case in 0..per {
                    let pair = place((kind_a, kind_b), setting, &mut rng);
                    count += 1;
                    if let Some(message) = check(&pair, &mut rng) {
                        failures.push(format!(
                            "{kind_a:?}-{kind_b:?} {setting:?} case {case}: {message}\n  {pair:?}"
                        ));
                    }
                }
            }
        }
    }
    assert_no_failures(&failures, count, 8);
}

/// `collide` against the referee: present exactly when the exact depth is beyond the
/// tolerance either way; its normal (near-)deepest; its deepest point as deep as the shapes;
/// each point `± normal · penetration / 2` on the two surfaces.
fn check_manifold(pair: &Pair) -> Option<String> {
    let m = collide(&pair.a, &pair.xf_a, &pair.b, &pair.xf_b);
    let truth = pair.exact();
    let tolerance = pair.tolerance();
    if m.is_empty() {
        return (truth.depth > tolerance).then(|| {
            format!(
                "no contact, exact depth {:e} (tolerance {tolerance:e})",
                truth.depth
            )
        });
    }
    if truth.depth < -tolerance {
        return Some(format!(
            "contact {m:?}, exact depth {:e} (tolerance {tolerance:e})",
            truth.depth
        ));
    }
    let length = m.normal.length();
    if (length - 1.0).abs() > 1e-5 {
        return Some(format!("normal {:?} of length {length}", m.normal));
    }
    let n = [f64::from(m.normal.x), f64::from(m.normal.y)];
    let (core_a, core_b) = pair.cores();
    let along = core_a.depth_along(&core_b, n);
    // The normal may be a near-tie axis, 1e-4 × size deeper than the exact minimum at most.
    if along - truth.depth > 2.0 * tolerance {
        return Some(format!(
            "normal {:?} gives depth {along:e}, exact {:e} along {:?}",
            m.normal, truth.depth, truth.normal
        ));
    }
    let deepest = f64::from(m.max_penetration());
    if (deepest - along).abs() > tolerance {
        return Some(format!(
            "deepest point {deepest:e}, the shapes overlap {along:e} along the normal ({m:?})"
        ));
    }
    for point in m.points() {
        let p = pair.local(point.point);
        let half = 0.5 * f64::from(point.penetration);
        let on_a = [p[0] + n[0] * half, p[1] + n[1] * half];
        let on_b = [p[0] - n[0] * half, p[1] - n[1] * half];
        let (off_a, off_b) = (
            signed_distance(&core_a, on_a),
            signed_distance(&core_b, on_b),
        );
        if off_a.abs().max(off_b.abs()) > tolerance {
            return Some(format!(
                "point {point:?} is {off_a:e} off A's surface and {off_b:e} off B's ({m:?})"
            ));
        }
    }
    None
}

#[test]
fn manifolds_match_the_exact_referee_at_the_edges() {
    probe(0x51ed_0001, 40, |pair, _| check_manifold(pair));
}

/// `distance` against the referee: the distance (zero when overlapping), the closest points
/// on the surfaces and that far apart, the normal along them; `overlaps` agreeing outside the
/// tolerance band.
fn check_distance(pair: &Pair) -> Option<String> {
    let out = distance(&pair.a, &pair.xf_a, &pair.b, &pair.xf_b);
    let truth = pair.exact();
    let tolerance = pair.tolerance();
    let expected = (-truth.depth).max(0.0);
    if (f64::from(out.distance) - expected).abs() > tolerance {
        return Some(format!("distance {out:?}, exact {expected:e}"));
    }
    let overlapping = overlaps(&pair.a, &pair.xf_a, &pair.b, &pair.xf_b);
    if overlapping != (truth.depth >= 0.0) && truth.depth.abs() > tolerance {
        return Some(format!(
            "overlaps {overlapping}, exact depth {:e}",
            truth.depth
        ));
    }
    if out.distance > 0.0 {
        let (core_a, core_b) = pair.cores();
        let (pa, pb) = (pair.local(out.point_a), pair.local(out.point_b));
        let (off_a, off_b) = (signed_distance(&core_a, pa), signed_distance(&core_b, pb));
        if off_a.abs().max(off_b.abs()) > tolerance {
            return Some(format!(
                "closest points {off_a:e} and {off_b:e} off: {out:?}"
            ));
        }
        let gap = ((pb[0] - pa[0]).powi(2) + (pb[1] - pa[1]).powi(2)).sqrt();
        if (gap - f64::from(out.distance)).abs() > tolerance {
            return Some(format!("closest points {gap:e} apart: {out:?}"));
        }
        if (out.normal.length() - 1.0).abs() > 1e-5 {
            return Some(format!("normal not unit: {out:?}"));
        }
        let n = [f64::from(out.normal.x), f64::from(out.normal.y)];
        let along = -core_a.depth_along(&core_b, n);
        if (along - expected).abs() > tolerance {
            return Some(format!(
                "normal separates by {along:e}, distance {expected:e}: {out:?}"
            ));
        }
    }
    None
}

#[test]
fn distances_match_the_exact_referee_at_the_edges() {
    probe(0x51ed_0002, 40, |pair, _| check_distance(pair));
}

/// The lowest value of a convex function on `[low, high]` (golden-section search).
fn convex_minimum(mut low: f64, mut high: f64, f: impl Fn(f64) -> f64) -> (f64, f64) {
    const R: f64 = 0.618_033_988_749_894_9;
    for _ in 0..100 {
        let (x1, x2) = (high - R * (high - low), low + R * (high - low));
        if f(x1) <= f(x2) {
            high = x2;
        } else {
            low = x1;
        }
    }
    let x = 0.5 * (low + high);
    (x, f(x))
}

/// A ray at `pair.a`'s shape: at its centre, through one of its core's vertices, along one of
/// its edges, or tangent to it (by `round`), from outside or inside.
fn ray_at(pair: &Pair, round: usize, rng: &mut Rng) -> Ray {
    let (a, xf) = (&pair.a, &pair.xf_a);
    let extent = size(a);
    let (vertices, radius): (Vec<Vec2>, f32) = match a {
        Shape::Circle(c) => (vec![c.center()], c.radius()),
        Shape::Capsule(c) => (vec![c.a(), c.b()], c.radius()),
        Shape::Segment(s) => (vec![s.a(), s.b()], 0.0),
        Shape::Polygon(p) => (p.vertices().to_vec(), p.radius()),
        _ => unreachable!(),
    };
    let i = rng.below(vertices.len());
    let vertex = xf.apply(vertices[i]);
    let next = xf.apply(vertices[(i + 1) % vertices.len()]);
    let reach = extent * rng.range(0.6, 3.0);
    let (origin, direction) = match round % 5 {
        // At the centre, from anywhere around it (inside too).
        0 => {
            let from = xf.p + rng.point(extent);
            (from, xf.p + rng.point(0.3 * extent) - from)
        }
        // Through a vertex of the core, pushed out by the rounding along a random direction.
        1 => {
            let out = Rot::from_angle(rng.angle()).rotate(Vec2::X);
            let target = vertex + out * radius;
            let direction = Rot::from_angle(rng.angle()).rotate(Vec2::X);
            (target - direction * reach, direction)
        }
        // Along an edge (or its rounded side), starting before its first end.
        2 if next != vertex => {
            let along = (next - vertex).normalize();
            let side = -along.perp() * radius;
            let tilt = Rot::from_angle(
                rng.log_size(1e-8, 1e-3) * if rng.chance(0.5) { 1.0 } else { -1.0 },
            );
            let direction = if rng.chance(0.5) {
                along
            } else {
                tilt.rotate(along)
            };
            (vertex + side - direction * reach, direction)
        }
        // Tangent to the rounded surface at a vertex (grazing a corner).
        3 => {
            let out = Rot::from_angle(rng.angle()).rotate(Vec2::X);
            let direction = out.perp();
            (vertex + out * radius - direction * reach, direction)
        }
        _ => {
            let from = xf.p + rng.point(3.0 * extent);
            (from, xf.p + rng.point(extent) - from)
        }
    };
    let max = if rng.chance(0.2) {
        reach * rng.range(0.5, 1.5)
    } else {
        4.0 * reach
    };
    Ray::new(origin, direction, max).unwrap_or_else(|_| Ray::new(origin, Vec2::X, max).unwrap())
}

/// A ray cast against the referee: a ray that runs deeper than the tolerance into the shape
/// hits it; a hit lies on the surface, the ray does not run deeper than the tolerance inside
/// before it, and its normal is unit, faces the ray and is the surface's at the point.
fn check_ray(pair: &Pair, ray: &Ray) -> Option<String> {
    let hit = pair.a.ray_cast(&pair.xf_a, ray);
    let (core_a, _) = pair.cores();
    // The tolerance of the one shape hit: 1e-4 × its size, and the rounding of the ray's and
    // the shape's coordinates.
    let far = pair.xf_a.p.abs().max_element() + size(&pair.a);
    let tolerance = 1e-4 * f64::from(size(&pair.a))
        + 8.0
            * f64::from(f32::EPSILON)
            * f64::from(far + ray.origin.abs().max_element() + ray.max_distance);
    let o = pair.local(ray.origin);
    let d = [f64::from(ray.direction.x), f64::from(ray.direction.y)];
    let length = (d[0] * d[0] + d[1] * d[1]).sqrt();
    let d = [d[0] / length, d[1] / length];
    let at = |t: f64| [o[0] + d[0] * t, o[1] + d[1] * t];
    let max = f64::from(ray.max_distance);
    let deepest_on = |low: f64, high: f64| {
        if high < low {
            return f64::INFINITY;
        }
        convex_minimum(low, high, |t| signed_distance(&core_a, at(t))).1
    };
    let Some(hit) = hit else {
        let deepest = deepest_on(0.0, max);
        return (deepest < -tolerance)
            .then(|| format!("{ray:?} misses, but runs {:e} deep inside", -deepest));
    };
    let distance = f64::from(hit.distance);
    if !(0.0..=max + tolerance).contains(&distance) {
        return Some(format!("{ray:?} hit {hit:?} beyond its length"));
    }
    let start = signed_distance(&core_a, o);
    if distance == 0.0 && start <= tolerance {
        return None;
    }
    let off = signed_distance(&core_a, at(distance));
    let before = deepest_on(0.0, distance);
    let entry = line_extent(&core_a, o, d).map(|(low, _)| low);
    if off.abs() > tolerance || before < -tolerance {
        return Some(format!(
            "{ray:?} hit {hit:?}: {off:e} off the surface, {:e} deep before it (exact entry {entry:?})",
            -before
        ));
    }
    // Facing the ray: a tangent hit's normal is square to it, to rounding.
    if (hit.normal.length() - 1.0).abs() > 1e-5 || hit.normal.dot(ray.direction) > 1e-5 {
        return Some(format!(
            "{ray:?} hit {hit:?}: normal not unit or not facing the ray"
        ));
    }
    // The surface's normal: the point a step out along it is that far outside.
    let step = (1e-3 * f64::from(size(&pair.a))).max(100.0 * tolerance);
    let n = [f64::from(hit.normal.x), f64::from(hit.normal.y)];
    let p = at(distance);
    let out = signed_distance(&core_a, [p[0] + n[0] * step, p[1] + n[1] * step]);
    if out < step * (1.0 - 1e-2) - tolerance {
        return Some(format!(
            "{ray:?} hit {hit:?}: a step {step:e} along the normal is only {out:e} outside"
        ));
    }
    None
}

#[test]
fn ray_casts_match_the_exact_referee_at_the_edges() {
    let mut round = 0;
    probe(0x51ed_0003, 16, |pair, rng| {
        round += 1;
        let ray = ray_at(pair, round, rng);
        check_ray(pair, &ray)
    });
}

/// A linear cast of A towards B, from where `pair` places it back along the motion (at `t0`
/// of the way), against the referee's gap along the path, which is convex in time.
fn check_cast(pair: &Pair, rng: &mut Rng) -> Option<String> {
    let truth = pair.exact();
    let small = size(&pair.a).min(size(&pair.b));
    let toward = truth.normal_or_x();
    // Into B, along it, or away; at times starting at the placed contact.
    let angle = match rng.below(4) {
        0 => rng.range(-1.4, 1.4),
        1 => std::f32::consts::FRAC_PI_2 * if rng.chance(0.5) { 1.0 } else { -1.0 },
        2 => std::f32::consts::PI - rng.range(-1.0, 1.0),
        _ => rng.range(-0.3, 0.3),
    };
    let length = small * rng.log_size(0.1, 20.0);
    let delta = Rot::from_angle(angle).rotate(toward) * length;
    let t0 = if rng.chance(0.3) {
        0.0
    } else {
        rng.range(0.0, 1.0)
    };
    let start = Transform {
        p: pair.xf_a.p - delta * t0,
        q: pair.xf_a.q,
    };
    let target = if rng.chance(0.5) { 0.0 } else { 0.01 * small };
    let options = CastOptions {
        target_separation: target,
        tolerance: (1e-4 * small).max(1e-6),
        ..CastOptions::default()
    };
    let hit = shape_cast(
        &pair.a,
        &Sweep::linear(&start, delta),
        &pair.b,
        &Sweep::fixed(&pair.xf_b),
        options,
    );
    let gap_at = |t: f64| {
        let moved = Pair {
            a: pair.a.clone(),
            xf_a: Transform {
                p: start.p + delta * t as f32,
                q: start.q,
            },
            b: pair.b.clone(),
            xf_b: pair.xf_b,
        };
        // Measured from A's placed position, so every time shares one origin.
        let origin = pair.xf_a.p;
        let (a, b) = (
            core(&moved.a, &moved.xf_a, origin).unwrap(),
            core(&moved.b, &moved.xf_b, origin).unwrap(),
        );
        -exact(&a, &b).depth
    };
    let tolerance = pair.tolerance()
        + 8.0 * f64::from(f32::EPSILON) * f64::from(start.p.abs().max_element() + length);
    let target = f64::from(target);
    let (t_low, lowest) = convex_minimum(0.0, 1.0, gap_at);
    let (t_low, lowest) = if gap_at(0.0) <= lowest {
        (0.0, gap_at(0.0))
    } else {
        (t_low, lowest)
    };
    // The last time the gap is still above `target − tolerance` before it closes.
    let enters = (lowest < target - tolerance)
        .then(|| bisect(0.0, t_low, 80, |t| gap_at(t) >= target - tolerance).1);
    let describe = || {
        format!(
            "cast from {start:?} by {delta:?}, target {target:e}: {hit:?}; gap at 0 {:e}, lowest {lowest:e} at {t_low}, enters {enters:?}",
            gap_at(0.0)
        )
    };
    // A start already within the target is a hit at once when the motion closes the gap and
    // a miss when it opens it (the default options). The gap is convex in time, so a chord
    // after the start bounds its slope there from above and one before it from below: a
    // chord falling faster than 2 % of the motion proves the gap closes, one rising that fast
    // before the start proves it opens. Closer to sliding along, either answer is right.
    let start_gap = gap_at(0.0);
    if start_gap < target - tolerance {
        let step = 1e-2;
        let after = (gap_at(step) - start_gap) / step;
        let before = (start_gap - gap_at(-step)) / step;
        // Far from the origin, positions a step apart round by ulps of their coordinates.
        let rounding =
            8.0 * f64::from(f32::EPSILON) * f64::from(start.p.abs().max_element()) / step;
        let clear = 2e-2 * f64::from(length) + rounding;
        return match hit {
            Some(hit) if hit.t > 0.0 => Some(format!("hit later than the start; {}", describe())),
            Some(_) if before > clear => Some(format!("hit while leaving; {}", describe())),
            None if after < -clear => Some(format!("miss while closing; {}", describe())),
            _ => None,
        };
    }
    let Some(hit) = hit else {
        return enters.map(|_| format!("miss; {}", describe()));
    };
    let t = f64::from(hit.t);
    let gap = gap_at(t);
    let time_slack = tolerance / f64::from(length);
    if gap < target - tolerance || enters.is_some_and(|enter| t > enter + time_slack) {
        return Some(format!(
            "stepped past the contact (gap {gap:e}); {}",
            describe()
        ));
    }
    if hit.converged && gap > target + f64::from(options.tolerance) + tolerance {
        return Some(format!("stopped early (gap {gap:e}); {}", describe()));
    }
    if (hit.normal.length() - 1.0).abs() > 1e-5 {
        return Some(format!("normal not unit; {}", describe()));
    }
    // The normal separates the shapes at the hit by the gap there.
    let at_hit = Pair {
        a: pair.a.clone(),
        xf_a: Transform {
            p: start.p + delta * hit.t,
            q: start.q,
        },
        b: pair.b.clone(),
        xf_b: pair.xf_b,
    };
    let origin = pair.xf_a.p;
    let n = [f64::from(hit.normal.x), f64::from(hit.normal.y)];
    let along = -core(&at_hit.a, &at_hit.xf_a, origin)
        .unwrap()
        .depth_along(&core(&at_hit.b, &at_hit.xf_b, origin).unwrap(), n);
    // Within 1e-3 rad of the exact normal (for a shape 1e3 across, a tilt that small still
    // moves its far side by a unit), or, where the exact one is a near tie, one that separates
    // the shapes by the gap.
    let exact_at_hit = {
        let (a, b) = (
            core(&at_hit.a, &at_hit.xf_a, origin).unwrap(),
            core(&at_hit.b, &at_hit.xf_b, origin).unwrap(),
        );
        exact(&a, &b)
    };
    let angle = crate::manifold_common::exact::angle_to(&exact_at_hit, hit.normal);
    if angle > 1e-3 && (along - gap).abs() > tolerance + 1e-3 * gap.abs() {
        return Some(format!(
            "normal {angle:e} rad off the exact {:?} and separates by {along:e}, gap {gap:e}; {}",
            exact_at_hit.normal,
            describe()
        ));
    }
    None
}

#[test]
fn linear_casts_match_the_exact_referee_at_the_edges() {
    probe(0x51ed_0004, 12, check_cast);
}

/// A ball 1e-3 across cast onto a face of a box 700 across: the normal at the hit is the face's
/// (it came from the offset of the closest points, whose rounding on the big box, ulps of 300,
/// is a tenth of the ball's radius: the normal was 0.014 rad off and leaned into the box).
#[test]
fn tiny_ball_cast_onto_a_huge_box_gets_the_face_normal() {
    let ball =
        Shape::from(Circle::new(Vec2::new(3.413666e-5, 9.235725e-6), 0.000_444_587_96).unwrap());
    let big = Shape::from(Polygon::rect(2.0 * 309.9489, 2.0 * 375.432_68).unwrap());
    let start = Transform {
        p: Vec2::new(-14.614206, -18.72411),
        q: Rot {
            c: -0.9544822,
            s: -0.2982678,
        },
    };
    let place = Transform {
        p: Vec2::new(33.502373, -324.9457),
        q: Rot {
            c: 0.1552327,
            s: -0.9878779,
        },
    };
    let delta = Vec2::new(0.0019503136, -0.029924259);
    let options = CastOptions {
        target_separation: 1.778_351_7e-5,
        tolerance: 1e-6,
        ..CastOptions::default()
    };
    let hit = shape_cast(
        &ball,
        &Sweep::linear(&start, delta),
        &big,
        &Sweep::fixed(&place),
        options,
    )
    .unwrap();
    // A's face facing the ball is the box's −x side: the normal from the ball is +x turned.
    let face = place.rotate(Vec2::X);
    assert!(
        hit.normal.angle_to(face).abs() < 1e-4,
        "{hit:?}, face {face:?}"
    );
}

/// Boxes overlapping by 0.1, one pushed further in by 0.005 with the default options (target
/// 0): a hit at once, as the docs promise for a start inside the target that approaches. The gap
/// is measured clamped at 0, so an overlapping start looked like one resting at the target, a
/// hit only if the gap closed by the tolerance within 64 small steps: slow pushes (less than 128
/// tolerances along the normal) went through.
#[test]
fn overlapping_start_pushed_further_in_is_a_hit_at_once() {
    let unit = Shape::from(Polygon::rect(1.0, 1.0).unwrap());
    let ball = Shape::from(Circle::with_radius(0.5).unwrap());
    let wall = Transform::new(Vec2::new(0.9, 0.0), 0.0);
    for mover in [&unit, &ball] {
        for push in [0.005, 0.5] {
            let sweep = Sweep::linear(&Transform::IDENTITY, Vec2::new(push, 0.0));
            let hit = shape_cast(
                mover,
                &sweep,
                &unit,
                &Sweep::fixed(&wall),
                CastOptions::default(),
            );
            let hit = hit.unwrap_or_else(|| panic!("{mover:?} pushed by {push}: no hit"));
            assert_eq!(hit.t, 0.0);
            assert!(hit.normal.angle_to(Vec2::X).abs() < 1e-4, "{hit:?}");
            // Pulled out, it leaves.
            let sweep = Sweep::linear(&Transform::IDENTITY, Vec2::new(-push, 0.0));
            let away = shape_cast(
                mover,
                &sweep,
                &unit,
                &Sweep::fixed(&wall),
                CastOptions::default(),
            );
            assert_eq!(away, None, "{mover:?} pulled by {push}");
        }
    }
}

/// A rounded polygon 1e-3 across resting on a box 900 across, its cores apart within the
/// radius: the normal is the box face's. It came from the offset between the closest core
/// points, whose rounding on the box's face (ulps of 300 in the small shape's frame) is as
/// large as that offset: 0.07 rad off, and the shapes overlapped by 43 along it.
#[test]
fn tiny_rounded_polygon_on_a_huge_box_gets_the_face_normal() {
    let tiny = Polygon::new(&[
        Vec2::new(-0.0004300092, -3.444495e-5),
        Vec2::new(-0.0001911007, -0.00024033056),
        Vec2::new(8.010944e-5, -0.00036529076),
        Vec2::new(-8.154615e-5, 0.00048393145),
    ])
    .unwrap()
    .with_radius(6.3657855e-5)
    .unwrap();
    let tiny = Shape::from(tiny);
    let big = Shape::from(Polygon::rect(2.0 * 447.38083, 2.0 * 314.82602).unwrap());
    let xf_tiny = Transform {
        p: Vec2::new(18.017975, -17.893745),
        q: Rot {
            c: -0.99984366,
            s: -0.017683689,
        },
    };
    let xf_big = Transform {
        p: Vec2::new(219.29128, 224.19034),
        q: Rot {
            c: 0.76894534,
            s: -0.63931453,
        },
    };
    let face = xf_big.rotate(-Vec2::Y);
    let m = collide(&tiny, &xf_tiny, &big, &xf_big);
    assert!(
        m.normal.angle_to(-face).abs() < 1e-5,
        "{m:?}, face normal {face:?}"
    );
    let pair = Pair {
        a: tiny,
        xf_a: xf_tiny,
        b: big,
        xf_b: xf_big,
    };
    assert_eq!(check_manifold(&pair), None);
}

/// Shapes resting exactly on each other (or overlapping by less than the tolerance) and pushed
/// into each other, with the default options (target 0): a hit at once.
#[test]
fn touching_start_pushed_in_is_a_hit_at_once() {
    let floor = Shape::from(Polygon::rect(4.0, 1.0).unwrap());
    let movers = [
        Shape::from(Circle::with_radius(0.5).unwrap()),
        Shape::from(Polygon::rect(1.0, 1.0).unwrap()),
        Shape::from(Capsule::new(Vec2::new(-0.3, 0.0), Vec2::new(0.3, 0.0), 0.5).unwrap()),
        Shape::from(Polygon::rect(0.6, 0.6).unwrap().with_radius(0.2).unwrap()),
    ];
    for mover in &movers {
        for sink in [0.0, 1e-7, -1e-7] {
            for push in [
                Vec2::new(0.0, -0.1),
                Vec2::new(0.3, -0.01),
                Vec2::new(-2.0, -0.5),
            ] {
                let start = Transform::from_translation(Vec2::new(0.2, 1.0 - sink));
                let sweep = Sweep::linear(&start, push);
                let hit = shape_cast(
                    mover,
                    &sweep,
                    &floor,
                    &Sweep::fixed(&Transform::IDENTITY),
                    CastOptions::default(),
                );
                let hit =
                    hit.unwrap_or_else(|| panic!("{mover:?} sunk {sink} pushed by {push}: no hit"));
                assert_eq!(hit.t, 0.0, "{mover:?} sunk {sink} pushed by {push}");
                assert!(hit.normal.angle_to(-Vec2::Y).abs() < 1e-4, "{hit:?}");
            }
        }
    }
}

/// Casts that start touching (within rounding) and push in: the hit at `t = 0` carries the
/// contact's normal. Its cores a few ulps apart, or apart by the rounding of a huge shape's
/// coordinates, the first probe's normal was noise and the hit took the line between the
/// shapes' origins instead (0.06 rad off for a box on a segment; for a box 1e-3 across on a
/// polygon 900 across, a normal 0.47 rad off, along which the shapes overlap by 72).
#[test]
fn touching_starts_pushed_in_get_the_contact_normal() {
    let cases = [
        (
            Shape::from(Polygon::rect(2.0 * 0.8659994, 2.0 * 0.7862731).unwrap()),
            Transform {
                p: Vec2::new(-2.5702133, 24.671547),
                q: Rot {
                    c: -0.9422746,
                    s: 0.33484128,
                },
            },
            Shape::from(
                Segment::new(
                    Vec2::new(0.034273587, 0.12203551),
                    Vec2::new(-0.0048904335, -0.12621608),
                )
                .unwrap(),
            ),
            Transform {
                p: Vec2::new(-3.4490402, 25.097206),
                q: Rot {
                    c: -0.6190471,
                    s: -0.78535384,
                },
            },
            Vec2::new(-0.05258334, 0.023144064),
            4.965_031_6e-5,
        ),
        (
            Shape::from(Polygon::rect(2.0 * 0.00021663109, 2.0 * 0.00041166157).unwrap()),
            Transform {
                p: Vec2::new(11.101883, 9.000733),
                q: Rot {
                    c: -0.5855123,
                    s: -0.8106636,
                },
            },
            Shape::from(
                Polygon::new(&[
                    Vec2::new(-193.31395, 313.87878),
                    Vec2::new(-137.32164, -434.93695),
                    Vec2::new(50.262573, -443.906),
                    Vec2::new(161.51479, -274.39734),
                    Vec2::new(120.61746, 270.9143),
                ])
                .unwrap(),
            ),
            Transform {
                p: Vec2::new(-346.3988, 267.21332),
                q: Rot {
                    c: 0.54587084,
                    s: 0.83786935,
                },
            },
            // Into the polygon's face (its normal from A is (-0.811, 0.585)).
            Vec2::new(-0.0024, 0.0018),
            1e-6,
        ),
    ];
    for (a, xf_a, b, xf_b, delta, tolerance) in cases {
        let contact = collide(&a, &xf_a, &b, &xf_b);
        assert!(!contact.is_empty());
        let options = CastOptions {
            tolerance,
            ..CastOptions::default()
        };
        let hit = shape_cast(
            &a,
            &Sweep::linear(&xf_a, delta),
            &b,
            &Sweep::fixed(&xf_b),
            options,
        )
        .unwrap();
        assert_eq!(hit.t, 0.0);
        assert!(
            hit.normal.angle_to(contact.normal).abs() < 1e-4,
            "{hit:?}, contact {contact:?}"
        );
    }
}

/// A ray running along a capsule's side, 6e-4 rad off it, entering where the side meets the
/// far cap: it hits there (exact entry 21.736), not at the near cap after running 1e-3 deep
/// inside the capsule for 2.8 units. The side's crossing rounded to just past its end while the
/// cap's disc, rounded the other way, missed.
#[test]
fn ray_along_a_capsule_side_hits_where_it_enters() {
    let capsule = Shape::from(
        Capsule::new(
            Vec2::new(-0.49459493, -0.82736063),
            Vec2::new(0.9424006, 1.6418962),
            0.7411388,
        )
        .unwrap(),
    );
    let xf = Transform {
        p: Vec2::new(-4.943722, 27.395096),
        q: Rot {
            c: 0.83979726,
            s: 0.54290015,
        },
    };
    let ray = Ray {
        origin: Vec2::new(-6.8094854, 50.96266),
        direction: Vec2::new(0.0471788, -0.99888647),
        max_distance: 24.601725,
    };
    let hit = capsule.ray_cast(&xf, &ray).unwrap();
    assert!((hit.distance - 21.7357).abs() < 0.05, "{hit:?}");
    let pair = Pair {
        a: capsule.clone(),
        xf_a: xf,
        b: capsule,
        xf_b: xf,
    };
    assert_eq!(check_ray(&pair, &ray), None);
}

/// A segment cast past a ball nearly along its own line, grazing it at its end: the face and
/// the end touch at nearly the same time. The hit first took the line to the end as its normal
/// from a time rounded early (0.0106 rad off), then the face normal; exactly, the ball meets
/// the end (the face's line is reached only at t = 1.86) and the normal at the hit runs from
/// the end to the ball's centre, 2.1e-3 rad from the face normal.
#[test]
fn segment_grazing_a_ball_at_its_end_gets_the_normal_from_the_end() {
    let segment = Shape::from(
        Segment::new(
            Vec2::new(-0.864519, 0.34308264),
            Vec2::new(1.322419, 0.21982571),
        )
        .unwrap(),
    );
    let ball = Shape::from(Circle::new(Vec2::new(0.035086397, 0.05337805), 0.3938102).unwrap());
    let start = Transform {
        p: Vec2::new(-13.421844, 28.324486),
        q: Rot {
            c: -0.118581444,
            s: 0.9929443,
        },
    };
    let xf_ball = Transform {
        p: Vec2::new(-13.471573, 19.140154),
        q: Rot {
            c: -0.5885769,
            s: 0.8084412,
        },
    };
    let delta = Vec2::new(0.9324578, -14.8855095);
    let options = CastOptions {
        tolerance: 2.2e-4,
        ..CastOptions::default()
    };
    let sweep = Sweep::linear(&start, delta);
    let hit = shape_cast(&segment, &sweep, &ball, &Sweep::fixed(&xf_ball), options).unwrap();
    // The segment's end nearer the ball at the hit, and the line from it to the ball's centre.
    let at_hit = sweep.transform_at(hit.t);
    let end = at_hit.apply(Vec2::new(-0.864519, 0.34308264));
    let centre = xf_ball.apply(Vec2::new(0.035086397, 0.05337805));
    let exact = (centre - end).normalize();
    assert!(
        hit.normal.angle_to(exact).abs() < 1e-4,
        "{hit:?}, from the end {exact:?}"
    );
}

/// A rotating cast of A past or into B (turning by up to ±3 rad over the step, from the
/// placed contact or before it): a hit never comes after the shapes overlap by more than the
/// tolerance (checked at 256 times of the step up to the hit: no tunnelling), the shapes do not
/// overlap by more than it at the hit, a converged hit is within the tolerance of the target,
/// and a miss never overlaps by more than it anywhere on the step.
fn check_rotating_cast(pair: &Pair, rng: &mut Rng) -> Option<String> {
    let small = size(&pair.a).min(size(&pair.b));
    let length = small * rng.log_size(0.1, 20.0);
    let delta = Rot::from_angle(rng.angle()).rotate(Vec2::X) * length;
    let turn = rng.range(-3.0, 3.0);
    let t0 = rng.range(0.0, 1.0);
    let start = Transform {
        p: pair.xf_a.p - delta * t0,
        q: pair.xf_a.q.mul(Rot::from_angle(-turn * t0)),
    };
    let sweep = Sweep::spinning(&start, delta, turn);
    let options = CastOptions {
        tolerance: (1e-4 * small).max(1e-6),
        ..CastOptions::default()
    };
    let hit = shape_cast(&pair.a, &sweep, &pair.b, &Sweep::fixed(&pair.xf_b), options);
    let reach = size(&pair.a) * turn.abs() + length;
    let tolerance = pair.tolerance()
        + 8.0 * f64::from(f32::EPSILON) * f64::from(start.p.abs().max_element() + reach);
    let depth_at = |t: f32| {
        let moved = Pair {
            a: pair.a.clone(),
            xf_a: sweep.transform_at(t),
            b: pair.b.clone(),
            xf_b: pair.xf_b,
        };
        moved.exact().depth
    };
    // A start touching or overlapping is the linear probe's subject (its rules need the
    // slope of the gap there); here the path from a clear start.
    if depth_at(0.0) > -tolerance {
        return None;
    }
    let end = hit.map_or(1.0, |hit| hit.t);
    for k in 0..=256 {
        let t = end * k as f32 / 256.0;
        let depth = depth_at(t);
        if depth > tolerance && t > 0.0 {
            return Some(format!(
                "overlapping {depth:e} at t = {t} before the answer {hit:?} (turn {turn}, by {delta:?}, from {start:?})"
            ));
        }
    }
    let hit = hit?;
    let depth = depth_at(hit.t);
    if hit.t > 0.0 && hit.converged && -depth > f64::from(options.tolerance) + tolerance {
        return Some(format!(
            "stopped {:e} short (turn {turn}, by {delta:?}, from {start:?}): {hit:?}",
            -depth
        ));
    }
    None
}

#[test]
fn rotating_casts_never_pass_a_contact_at_the_edges() {
    probe(0x51ed_0005, 10, check_rotating_cast);
}
