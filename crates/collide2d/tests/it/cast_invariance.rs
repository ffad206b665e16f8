//! Shape casts and ray casts under symmetry and scale, swept over every pair of shape kinds
//! (chains and compounds included) and every shape for rays.
//!
//! Each case is asked again in a transformed setting and the two answers must agree:
//!
//! 1. rigid motion: the whole query rotated and translated (to 1e4..1e5 out) gives the same
//!    hit or miss, the same time of impact, and the normal and point moved with it;
//! 2. swap: `B` cast against `A` gives the same time, the negated normal and the same point;
//!    `A` moving by `v` against a still `B` equals `B` moving by `−v` against a still `A`
//!    (the point then seen from `A`);
//! 3. scale: everything scaled by `s` (tolerances too) keeps the time and scales the point;
//! 4. the time itself: starting again from the hit path's position at an earlier time `τ`
//!    moves the time of impact to `(t − τ) / (1 − τ)`; at the reported time the exact `f64`
//!    gap is within the tolerance of the target, and no earlier sampled time overlaps.
//!
//! Tolerances. The cast's `tolerance` is 1e-4 of the smaller shape's size, at least 4 ulps of
//! the scene's magnitude (as in `cast_reference`). `slack` is the rounding of a placement at
//! that magnitude: 8 ulps of the largest coordinate, motion and reach of either setting. Two
//! answers are a distance `allow = 2 (tolerance + slack) + 1e-4 · small` apart at most (each
//! is within `tolerance` of the target, and each setting rounds its placements); in time that
//! is `allow` over the speed at which the gap closes along the normal (plus any turn times the
//! reach). A normal may differ from the other where the contact has a cone of normals (corner
//! on corner): it must then separate the shapes at that time to within `allow`. A point may
//! differ where the contact is a face on a face: it must then lie within `allow` of both
//! surfaces. A hit against a miss, or a hit at 0 against a later one, is allowed only where
//! the case is within `allow` of a threshold that decides it (the path's closest approach to
//! the target, or a start at the edge of the band around it): grazing cases are skipped, and
//! counted.

use crate::manifold_common::exact::{cores, exact, signed_distance, Core};
use crate::support::probe_shapes::{make, unit, Kind, KINDS};
use crate::support::Rng;
use collide2d::query::{shape_cast, CastHit, CastOptions, Sweep};
use collide2d::shape::{Polygon, Ray, Shape};
use collide2d::{Rot, Transform, Vec2};

/// The settings a case is drawn in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Setting {
    /// Sizes 0.3..3 near the origin, ordinary speeds, some turning.
    Ordinary,
    /// A shape 1e-2 against one 1e2..1e3.
    HugeRatio,
    /// The pair 1e4..1e5 from the origin.
    Far,
    /// Sizes 1e-2..1e3 with the same proportions.
    Sized,
    /// A path shifted sideways to just touch (or just miss) the other shape.
    Grazing,
    /// A box's face sliding along a box's face at a gap within a few tolerances.
    Parallel,
    /// A start within ±2 tolerances of touching.
    Touching,
    /// A start overlapping by up to a fifth of the smaller size.
    Overlapping,
    /// Translations 1e3..1e4 sizes long.
    Long,
    /// Translations 1e-3..1e-1 sizes long.
    Short,
}

const SETTINGS: [Setting; 10] = [
    Setting::Ordinary,
    Setting::HugeRatio,
    Setting::Far,
    Setting::Sized,
    Setting::Grazing,
    Setting::Parallel,
    Setting::Touching,
    Setting::Overlapping,
    Setting::Long,
    Setting::Short,
];

/// A cast: A placed at `xf_a` moving by `va` and turning by `turn_a` about its origin, B the same.
#[derive(Clone, Debug)]
struct Scene {
    a: Shape,
    xf_a: Transform,
    va: Vec2,
    turn_a: f32,
    b: Shape,
    xf_b: Transform,
    vb: Vec2,
    turn_b: f32,
    options: CastOptions,
}

impl Scene {
    fn sweeps(&self) -> (Sweep, Sweep) {
        (
            Sweep::spinning(&self.xf_a, self.va, self.turn_a),
            Sweep::spinning(&self.xf_b, self.vb, self.turn_b),
        )
    }

    fn cast(&self) -> Option<CastHit> {
        let (sweep_a, sweep_b) = self.sweeps();
        shape_cast(&self.a, &sweep_a, &self.b, &sweep_b, self.options)
    }

    /// The scene moved by the rigid motion `g`.
    fn moved(&self, g: &Transform) -> Scene {
        Scene {
            xf_a: g.mul(&self.xf_a),
            va: g.rotate(self.va),
            xf_b: g.mul(&self.xf_b),
            vb: g.rotate(self.vb),
            ..self.clone()
        }
    }

    /// The scene scaled by `s` about the origin, tolerances included.
    fn scaled(&self, s: f32) -> Option<Scene> {
        let scale = |xf: &Transform| Transform {
            p: xf.p * s,
            q: xf.q,
        };
        Some(Scene {
            a: self.a.scaled(Vec2::splat(s)).ok()?,
            xf_a: scale(&self.xf_a),
            va: self.va * s,
            b: self.b.scaled(Vec2::splat(s)).ok()?,
            xf_b: scale(&self.xf_b),
            vb: self.vb * s,
            options: CastOptions {
                tolerance: self.options.tolerance * s,
                target_separation: self.options.target_separation * s,
                ..self.options
            },
            ..self.clone()
        })
    }

    /// The same question with A and B exchanged.
    fn swapped(&self) -> Scene {
        Scene {
            a: self.b.clone(),
            xf_a: self.xf_b,
            va: self.vb,
            turn_a: self.turn_b,
            b: self.a.clone(),
            xf_b: self.xf_a,
            vb: self.va,
            turn_b: self.turn_a,
            options: self.options,
        }
    }

    /// The same path started at time `tau` (both sweeps turn about their origins, so the rest
    /// of the path is a sweep of the same kind).
    fn restarted_at(&self, tau: f32) -> Scene {
        let (sweep_a, sweep_b) = self.sweeps();
        Scene {
            xf_a: sweep_a.transform_at(tau),
            va: self.va * (1.0 - tau),
            turn_a: self.turn_a * (1.0 - tau),
            xf_b: sweep_b.transform_at(tau),
            vb: self.vb * (1.0 - tau),
            turn_b: self.turn_b * (1.0 - tau),
            ..self.clone()
        }
    }

    /// The rounding of a placement in this scene: 8 ulps of its largest coordinate, motion
    /// and reach.
    fn magnitude(&self) -> f32 {
        let reach = size(&self.a) + size(&self.b);
        let turns = (self.turn_a.abs() + self.turn_b.abs()) * reach;
        self.xf_a
            .p
            .abs()
            .max_element()
            .max(self.xf_b.p.abs().max_element())
            + self.va.abs().max_element()
            + self.vb.abs().max_element()
            + reach
            + turns
    }

    /// The convex pieces (a chain's segments, a compound's children) placed at time `t`.
    fn pieces_at(&self, t: f32) -> (Vec<Core>, Vec<Core>) {
        let (sweep_a, sweep_b) = self.sweeps();
        (
            pieces(&self.a, &sweep_a.transform_at(t)),
            pieces(&self.b, &sweep_b.transform_at(t)),
        )
    }

    /// The exact gap at time `t` (smallest over the pieces; negative: overlapping).
    fn gap_at(&self, t: f32) -> f64 {
        let (a, b) = self.pieces_at(t);
        let mut gap = f64::INFINITY;
        for core_a in &a {
            for core_b in &b {
                gap = gap.min(-exact(core_a, core_b).depth);
            }
        }
        gap
    }

    /// The smallest exact gap over the path and the time of it: 256 samples, then a
    /// golden-section refinement around the least.
    fn closest_approach(&self) -> (f64, f32) {
        let samples = 256;
        let mut best = (f64::INFINITY, 0.0f32);
        for k in 0..=samples {
            let t = k as f32 / samples as f32;
            let gap = self.gap_at(t);
            if gap < best.0 {
                best = (gap, t);
            }
        }
        let step = 1.0 / samples as f32;
        let (mut low, mut high) = ((best.1 - step).max(0.0), (best.1 + step).min(1.0));
        for _ in 0..30 {
            let (early, late) = (low + 0.382 * (high - low), low + 0.618 * (high - low));
            if self.gap_at(early) <= self.gap_at(late) {
                high = late;
            } else {
                low = early;
            }
        }
        let t = 0.5 * (low + high);
        let gap = self.gap_at(t);
        if gap < best.0 {
            (gap, t)
        } else {
            best
        }
    }

    /// The convex pieces placed at time `t` that can touch: a chain's segments only where the
    /// other shape's centroid is on or in front of them (a one-sided segment with the shape
    /// behind it makes no contact).
    fn counted_pieces_at(&self, t: f32) -> (Vec<Core>, Vec<Core>) {
        let (sweep_a, sweep_b) = self.sweeps();
        let (xf_a, xf_b) = (sweep_a.transform_at(t), sweep_b.transform_at(t));
        let front =
            |chain_shape: &Shape, xf_chain: &Transform, other: &Shape, xf_other: &Transform| {
                let Shape::Chain(chain) = chain_shape else {
                    return pieces(chain_shape, xf_chain);
                };
                let centroid = xf_chain.apply_inv(xf_other.apply(other.centroid()));
                (0..chain.segment_count())
                    .filter_map(|i| chain.segment(i).map(|segment| (i, segment)))
                    .filter(|(i, segment)| (centroid - segment.a()).dot(chain.normals()[*i]) >= 0.0)
                    .flat_map(|(_, segment)| cores(&Shape::from(segment), xf_chain, Vec2::ZERO))
                    .collect()
            };
        let (all_a, all_b) = self.pieces_at(t);
        let or_all =
            |counted: Vec<Core>, all: Vec<Core>| if counted.is_empty() { all } else { counted };
        (
            or_all(front(&self.a, &xf_a, &self.b, &xf_b), all_a),
            or_all(front(&self.b, &xf_b, &self.a, &xf_a), all_b),
        )
    }

    /// For a chain scene, the smallest exact gap over the path of each segment to the other
    /// shape (each of its pieces): the threshold that decides whether that segment is touched
    /// at all. A translating pair's gap is convex in time, so a golden-section search finds
    /// it; a turning one is sampled first.
    fn segment_closest_approaches(&self) -> Vec<f64> {
        let (sweep_a, sweep_b) = self.sweeps();
        let (chain, chain_sweep, other, other_sweep) = match (&self.a, &self.b) {
            (Shape::Chain(chain), other) => (chain, sweep_a, other, sweep_b),
            (other, Shape::Chain(chain)) => (chain, sweep_b, other, sweep_a),
            _ => return Vec::new(),
        };
        let turning = self.turn_a != 0.0 || self.turn_b != 0.0;
        let other_pieces: Vec<(Transform, Shape)> = match other {
            Shape::Compound(compound) => compound.children().to_vec(),
            _ => vec![(Transform::IDENTITY, other.clone())],
        };
        let mut out = Vec::new();
        for i in 0..chain.segment_count() {
            let Some(segment) = chain.segment(i) else {
                continue;
            };
            let segment = Shape::from(segment);
            let mut least = f64::INFINITY;
            for (child_xf, child) in &other_pieces {
                let gap = |t: f32| {
                    let a = cores(&segment, &chain_sweep.transform_at(t), Vec2::ZERO);
                    let b = cores(
                        child,
                        &other_sweep.transform_at(t).mul(child_xf),
                        Vec2::ZERO,
                    );
                    -exact(&a[0], &b[0]).depth
                };
                let (mut low, mut high) = (0.0f32, 1.0f32);
                if turning {
                    let samples = 512;
                    let mut best = (f64::INFINITY, 0.0f32);
                    for k in 0..=samples {
                        let t = k as f32 / samples as f32;
                        let g = gap(t);
                        if g < best.0 {
                            best = (g, t);
                        }
                    }
                    least = least.min(best.0);
                    let step = 1.0 / samples as f32;
                    (low, high) = ((best.1 - step).max(0.0), (best.1 + step).min(1.0));
                }
                for _ in 0..60 {
                    let (early, late) = (low + 0.382 * (high - low), low + 0.618 * (high - low));
                    if gap(early) <= gap(late) {
                        high = late;
                    } else {
                        low = early;
                    }
                }
                least = least
                    .min(gap(0.5 * (low + high)))
                    .min(gap(0.0))
                    .min(gap(1.0));
            }
            out.push(least);
        }
        out
    }

    /// The smallest size of the two shapes.
    fn small(&self) -> f32 {
        size(&self.a).min(size(&self.b))
    }
}

/// A shape's size: its local box's larger side.
fn size(shape: &Shape) -> f32 {
    shape
        .aabb(&Transform::IDENTITY)
        .extents()
        .max_element()
        .max(1e-30)
}

/// A shape's convex pieces placed by `xf`, as exact cores.
fn pieces(shape: &Shape, xf: &Transform) -> Vec<Core> {
    match shape {
        Shape::Chain(chain) => (0..chain.segment_count())
            .filter_map(|i| chain.segment(i))
            .flat_map(|segment| cores(&Shape::from(segment), xf, Vec2::ZERO))
            .collect(),
        _ => cores(shape, xf, Vec2::ZERO),
    }
}

/// What an answer is compared by: the rounding slack of both settings and the allowance.
#[derive(Clone, Copy, Debug)]
struct Allowance {
    tolerance: f32,
    slack: f32,
    allow: f32,
}

impl Allowance {
    fn of(scene: &Scene, other: &Scene) -> Allowance {
        let magnitude = scene.magnitude().max(other.magnitude());
        let slack = 8.0 * f32::EPSILON * magnitude;
        let tolerance = scene.options.tolerance;
        Allowance {
            tolerance,
            slack,
            allow: 2.0 * (tolerance + slack) + 1e-4 * scene.small(),
        }
    }
}

/// Whether a case is within `allow` of a threshold that decides hit or miss, or a hit at 0
/// against a later one: the path's closest approach at the target, a start at either edge of
/// the band around it, or a start in the band whose gap closes by about the tolerance.
fn ambiguous(scene: &Scene, allowance: &Allowance) -> bool {
    let target = f64::from(scene.options.target_separation);
    let (tolerance, allow) = (
        f64::from(allowance.tolerance),
        f64::from(allowance.allow) + f64::from(allowance.slack),
    );
    let start = scene.gap_at(0.0);
    let (closest, _) = scene.closest_approach();
    let end = scene.gap_at(1.0);
    (closest - target).abs() <= allow
        || (start - (target + tolerance)).abs() <= allow
        || (start - (target - tolerance)).abs() <= allow
        || (start <= target + tolerance + allow
            && (closest - (start - tolerance)).abs() <= 2.0 * allow)
        || (end - target).abs() <= allow
        // Starting overlapping and moving along the surface: whether that is "approaching" is
        // a question of the normal's side to within rounding.
        || start <= target
        // A chain segment that the path only grazes: whether it is touched at all is decided
        // by rounding (the scene's closest approach may be elsewhere, through a segment passed
        // from behind, which does not count).
        || scene
            .segment_closest_approaches()
            .iter()
            .any(|closest| (closest - target).abs() <= allow)
}

/// The time allowance of two hits: `allow` over how fast the gap can close along `normal`.
fn time_allowance(scene: &Scene, normal: Vec2, allowance: &Allowance) -> f32 {
    let relative = scene.vb - scene.va;
    let reach = (scene.turn_a.abs() + scene.turn_b.abs()) * (size(&scene.a) + size(&scene.b));
    let closing = (-relative.dot(normal)).max(0.0) + reach;
    let closing = closing.max(1e-3 * relative.length());
    allowance.allow / closing + 1e-6
}

/// How far `normal` (A to B) falls short of separating the shapes at time `t` by their gap:
/// the least, over the pairs of pieces within `allow` of the closest pair's gap (the pieces
/// that touch; a compound's other children may lie anywhere beside them), of the pair's gap
/// minus its separation along the normal.
fn separation_shortfall(scene: &Scene, t: f32, normal: Vec2, allow: f64) -> f64 {
    let (a, b) = scene.counted_pieces_at(t);
    let n = [f64::from(normal.x), f64::from(normal.y)];
    let mut pairs = Vec::new();
    for core_a in &a {
        for core_b in &b {
            let gap = -exact(core_a, core_b).depth;
            pairs.push((gap, core_a.depth_along(core_b, n) + gap));
        }
    }
    let closest = pairs.iter().map(|p| p.0).fold(f64::INFINITY, f64::min);
    pairs
        .iter()
        .filter(|p| p.0 <= closest + allow)
        .map(|p| p.1)
        .fold(f64::INFINITY, f64::min)
}

/// Whether the case involves a chain and the other shape's centroid lies within `allow` of a
/// segment's line at time `t`: the one-sided rule (a touch counts only with the centroid in
/// front) is then decided by rounding.
fn chain_side_ambiguous(scene: &Scene, t: f32, allow: f32) -> bool {
    let (sweep_a, sweep_b) = scene.sweeps();
    let (chain, xf_chain, other, xf_other) = match (&scene.a, &scene.b) {
        (Shape::Chain(chain), other) => (
            chain,
            sweep_a.transform_at(t),
            other,
            sweep_b.transform_at(t),
        ),
        (other, Shape::Chain(chain)) => (
            chain,
            sweep_b.transform_at(t),
            other,
            sweep_a.transform_at(t),
        ),
        _ => return false,
    };
    let centroid = xf_chain.apply_inv(xf_other.apply(other.centroid()));
    (0..chain.segment_count()).any(|i| {
        chain
            .segment(i)
            .is_some_and(|segment| (centroid - segment.a()).dot(chain.normals()[i]).abs() <= allow)
    })
}

/// The distance from `point` to the farther of the two surfaces at time `t`.
fn off_surfaces(scene: &Scene, t: f32, point: Vec2) -> f64 {
    let (a, b) = scene.counted_pieces_at(t);
    let p = [f64::from(point.x), f64::from(point.y)];
    let nearest = |pieces: &[Core]| {
        pieces
            .iter()
            .map(|core| signed_distance(core, p).abs())
            .fold(f64::INFINITY, f64::min)
    };
    nearest(&a).max(nearest(&b))
}

/// Compares `first`, the scene's own answer, with `second`, another setting's answer already
/// mapped into the scene's frame. `None` when they agree (or the case is ambiguous).
fn compare(
    scene: &Scene,
    first: Option<CastHit>,
    second: Option<CastHit>,
    allowance: &Allowance,
) -> Result<(), String> {
    let allow = f64::from(allowance.allow);
    // A chain is one-sided: a shape may pass through a segment from behind, and a touch
    // counts only with the other shape's centroid in front. Where the shapes overlap at
    // either answer's time, which segment's touch counts is decided by that rule, whose
    // inputs (the centroid's side, the first touch of each segment) are not continuous in
    // the placement: those cases are skipped, and counted.
    let chain = matches!(scene.a, Shape::Chain(_)) || matches!(scene.b, Shape::Chain(_));
    if chain
        && [first, second]
            .iter()
            .flatten()
            .any(|hit| scene.gap_at(hit.t) < -allow)
    {
        return Err("chain".into());
    }
    match (first, second) {
        (None, None) => Ok(()),
        (Some(hit), None) | (None, Some(hit)) => {
            if ambiguous(scene, allowance)
                || chain_side_ambiguous(scene, hit.t, allowance.allow + allowance.slack)
            {
                Err("ambiguous".into())
            } else {
                let (closest, at) = scene.closest_approach();
                Err(format!(
                    "hit against miss: {first:?} / {second:?}; closest approach {closest:e} at \
                     {at}, start gap {:e}, {allowance:?}",
                    scene.gap_at(0.0)
                ))
            }
        }
        (Some(x), Some(y)) => {
            let dt = time_allowance(scene, x.normal, allowance)
                .max(time_allowance(scene, y.normal, allowance));
            let side_allow = allowance.allow + allowance.slack;
            let target = f64::from(scene.options.target_separation);
            let (gap_x, gap_y) = (scene.gap_at(x.t), scene.gap_at(y.t));
            let (early_gap, late_gap) = if x.t <= y.t {
                (gap_x, gap_y)
            } else {
                (gap_y, gap_x)
            };
            // Times further apart than the speed allows are still one answer where the gap
            // stays within the band around the target between them (a flat approach): the
            // earlier time is no overlap, the later one a touch.
            let flat = early_gap >= target - allow
                && late_gap <= target + f64::from(allowance.tolerance) + allow;
            if (x.t - y.t).abs() > dt && !flat {
                if ambiguous(scene, allowance)
                    || chain_side_ambiguous(scene, x.t, side_allow)
                    || chain_side_ambiguous(scene, y.t, side_allow)
                {
                    return Err("ambiguous".into());
                }
                return Err(format!(
                    "times {} and {} differ by more than {dt:e}: {x:?} / {y:?}, gaps there \
                     {gap_x:e} / {gap_y:e}, {allowance:?}",
                    x.t, y.t,
                ));
            }
            if !(x.converged && y.converged) {
                return Ok(());
            }
            let angle = x.normal.angle_to(y.normal).abs();
            // A normal tied to a turning shape's face turns with it between the two times.
            let turned = (scene.turn_a.abs() + scene.turn_b.abs()) * (x.t - y.t).abs();
            if angle > 1e-3 + turned {
                // A cone of normals (or two pieces touching within the tolerance of each
                // other): each must separate the shapes at its own time.
                let worst = separation_shortfall(scene, x.t, x.normal, allow)
                    .max(separation_shortfall(scene, y.t, y.normal, allow));
                if worst > allow {
                    if ambiguous(scene, allowance) {
                        return Err("ambiguous".into());
                    }
                    return Err(format!(
                        "normals {} and {} ({angle:e} rad apart) do not both separate the \
                         shapes (short by {worst:e}): {x:?} / {y:?}, gaps there {gap_x:e} / \
                         {gap_y:e}, {allowance:?}",
                        x.normal, y.normal
                    ));
                }
            }
            let moved = (x.t - y.t).abs() * (scene.va.length() + scene.vb.length());
            if f64::from(x.point.distance(y.point)) > allow + f64::from(moved) {
                // A face on a face (or two pieces touching within the tolerance of each other):
                // each point on both surfaces at its own time, half the target from each.
                let worst =
                    off_surfaces(scene, x.t, x.point).max(off_surfaces(scene, y.t, y.point));
                if worst > allow + 0.5 * target {
                    if ambiguous(scene, allowance) {
                        return Err("ambiguous".into());
                    }
                    return Err(format!(
                        "points {} and {} differ and are off the surfaces by {worst:e}: {x:?} \
                         / {y:?}, gaps there {gap_x:e} / {gap_y:e}, {allowance:?}",
                        x.point, y.point
                    ));
                }
            }
            Ok(())
        }
    }
}

/// Places A along `direction` from B's origin so that their exact gap is `gap` (bisection on
/// the distance along the direction).
fn place_at_gap(scene: &mut Scene, direction: Vec2, gap: f64) {
    let from = scene.xf_b.p;
    let reach = 2.0 * (size(&scene.a) + size(&scene.b)) + gap.abs() as f32;
    let gap_at = |scene: &mut Scene, s: f32| {
        scene.xf_a.p = from + direction * s;
        scene.gap_at(0.0)
    };
    let (mut low, mut high) = (0.0f32, reach);
    if gap_at(scene, low) >= gap {
        return;
    }
    for _ in 0..48 {
        let middle = 0.5 * (low + high);
        if gap_at(scene, middle) >= gap {
            high = middle;
        } else {
            low = middle;
        }
    }
    gap_at(scene, high);
}

/// A case of `kinds` in `setting`.
fn draw(kinds: (Kind, Kind), setting: Setting, rng: &mut Rng) -> Scene {
    let (mut size_a, mut size_b) = (rng.log_size(0.3, 3.0), rng.log_size(0.3, 3.0));
    match setting {
        Setting::HugeRatio => {
            let big = rng.log_size(1e2, 1e3);
            (size_a, size_b) = if rng.chance(0.5) {
                (1e-2, big)
            } else {
                (big, 1e-2)
            };
        }
        Setting::Sized => {
            let s = rng.log_size(1e-2, 1e3);
            (size_a, size_b) = (size_a * s / 3.0, size_b * s / 3.0);
        }
        _ => {}
    }
    let (mut a, mut b) = (make(kinds.0, size_a, rng), make(kinds.1, size_b, rng));
    if setting == Setting::Parallel {
        a = Shape::from(Polygon::rect(size_a, size_a * rng.range(0.2, 1.0)).unwrap());
        if kinds.1 != Kind::Chain {
            b = Shape::from(Polygon::rect(size_b * 3.0, size_b * rng.range(0.2, 1.0)).unwrap());
        }
    }
    let origin = match setting {
        Setting::Far => unit(rng.angle()) * rng.log_size(1e4, 1e5),
        _ => rng.point(20.0),
    };
    let small = size_a.min(size_b);
    let big = size_a.max(size_b);
    let xf_b = Transform::new(origin, rng.angle());
    let direction = unit(rng.angle());
    let mut scene = Scene {
        a,
        xf_a: Transform::new(
            origin + direction * (big * rng.range(1.2, 3.0)),
            rng.angle(),
        ),
        va: Vec2::ZERO,
        turn_a: 0.0,
        b,
        xf_b,
        vb: Vec2::ZERO,
        turn_b: 0.0,
        options: CastOptions {
            max_iterations: 1000,
            ..CastOptions::default()
        },
    };
    let mut speed = rng.log_size(0.5, 5.0) * big;
    match setting {
        Setting::Long => speed = rng.log_size(1e3, 1e4) * small,
        Setting::Short => speed = rng.log_size(1e-3, 1e-1) * small,
        _ => {}
    }
    // Aimed at B's origin, give or take half of the smaller size.
    let aim = origin + rng.point(0.5 * small) - scene.xf_a.p;
    let mut heading = aim.normalize_or(Vec2::X);
    match setting {
        Setting::Touching | Setting::Overlapping => {
            let gap = if setting == Setting::Overlapping {
                -f64::from(small) * rng.range_f64(0.0, 0.2)
            } else {
                1e-4 * f64::from(small) * rng.range_f64(-2.0, 2.0)
            };
            place_at_gap(&mut scene, direction, gap);
            heading = unit(rng.angle());
        }
        Setting::Parallel => {
            // A's bottom face above B's top face (for a chain, above its first segment's
            // front), sliding along it with a small part into or out of it.
            let (up, along) = match &scene.b {
                Shape::Chain(chain) => {
                    let segment = chain.segment(0).unwrap();
                    let normal = chain.normals()[0];
                    let mid = 0.5 * (segment.a() + segment.b());
                    scene.xf_b.p -= scene.xf_b.rotate(mid);
                    (
                        scene.xf_b.rotate(normal),
                        scene.xf_b.rotate(segment.b() - segment.a()).normalize(),
                    )
                }
                _ => (scene.xf_b.rotate(Vec2::Y), scene.xf_b.rotate(Vec2::X)),
            };
            let tilt = if rng.chance(0.5) {
                0.0
            } else {
                rng.log_size(1e-7, 1e-3) * rng.pick(&[-1.0, 1.0])
            };
            scene.xf_a.q = Rot::from_angle(up.y.atan2(up.x) - std::f32::consts::FRAC_PI_2 + tilt);
            let gap = f64::from(small) * 1e-4 * rng.range_f64(-1.0, 3.0);
            place_at_gap(&mut scene, up, gap);
            let into = rng.pick(&[0.0, 0.0, 1e-3, -1e-3, 1e-5, -1e-5]);
            heading = (along * rng.pick(&[-1.0, 1.0]) - up * into).normalize();
            speed = rng.log_size(0.01, 3.0) * small;
        }
        _ => {}
    }
    scene.va = heading * speed;
    if setting == Setting::Grazing {
        // Slide the path sideways to where it stops hitting (bisection on the cast itself).
        let side = Vec2::new(-heading.y, heading.x) * rng.pick(&[-1.0, 1.0]);
        let start = scene.xf_a.p;
        let hits = |scene: &mut Scene, s: f32| {
            scene.xf_a.p = start + side * s;
            scene.cast().is_some()
        };
        let (mut low, mut high) = (0.0f32, 2.0 * (size_a + size_b));
        if hits(&mut scene, low) && !hits(&mut scene, high) {
            for _ in 0..40 {
                let middle = 0.5 * (low + high);
                if hits(&mut scene, middle) {
                    low = middle;
                } else {
                    high = middle;
                }
            }
            let s = low + (high - low) * rng.range(-4.0, 4.0);
            hits(&mut scene, s);
        }
    }
    if matches!(setting, Setting::Ordinary | Setting::Far | Setting::Sized) && rng.chance(0.3) {
        scene.turn_a = rng.range(-3.0, 3.0);
    }
    if matches!(setting, Setting::Ordinary | Setting::Far) && rng.chance(0.3) {
        scene.vb = unit(rng.angle()) * speed * rng.range(0.0, 1.0);
        if rng.chance(0.5) {
            scene.turn_b = rng.range(-3.0, 3.0);
        }
    }
    let magnitude = scene.magnitude();
    scene.options.tolerance = (1e-4 * small).max(4.0 * f32::EPSILON * magnitude);
    if rng.chance(0.25) && setting != Setting::Touching {
        scene.options.target_separation = small * rng.range(0.0, 0.05);
    }
    scene
}

/// Tallies of one property: cases run, skipped as ambiguous, wrong.
#[derive(Default)]
struct Tally {
    name: &'static str,
    run: usize,
    ambiguous: usize,
    /// Chain cases overlapping a segment at a hit (see [`compare`]).
    chain_behind: usize,
    failures: Vec<String>,
}

impl Tally {
    fn record(&mut self, result: Result<(), String>, label: impl FnOnce() -> String) {
        let result = result.map_err(|message| {
            if message == "ambiguous" || message == "chain" {
                message
            } else {
                format!("[{}] {message}", self.name)
            }
        });
        self.run += 1;
        match result {
            Ok(()) => {}
            Err(message) if message == "ambiguous" => self.ambiguous += 1,
            Err(message) if message == "chain" => self.chain_behind += 1,
            Err(message) => self.failures.push(format!("{message}\n    {}", label())),
        }
    }
}

/// How many failures each property prints (`CAST_INVARIANCE_SHOWN`, default 4).
fn shown() -> usize {
    std::env::var("CAST_INVARIANCE_SHOWN")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(4)
}

/// Runs each property on `per` cases of every pair of kinds in every setting; fails listing
/// the first failures of each property.
fn sweep_properties(seed: u64, per: usize, with_chains: bool) {
    let mut rng = Rng(seed);
    let names = [
        "rigid motion",
        "swap",
        "relative swap",
        "scale",
        "restart",
        "time",
    ];
    let mut tallies: Vec<Tally> = names
        .iter()
        .map(|&name| Tally {
            name,
            ..Tally::default()
        })
        .collect();
    for kind_a in KINDS {
        for kind_b in KINDS {
            if (kind_a == Kind::Chain && kind_b == Kind::Chain)
                || (kind_a == Kind::Chain || kind_b == Kind::Chain) != with_chains
            {
                continue;
            }
            for setting in SETTINGS {
                for _ in 0..per {
                    let scene = draw((kind_a, kind_b), setting, &mut rng);
                    let label = || format!("{kind_a:?} {kind_b:?} {setting:?}: {scene:?}");
                    let first = scene.cast();
                    // 1. Rigid motion.
                    let far = if rng.chance(0.5) {
                        rng.log_size(1e4, 1e5)
                    } else {
                        rng.log_size(1.0, 100.0)
                    };
                    let g = Transform::new(unit(rng.angle()) * far, rng.angle());
                    let moved = scene.moved(&g);
                    let second = moved.cast().map(|hit| CastHit {
                        point: g.apply_inv(hit.point),
                        normal: g.rotate_inv(hit.normal),
                        ..hit
                    });
                    let allowance = Allowance::of(&scene, &moved);
                    tallies[0].record(compare(&scene, first, second, &allowance), || {
                        format!(
                            "{}\n    moved by {g:?}{}{}",
                            label(),
                            diagnose(&scene),
                            diagnose(&moved)
                        )
                    });
                    // 2. Swap of roles.
                    let swapped = scene.swapped().cast().map(|hit| CastHit {
                        normal: -hit.normal,
                        ..hit
                    });
                    let allowance = Allowance::of(&scene, &scene);
                    tallies[1].record(compare(&scene, first, swapped, &allowance), label);
                    // 2b. A moving by v against B, against B moving by −v against A (only A
                    // moving, not turning).
                    if scene.vb == Vec2::ZERO && scene.turn_a == 0.0 && scene.turn_b == 0.0 {
                        let relative = Scene {
                            va: -scene.va,
                            vb: Vec2::ZERO,
                            ..scene.swapped()
                        };
                        let other = relative.cast().map(|hit| CastHit {
                            normal: -hit.normal,
                            point: hit.point + scene.va * hit.t,
                            ..hit
                        });
                        let allowance = Allowance::of(&scene, &relative);
                        tallies[2].record(compare(&scene, first, other, &allowance), label);
                    }
                    // 3. Scale.
                    let s = rng.log_size(1e-2, 1e2);
                    if let Some(scaled) = scene.scaled(s) {
                        let in_range = scaled.magnitude() < 1e6 && scaled.small() > 1e-4;
                        if in_range {
                            let other = scaled.cast().map(|hit| CastHit {
                                point: hit.point / s,
                                ..hit
                            });
                            let allowance = Allowance::of(&scene, &scene);
                            let allowance = Allowance {
                                slack: allowance.slack
                                    + 8.0 * f32::EPSILON * scaled.magnitude() / s,
                                allow: allowance.allow
                                    + 16.0 * f32::EPSILON * scaled.magnitude() / s,
                                ..allowance
                            };
                            tallies[3].record(compare(&scene, first, other, &allowance), || {
                                format!("{}{}{}", label(), diagnose(&scene), diagnose(&scaled))
                            });
                        }
                    }
                    // 4. Restart from an earlier time of the path, and the time itself.
                    if let Some(hit) = first.filter(|hit| hit.t > 0.0 && hit.converged) {
                        let tau = hit.t * rng.range(0.0, 0.999);
                        let restarted = scene.restarted_at(tau);
                        let other = restarted.cast().map(|h| CastHit {
                            t: tau + h.t * (1.0 - tau),
                            ..h
                        });
                        let allowance = Allowance::of(&scene, &restarted);
                        tallies[4].record(compare(&scene, first, other, &allowance), || {
                            format!("{}{}{}", label(), diagnose(&scene), diagnose(&restarted))
                        });
                        tallies[5].record(check_time(&scene, &hit), label);
                    }
                }
            }
        }
    }
    let mut report = String::new();
    for (name, tally) in names.iter().zip(&tallies) {
        eprintln!(
            "{name}: {} cases, {} ambiguous (skipped), {} through a chain from behind \
             (skipped), {} wrong",
            tally.run,
            tally.ambiguous,
            tally.chain_behind,
            tally.failures.len()
        );
        if !tally.failures.is_empty() {
            report += &format!(
                "\n{name}: {} of {} wrong:\n{}",
                tally.failures.len(),
                tally.run,
                tally.failures[..tally.failures.len().min(shown())].join("\n")
            );
        }
    }
    assert!(report.is_empty(), "{report}");
}

/// A converged hit at `t > 0` has the exact gap within the tolerance of the target there, and
/// no earlier sampled time overlaps (chains: one-sided, so not asked of them).
fn check_time(scene: &Scene, hit: &CastHit) -> Result<(), String> {
    let allowance = Allowance::of(scene, scene);
    let target = f64::from(scene.options.target_separation);
    let (tolerance, slack) = (
        f64::from(allowance.tolerance),
        f64::from(allowance.slack) + 1e-5 * f64::from(scene.small()),
    );
    let gap = scene.gap_at(hit.t);
    let chain = matches!(scene.a, Shape::Chain(_)) || matches!(scene.b, Shape::Chain(_));
    if gap > target + tolerance + slack || (gap < target - tolerance - slack && !chain) {
        if ambiguous(scene, &allowance) {
            return Err("ambiguous".into());
        }
        return Err(format!(
            "gap {gap:e} at t = {} is not within {tolerance:e} (+{slack:e}) of {target:e}",
            hit.t
        ));
    }
    if chain {
        return Ok(());
    }
    for k in 0..64 {
        let t = hit.t * k as f32 / 64.0;
        let earlier = scene.gap_at(t);
        if earlier < target - tolerance - slack && scene.gap_at(0.0) > target - tolerance - slack {
            return Err(format!(
                "gap {earlier:e} at t = {t} before the hit at {} (target {target:e})",
                hit.t
            ));
        }
    }
    Ok(())
}

/// A setting from the environment (`CAST_INVARIANCE_SEED`, `CAST_INVARIANCE_PER`).
fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Every pair of convex shapes and compounds: 49 pairs × 10 settings × 16 cases (with
/// `CAST_INVARIANCE_PER=300`, 147,000 cases, every property held when this was written).
#[test]
fn shape_casts_agree_under_rigid_motion_swap_scale_and_restart() {
    sweep_properties(
        env("CAST_INVARIANCE_SEED", 0x1A7E_CA57),
        env("CAST_INVARIANCE_PER", 16) as usize,
        false,
    );
}

/// Every shape against a chain (both orders): 14 pairs × 10 settings × 300 cases (42,000;
/// fewer cases let the disagreements this sweep found, 4 in 10,000, through). Cases
/// overlapping a segment at a hit are skipped and counted; a segment counts for normals and
/// points only with the other shape's centroid in front of it, and a segment the path only
/// grazes makes the case ambiguous. Every property held with the default seed when this was
/// written (17 checks disagreed before the fixes of chain casts: the start band, the clamped
/// joint normals, the choice among simultaneous hits). Other seeds at that size still show 1 to 6 disagreements in 42,000,
/// nearly all where a shape 1e4 times a small closed chain's size meets it with a face
/// (`HugeRatio`, `Long`): several segments are touched within the tolerance, the centroid
/// puts the shape in front of segments whose faces point away from it, and the face normal
/// given does not separate the shapes.
#[test]
fn shape_casts_against_chains_agree_under_rigid_motion_swap_scale_and_restart() {
    sweep_properties(
        env("CAST_INVARIANCE_SEED", 0x1A7E_CA57),
        env("CAST_INVARIANCE_PER", 300) as usize,
        true,
    );
}

/// The first time the circle of `scene` (B, still) comes within `gap` of segment `index` of the
/// chain (A, translating), in exact `f64`: the centre's distance to the segment along the
/// straight relative path is convex in time, so sampling and bisection find the first crossing.
fn circle_first_within(scene: &Scene, index: usize, gap: f64) -> Option<f64> {
    let (Shape::Chain(chain), Shape::Circle(circle)) = (&scene.a, &scene.b) else {
        return None;
    };
    let segment = chain.segment(index)?;
    let place = |xf: &Transform, p: Vec2| {
        let (c, s) = (f64::from(xf.q.c), f64::from(xf.q.s));
        let (x, y) = (f64::from(p.x), f64::from(p.y));
        [
            c * x - s * y + f64::from(xf.p.x),
            s * x + c * y + f64::from(xf.p.y),
        ]
    };
    let centre = place(&scene.xf_b, circle.center());
    let (a0, b0) = (
        place(&scene.xf_a, segment.a()),
        place(&scene.xf_a, segment.b()),
    );
    let radius = f64::from(circle.radius());
    let distance = |t: f64| {
        let shift = [f64::from(scene.va.x) * t, f64::from(scene.va.y) * t];
        let (a, b) = (
            [a0[0] + shift[0], a0[1] + shift[1]],
            [b0[0] + shift[0], b0[1] + shift[1]],
        );
        let (d, q) = (
            [b[0] - a[0], b[1] - a[1]],
            [centre[0] - a[0], centre[1] - a[1]],
        );
        let u = ((q[0] * d[0] + q[1] * d[1]) / (d[0] * d[0] + d[1] * d[1])).clamp(0.0, 1.0);
        let (x, y) = (q[0] - u * d[0], q[1] - u * d[1]);
        (x * x + y * y).sqrt() - radius
    };
    let samples = 100_000;
    let k = (0..=samples).find(|&k| distance(k as f64 / samples as f64) <= gap)?;
    if k == 0 {
        return Some(0.0);
    }
    let (mut low, mut high) = ((k - 1) as f64 / samples as f64, k as f64 / samples as f64);
    for _ in 0..60 {
        let middle = 0.5 * (low + high);
        if distance(middle) <= gap {
            high = middle;
        } else {
            low = middle;
        }
    }
    Some(high)
}

/// A ball that passed through a closed chain's back face and still overlaps it, its centre now
/// in front, moves on to the opposite face. Casting from there (a restart of the same path), it
/// stops the target separation from that face, as the cast from the path's start does: the
/// exact first time the ball comes within the target of the face, to the tolerance. The start
/// within the band of the face it overlaps lowered the target for every segment, and the
/// restarted cast ran on to touching (gap 0, 0.045 late).
#[test]
fn a_restart_overlapping_one_face_stops_the_target_from_another() {
    use collide2d::shape::{Chain, Circle};
    let original = Scene {
        a: Shape::from(
            Chain::closed(&[
                Vec2::new(0.19931608, -1.2925434),
                Vec2::new(-1.3056896, 0.07463316),
                Vec2::new(-0.2626182, 1.281182),
                Vec2::new(1.2746631, 0.29262537),
            ])
            .unwrap(),
        ),
        xf_a: Transform {
            p: Vec2::new(16.23009, 1.4222009),
            q: Rot {
                c: 0.3337169,
                s: -0.9426733,
            },
        },
        va: Vec2::new(2.756928, 4.1737967),
        turn_a: 0.0,
        b: Shape::from(Circle::new(Vec2::new(0.11778596, -0.13008672), 0.39140272).unwrap()),
        xf_b: Transform {
            p: Vec2::new(18.644806, 3.6610775),
            q: Rot {
                c: -0.8561515,
                s: 0.5167249,
            },
        },
        vb: Vec2::new(0.0, 0.0),
        turn_b: 0.0,
        options: CastOptions {
            target_separation: 0.04490395,
            tolerance: 0.00013116059,
            max_iterations: 1000,
            separating_overlap_hits: false,
        },
    };
    // The same cast restarted part way along A's path: placed there, with the rest of the motion.
    let restarted = Scene {
        xf_a: Transform {
            p: Vec2::new(18.04929, 4.176345),
            ..original.xf_a
        },
        va: Vec2::new(0.9377267, 1.4196527),
        ..original.clone()
    };
    for scene in [&original, &restarted] {
        let target = f64::from(scene.options.target_separation);
        let tolerance = f64::from(scene.options.tolerance);
        let exact = circle_first_within(scene, 3, target).expect("the path reaches the face");
        let hit = scene.cast().expect("a hit on the opposite face");
        let speed = f64::from(scene.va.length());
        let early = (exact - f64::from(hit.t)) * speed;
        assert!(
            early.abs() <= tolerance + 1e-5,
            "hit at {} is {early:e} before the exact first time {exact} the gap is {target} \
             (tolerance {tolerance:e}): {hit:?}",
            hit.t
        );
    }
}

/// A polygon 500 across meets a chain 0.01 across with its flat face: every segment is touched
/// within the tolerance, and the face's normal lies in the cone of the joint it meets. The
/// normal given must separate the shapes (the exact `f64` pieces that touch, those the polygon
/// is in front of) wherever the scene is placed. Clamped to a convex joint's neighbour normal it
/// was 0.08 rad off the face's, 28 units short of separating them.
#[test]
fn a_big_face_meeting_a_small_chains_joint_gets_a_normal_that_separates_them() {
    use collide2d::shape::{Chain, Polygon};
    let scene = Scene {
        a: Shape::from(
            Polygon::new(&[
                Vec2::new(-192.34587, 180.09389),
                Vec2::new(194.46207, -331.17853),
                Vec2::new(224.39026, -361.9785),
                Vec2::new(402.59747, -295.85513),
                Vec2::new(527.4643, -180.23352),
                Vec2::new(441.9214, 193.78304),
                Vec2::new(16.56546, 410.6599),
            ])
            .unwrap()
            .with_radius(0.0)
            .unwrap(),
        ),
        xf_a: Transform {
            p: Vec2::new(1783.2732, 242.39958),
            q: Rot {
                c: 0.008875329,
                s: -0.9999606,
            },
        },
        va: Vec2::new(-4435.9814, -612.2253),
        turn_a: 0.0,
        b: Shape::from(
            Chain::open(&[
                Vec2::new(0.0033677176, 0.0031526221),
                Vec2::new(0.001332517, 0.0005127229),
                Vec2::new(-0.001200916, -0.0016535707),
                Vec2::new(-0.0025108359, -0.004718733),
            ])
            .unwrap(),
        ),
        xf_b: Transform {
            p: Vec2::new(-1.9094372, -3.9837914),
            q: Rot {
                c: -0.8291949,
                s: 0.55895954,
            },
        },
        vb: Vec2::new(0.0, 0.0),
        turn_b: 0.0,
        options: CastOptions {
            target_separation: 0.0003389858,
            tolerance: 0.0033339984,
            max_iterations: 1000,
            separating_overlap_hits: false,
        },
    };
    let mut rng = crate::support::Rng(0x0B16_FACE);
    for k in 0..64 {
        let g = if k == 0 {
            Transform::IDENTITY
        } else {
            Transform::new(unit(rng.angle()) * rng.log_size(1.0, 1e4), rng.angle())
        };
        let moved = scene.moved(&g);
        let hit = moved.cast().expect("the face meets the chain");
        let normal = g.rotate_inv(hit.normal);
        let allowance = Allowance::of(&scene, &moved);
        let short = separation_shortfall(&scene, hit.t, normal, f64::from(allowance.allow));
        assert!(
            short <= f64::from(allowance.allow),
            "moved by {g:?}: normal {normal} is {short:e} short of separating the shapes \
             ({allowance:?}): {hit:?}"
        );
    }
}

/// A ball grazing past the open end of a straight chain touches the end vertex with a normal
/// square to the chain's face, outwards along it. Rounding puts the cast's normal a hair in
/// front of square or behind it, depending on where the scene is placed; behind square it was
/// turned to the face normal, 90° away (here: the scene moved by a rigid motion gave
/// (-0.057, -0.998) for (0.998, -0.057)). Every rigid motion of the scene now gives the same
/// normal.
#[test]
fn a_ball_grazing_a_chains_open_end_gets_the_same_normal_wherever_the_scene_is() {
    use collide2d::shape::{Chain, Circle};
    let chain = Shape::from(
        Chain::open(&[
            Vec2::new(0.14672107, 0.2668999),
            Vec2::new(-0.061742023, -0.028317392),
            Vec2::new(-0.2702051, -0.3235347),
        ])
        .unwrap(),
    );
    let ball = Shape::from(Circle::new(Vec2::new(0.049623005, 0.035179503), 0.2590945).unwrap());
    let scene = Scene {
        a: chain,
        xf_a: Transform {
            p: Vec2::new(-8.654623, 1.8276752),
            q: Rot::try_from_cos_sin(-0.52894324, 0.8486572).unwrap(),
        },
        va: Vec2::new(0.67544925, -1.3084581),
        turn_a: 0.0,
        b: ball,
        xf_b: Transform {
            p: Vec2::new(-7.3514633, 0.5375061),
            q: Rot::try_from_cos_sin(-0.12100042, -0.9926525).unwrap(),
        },
        vb: Vec2::ZERO,
        turn_b: 0.0,
        options: CastOptions {
            tolerance: 7.228004e-5,
            max_iterations: 1000,
            ..CastOptions::default()
        },
    };
    let hit = scene.cast().expect("the ball touches the end");
    // From the end vertex to the ball's centre: along the chain, outwards.
    assert!(
        hit.normal.distance(Vec2::new(0.9988, -0.0494)) < 1e-2,
        "{hit:?}"
    );
    let exact_example = Transform {
        p: Vec2::new(41.570843, 72.97152),
        q: Rot::try_from_cos_sin(0.34928307, -0.93701726).unwrap(),
    };
    let mut rng = Rng(0xE17D);
    let motions = std::iter::once(exact_example)
        .chain((0..2000).map(|_| Transform::new(rng.point(1e3), rng.angle())));
    // The ball's centre is within 2e-3 of the chain's line at the touch, so the one-sided
    // rule may let a moved scene through (a miss); a touch has the end's normal.
    // The touch is grazing, so its time moves by more than the tolerance over the speed.
    let mut touches = 0;
    for g in motions {
        let Some(moved) = scene.moved(&g).cast() else {
            continue;
        };
        touches += 1;
        let normal = g.rotate_inv(moved.normal);
        assert!(
            normal.distance(hit.normal) < 1e-2 && (moved.t - hit.t).abs() < 2e-3,
            "moved by {g:?}: {moved:?}, normal {normal} against {hit:?}"
        );
    }
    assert!(touches > 1000, "{touches} of 2001 moved scenes touch");
}

/// Ray casts: every shape kind; the ray moved rigidly, scaled, started again further along.
#[test]
fn ray_casts_agree_under_rigid_motion_scale_and_restart() {
    let mut rng = Rng(0x0AA7_5EED);
    let names = ["rigid motion", "scale", "restart"];
    let mut failures: Vec<Vec<String>> = vec![Vec::new(); 3];
    let mut runs = [0usize; 3];
    for kind in KINDS {
        for setting in [
            Setting::Ordinary,
            Setting::Far,
            Setting::Sized,
            Setting::Grazing,
            Setting::Long,
        ] {
            for _ in 0..400 {
                let size = match setting {
                    Setting::Sized => rng.log_size(1e-2, 1e3),
                    _ => rng.log_size(0.3, 3.0),
                };
                let shape = make(kind, size, &mut rng);
                let origin = match setting {
                    Setting::Far => unit(rng.angle()) * rng.log_size(1e4, 1e5),
                    _ => rng.point(20.0),
                };
                let xf = Transform::new(origin, rng.angle());
                let start = origin + unit(rng.angle()) * size * rng.range(0.0, 3.0);
                let mut target = origin + rng.point(0.6 * size);
                if setting == Setting::Grazing {
                    // Aimed at a point on the outline's box edge: many rays just miss or graze.
                    let aabb = shape.aabb(&xf);
                    target = Vec2::new(
                        rng.pick(&[aabb.min.x, aabb.max.x]),
                        rng.pick(&[aabb.min.y, aabb.max.y]),
                    );
                }
                let reach = match setting {
                    Setting::Long => size * rng.log_size(1e3, 1e4),
                    _ => size * 4.0,
                };
                let Ok(ray) = Ray::new(start, target - start, reach) else {
                    continue;
                };
                let magnitude = origin.abs().max_element() + size + reach;
                let first = shape.ray_cast(&xf, &ray);
                let label = || format!("{kind:?} {setting:?}: {shape:?} at {xf:?}, {ray:?}");
                // The ray's closest approach to the shape decides hit or miss; `graze` is how
                // close that is to 0 (exact, f64), so hit against miss is allowed within it.
                let graze = |ray: &Ray, slack: f64| {
                    let cores = pieces(&shape, &xf);
                    let mut closest = f64::INFINITY;
                    let samples = 512;
                    for k in 0..=samples {
                        let d = ray.max_distance.min(8.0 * size + 1e3 * size) * k as f32
                            / samples as f32;
                        let p = ray.at(d);
                        let p = [f64::from(p.x), f64::from(p.y)];
                        for core in &cores {
                            closest = closest.min(signed_distance(core, p).abs());
                        }
                    }
                    let step = f64::from(ray.max_distance.min(1008.0 * size)) / samples as f64;
                    closest <= slack + step
                };
                // 1. Rigid motion.
                let g = Transform::new(unit(rng.angle()) * rng.log_size(1.0, 1e5), rng.angle());
                let moved_ray = Ray {
                    origin: g.apply(ray.origin),
                    direction: g.rotate(ray.direction),
                    max_distance: ray.max_distance,
                };
                let moved = shape.ray_cast(&g.mul(&xf), &moved_ray);
                let slack =
                    16.0 * f32::EPSILON * (magnitude + g.p.abs().max_element()) + 1e-5 * size;
                runs[0] += 1;
                if let Some(message) = compare_rays(first, moved, slack, |hit| {
                    (g.apply_inv(hit.point), g.rotate_inv(hit.normal))
                }) {
                    if !graze(&ray, f64::from(slack) * 4.0) {
                        failures[0].push(format!("{message}\n    {}", label()));
                    }
                }
                // 2. Scale.
                let s = rng.log_size(1e-2, 1e2);
                if let Ok(scaled_shape) = shape.scaled(Vec2::splat(s)) {
                    let scaled_xf = Transform {
                        p: xf.p * s,
                        q: xf.q,
                    };
                    let scaled_ray = Ray {
                        origin: ray.origin * s,
                        direction: ray.direction,
                        max_distance: ray.max_distance * s,
                    };
                    let scaled = scaled_shape.ray_cast(&scaled_xf, &scaled_ray).map(|hit| {
                        collide2d::query::RayHit {
                            distance: hit.distance / s,
                            point: hit.point / s,
                            ..hit
                        }
                    });
                    let slack = 16.0 * f32::EPSILON * magnitude + 1e-5 * size;
                    runs[1] += 1;
                    if let Some(message) =
                        compare_rays(first, scaled, slack, |hit| (hit.point, hit.normal))
                    {
                        if !graze(&ray, f64::from(slack) * 4.0) {
                            failures[1].push(format!("{message}\n    {}", label()));
                        }
                    }
                }
                // 3. Started again further along, short of the hit.
                if let Some(hit) = first.filter(|hit| hit.distance > 0.0) {
                    let along = hit.distance * rng.range(0.0, 0.999);
                    let restarted_ray = Ray {
                        origin: ray.at(along),
                        direction: ray.direction,
                        max_distance: ray.max_distance - along,
                    };
                    let restarted =
                        shape
                            .ray_cast(&xf, &restarted_ray)
                            .map(|h| collide2d::query::RayHit {
                                distance: h.distance + along,
                                ..h
                            });
                    let slack = 16.0 * f32::EPSILON * magnitude + 1e-5 * size;
                    runs[2] += 1;
                    if let Some(message) =
                        compare_rays(first, restarted, slack, |hit| (hit.point, hit.normal))
                    {
                        if !graze(&ray, f64::from(slack) * 4.0) {
                            failures[2].push(format!("{message}\n    {}", label()));
                        }
                    }
                }
            }
        }
    }
    let mut report = String::new();
    for ((name, failures), run) in names.iter().zip(&failures).zip(runs) {
        eprintln!("rays, {name}: {run} cases, {} wrong", failures.len());
        if !failures.is_empty() {
            report += &format!(
                "\n{name}: {} of {run} wrong:\n{}",
                failures.len(),
                failures[..failures.len().min(shown())].join("\n")
            );
        }
    }
    assert!(report.is_empty(), "{report}");
}

/// Compares two ray answers, the second's point and normal mapped back by `back`; `None` when
/// they agree within `slack` (the normal within `slack` over the size of the distance, or at a
/// corner, where any normal between the faces is an answer, within 1e-3 rad... compared only
/// when the points are away from corners: a tie between faces is allowed).
fn compare_rays(
    first: Option<collide2d::query::RayHit>,
    second: Option<collide2d::query::RayHit>,
    slack: f32,
    back: impl Fn(&collide2d::query::RayHit) -> (Vec2, Vec2),
) -> Option<String> {
    match (first, second) {
        (None, None) => None,
        (Some(_), None) | (None, Some(_)) => {
            Some(format!("hit against miss: {first:?} / {second:?}"))
        }
        (Some(x), Some(y)) => {
            let (point, normal) = back(&y);
            if (x.distance - y.distance).abs() > slack || x.point.distance(point) > 2.0 * slack {
                return Some(format!(
                    "distances {} and {} (points {} and {point}) differ by more than {slack:e}",
                    x.distance, y.distance, x.point
                ));
            }
            if x.normal.angle_to(normal).abs() > 1e-3 && x.distance > 0.0 {
                return Some(format!(
                    "normals {} and {normal} differ at {}",
                    x.normal, x.point
                ));
            }
            None
        }
    }
}

/// Continuous bullets (ball, thin box, capsule, 0.01..0.1 across) shot in one update through a
/// thin wall (a segment, a thin box, a straight chain of four segments with seams, a compound
/// of two thin boxes), the same scene in place and moved by a rigid motion to 1e4..1e5 out:
/// each gives exactly one `Begin` with the wall, with the same time of impact (within the
/// cast's tolerance over the speed, and the rounding of coordinates at 1e5 over the path), and
/// exactly one `End` at the next update.
#[test]
fn continuous_bullets_through_thin_walls_give_the_same_events_wherever_the_scene_is() {
    use collide2d::shape::{Capsule, Chain, Circle, Compound, Segment};
    use collide2d::world::{Collider, CollisionEvent, World};
    let mut rng = Rng(0x0B01_1E75);
    let mut failures = Vec::new();
    let cases = 3000;
    for case in 0..cases {
        let size = rng.log_size(0.01, 0.1);
        let bullet = match case % 3 {
            0 => Shape::from(Circle::with_radius(0.5 * size).unwrap()),
            1 => Shape::from(Polygon::rect(size, 0.2 * size).unwrap()),
            _ => Shape::from(
                Capsule::new(
                    Vec2::new(-0.3 * size, 0.0),
                    Vec2::new(0.3 * size, 0.0),
                    0.2 * size,
                )
                .unwrap(),
            ),
        };
        let thickness = rng.log_size(0.01, 0.3);
        let wall = match (case / 3) % 4 {
            0 => Shape::from(Segment::new(Vec2::new(0.0, -2.0), Vec2::new(0.0, 2.0)).unwrap()),
            1 => Shape::from(Polygon::rect(thickness, 4.0).unwrap()),
            2 => Shape::from(
                Chain::open(&[
                    Vec2::new(0.0, 2.0),
                    Vec2::new(0.0, 1.0),
                    Vec2::new(0.0, 0.0),
                    Vec2::new(0.0, -1.0),
                    Vec2::new(0.0, -2.0),
                ])
                .unwrap(),
            ),
            _ => Shape::from(
                Compound::new(vec![
                    (
                        Transform::new(Vec2::new(0.0, 1.0), 0.0),
                        Shape::from(Polygon::rect(thickness, 2.0).unwrap()),
                    ),
                    (
                        Transform::new(Vec2::new(0.0, -1.0), 0.0),
                        Shape::from(Polygon::rect(thickness, 2.0).unwrap()),
                    ),
                ])
                .unwrap(),
            ),
        };
        // From the wall's front (a chain's front faces -x), across a point of the wall's middle
        // at a slant, 1..1e4 sizes long (at least 40, to clear the wall), the crossing
        // somewhere along it.
        let length = (size * rng.log_size(1.0, 1e4)).max(40.0);
        let slant = rng.range(-1.0, 1.0);
        let heading = Vec2::new(slant.cos(), slant.sin());
        let cross = Vec2::new(0.0, rng.range(-1.0, 1.0));
        let before = rng.range(0.3, 0.7);
        let start = cross - heading * (length * before);
        let angle = rng.angle();
        let g = Transform::new(unit(rng.angle()) * rng.log_size(1e4, 1e5), rng.angle());
        let mut times = Vec::new();
        for placement in [Transform::IDENTITY, g] {
            let mut world = World::new();
            let wall_handle = world
                .insert(Collider::new(wall.clone()).with_transform(placement))
                .unwrap();
            let bullet_xf = |p: Vec2| placement.mul(&Transform::new(p, angle));
            let bullet_handle = world
                .insert(
                    Collider::new(bullet.clone())
                        .with_transform(bullet_xf(start))
                        .with_continuous(true),
                )
                .unwrap();
            world.update();
            world
                .set_transform(bullet_handle, bullet_xf(start + heading * length))
                .unwrap();
            world.update();
            let begins: Vec<f32> = world
                .events()
                .iter()
                .filter(|e| {
                    matches!(e, CollisionEvent::Begin { .. })
                        && e.involves(wall_handle)
                        && e.involves(bullet_handle)
                })
                .filter_map(|e| e.time_of_impact())
                .collect();
            world.update();
            let ends = world
                .events()
                .iter()
                .filter(|e| matches!(e, CollisionEvent::End { .. }))
                .count();
            world.update();
            let later = world.events().len();
            if begins.len() != 1 || ends != 1 || later != 0 {
                failures.push(format!(
                    "case {case} at {placement:?}: begins {begins:?}, ends {ends}, then {later} \
                     events; {bullet:?} from {start} by {} through {wall:?}",
                    heading * length
                ));
            }
            times.push(begins.first().copied());
        }
        if let [Some(here), Some(there)] = times[..] {
            let allow = (1e-3 * size + 16.0 * f32::EPSILON * (1e5 + length)) / length;
            if (here - there).abs() > allow + 1e-6 {
                failures.push(format!(
                    "case {case}: times of impact {here} and {there} (moved) differ by more \
                     than {allow:e}; {bullet:?} from {start} by {} through {wall:?}",
                    heading * length
                ));
            }
        }
    }
    crate::support::assert_no_failures(&failures, 2 * cases, 6);
}

/// A shape as Rust source that rebuilds it (for the failure reports of `diagnose`, to be
/// pasted into a regression test).
fn literal_shape(shape: &Shape) -> String {
    let v = |p: Vec2| format!("Vec2::new({:?}, {:?})", p.x, p.y);
    let list = |ps: &[Vec2]| ps.iter().map(|&p| v(p)).collect::<Vec<_>>().join(", ");
    match shape {
        Shape::Circle(c) => format!(
            "Shape::from(Circle::new({}, {:?}).unwrap())",
            v(c.center()),
            c.radius()
        ),
        Shape::Capsule(c) => format!(
            "Shape::from(Capsule::new({}, {}, {:?}).unwrap())",
            v(c.a()),
            v(c.b()),
            c.radius()
        ),
        Shape::Segment(s) => format!(
            "Shape::from(Segment::new({}, {}).unwrap())",
            v(s.a()),
            v(s.b())
        ),
        Shape::Polygon(p) => format!(
            "Shape::from(Polygon::new(&[{}]).unwrap().with_radius({:?}).unwrap())",
            list(p.vertices()),
            p.radius()
        ),
        Shape::Compound(c) => format!(
            "Shape::from(Compound::new(vec![{}]).unwrap())",
            c.children()
                .iter()
                .map(|(xf, s)| format!("({}, {})", literal_xf(xf), literal_shape(s)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Shape::Chain(c) => {
            format!(
                "Shape::from(Chain::{}(&[{}]).unwrap())",
                if c.is_closed() { "closed" } else { "open" },
                list(c.vertices())
            )
        }
    }
}

/// A placement as Rust source.
fn literal_xf(xf: &Transform) -> String {
    format!(
        "Transform {{ p: Vec2::new({:?}, {:?}), q: Rot {{ c: {:?}, s: {:?} }} }}",
        xf.p.x, xf.p.y, xf.q.c, xf.q.s
    )
}

/// A scene as Rust source.
fn literal_scene(s: &Scene) -> String {
    format!(
        "Scene {{ a: {}, xf_a: {}, va: Vec2::new({:?}, {:?}), turn_a: {:?}, b: {}, xf_b: {}, vb: Vec2::new({:?}, {:?}), turn_b: {:?}, options: CastOptions {{ target_separation: {:?}, tolerance: {:?}, max_iterations: {}, separating_overlap_hits: {} }} }}",
        literal_shape(&s.a), literal_xf(&s.xf_a), s.va.x, s.va.y, s.turn_a,
        literal_shape(&s.b), literal_xf(&s.xf_b), s.vb.x, s.vb.y, s.turn_b,
        s.options.target_separation, s.options.tolerance, s.options.max_iterations, s.options.separating_overlap_hits
    )
}

/// With `CAST_INVARIANCE_DIAG` set, a chain scene's failure report: the scene as source, its
/// cast, and per segment the two-sided cast, the side of the other shape's centroid there,
/// and the sampled first time the other shape is within the band with its centroid in front.
fn diagnose(scene: &Scene) -> String {
    if std::env::var("CAST_INVARIANCE_DIAG").is_err() {
        return String::new();
    }
    let (sweep_a, sweep_b) = scene.sweeps();
    let (chain, chain_sweep, other, other_sweep) = match (&scene.a, &scene.b) {
        (Shape::Chain(chain), other) => (chain, sweep_a, other, sweep_b),
        (other, Shape::Chain(chain)) => (chain, sweep_b, other, sweep_a),
        _ => return String::new(),
    };
    let target = f64::from(scene.options.target_separation);
    let tol = f64::from(scene.options.tolerance);
    let mut out = format!(
        "\n  SCENE {}\n  cast {:?}",
        literal_scene(scene),
        scene.cast()
    );
    for i in 0..chain.segment_count() {
        let segment = Shape::from(chain.segment(i).unwrap());
        let normal = chain.normals()[i];
        let side = |t: f32| {
            let c = chain_sweep
                .transform_at(t)
                .apply_inv(other_sweep.transform_at(t).apply(other.centroid()));
            (c - chain.segment(i).unwrap().a()).dot(normal)
        };
        let gap = |t: f32| {
            let a = pieces(&segment, &chain_sweep.transform_at(t));
            let b = pieces(other, &other_sweep.transform_at(t));
            let mut g = f64::INFINITY;
            for x in &a {
                for y in &b {
                    g = g.min(-exact(x, y).depth);
                }
            }
            g
        };
        let two = shape_cast(&segment, &chain_sweep, other, &other_sweep, scene.options);
        let touching = |t: f32| gap(t) <= target + tol && side(t) >= 0.0;
        let n = 4000;
        let mut reference = None;
        for k in 0..=n {
            let t = k as f32 / n as f32;
            if touching(t) {
                let (mut lo, mut hi) = (((k as f32) - 1.0).max(0.0) / n as f32, t);
                if k > 0 {
                    for _ in 0..40 {
                        let m = 0.5 * (lo + hi);
                        if touching(m) {
                            hi = m
                        } else {
                            lo = m
                        }
                    }
                }
                let _ = lo;
                reference = Some(hi);
                break;
            }
        }
        out += &format!(
            "\n  seg {i}: two-sided {:?} side there {:?}; gap(0) {:e}; one-sided ref t {:?} gap {:?} side {:?}",
            two.map(|h| (h.t, h.normal)),
            two.map(|h| side(h.t)),
            gap(0.0),
            reference,
            reference.map(gap),
            reference.map(side),
        );
    }
    out
}
