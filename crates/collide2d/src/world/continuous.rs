//! Continuous colliders: the sweep phase of [`World::update`], swept moves and teleports.
//!
//! A continuous collider is swept from its placement at the previous update to its current
//! one, so that nothing it may touch is passed through between two updates. The phase runs
//! only while the world has a continuous collider (a count says so), in five stages:
//!
//! 1. **Motion.** Every enabled continuous collider whose placement changed gets a [`Sweep`]:
//!    its object's origin moves on a straight line while its angle changes linearly, by the
//!    shortest turn or the turn stated with [`World::set_transform_spinning`] when that was
//!    the last call to place it (a later `set_transform`, `set_transforms` or `sweep_to`
//!    states a shortest turn).
//! 2. **Candidates.** The box around each sweep is queried in the broad phase for colliders
//!    that do not sweep (they are taken at their new placement: their moves are teleports);
//!    pairs of two sweeping colliders come from a sort-and-sweep of their swept boxes on `x`.
//! 3. **Filter.** Enabled, layer matrix, category and mask bits, as for the narrow phase.
//! 4. **Cast.** [`shape_cast`] gives the first contact over the step, translation and rotation,
//!    both sides moving when both sweep; a one-way collider counts it only from its blocking
//!    side and, for shapes overlapping at the start of the step, no deeper than its margin (the
//!    narrow phase's rule). Shapes touching at the start count as a hit, unless the pair
//!    touched at the previous update: its cast is a hit only where the motion goes further
//!    into the other collider (a ball rolling along the floor of a level chain or compound
//!    meets its wall; it does not hit the floor it rolls on).
//! 5. **Answers.** A pair hit by a sweep touches as of this update, with the contact at the
//!    time of impact as its manifold, and its `Begin` carries the time (a pair that touched
//!    at the previous update keeps its answer at the end of the step if it touches then,
//!    unless that answer pushes the shapes on the way they went or against the way they
//!    touched at the start, and the sweep meets the other collider again later in the step
//!    (for a compound, any part it was apart from at the start) or goes further into it with
//!    that answer's normal against the one it met it with (carried past the middle of the
//!    other): then, as when it is apart at the end of the step, it reports a `Stay` with the
//!    contact at the time of impact. Where the cast hits at the start (the step goes further
//!    into the part the body rests on, as a box turning as it rolls does), a part of a compound
//!    met later in the step, on the compound's outer boundary, comes first: a body carried
//!    along a level's floor into or past its wall reports the wall's contact, whether the
//!    floor runs under the wall or ends at it. A body sliding along a compound floor so keeps
//!    the floor's contact across its seams. A chain's segments are one-sided: a body carried
//!    through a level chain's wall ends behind it, unseen by the chain's manifold, so a pair
//!    with a chain reports the contact where the sweep met the first segment it went through
//!    whenever there is one, whether or not the pair touches at the end of the step). The next
//!    update re-tests it whatever moves. A pair apart at the end of the step (the sweep went
//!    through it) is also remembered as *passed*: the next update reports its `End`, or a
//!    `Stay` when a sweep touches it again.

use super::touching::PairTest;
use super::update::PairAnswer;
use super::{ordered, ColliderHandle, Entry, PairFilter, World, WorldCastHit, WorldError};
use crate::math::{Transform, Vec2};
use crate::query::{
    chain_passed_segment, child_sweep, collide, shape_cast, CastHit, CastOptions, ContactPoint,
    Feature, FeatureId, Manifold, Sweep,
};
use crate::shape::{Aabb, Compound, Shape};

/// Most distance evaluations of one swept pair: rotating sweeps that graze a surface advance
/// in small steps, and a cast that runs out reports an early contact.
const MAX_CAST_ITERATIONS: u32 = 1000;

/// A continuous collider's motion since the previous update.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(super) struct Track {
    /// The shape's placement at the previous update (or when the collider last teleported or
    /// became continuous).
    pub previous: Transform,
    /// The object's turn since then, as stated by [`World::set_transform_spinning`]; `None`
    /// for the shortest turn.
    pub turn: Option<f32>,
}

/// A continuous collider sweeping this update.
#[derive(Clone, Copy, Debug)]
struct Mover {
    handle: ColliderHandle,
    sweep: Sweep,
    /// A box holding the shape all along the sweep.
    bounds: Aabb,
    /// How far from its rotation centre's straight path the shape reaches, padded like
    /// `bounds`: a collider whose box stays farther from that path cannot be touched.
    reach: f32,
}

/// A pair touched by a sweep (`a < b`).
#[derive(Clone, Copy, Debug)]
struct SweptHit {
    a: ColliderHandle,
    b: ColliderHandle,
    /// Time of impact in `[0, 1]`.
    time: f32,
    /// World point midway between the surfaces then.
    point: Vec2,
    /// Unit normal from `a` to `b` then.
    normal: Vec2,
    /// Whether either collider is a sensor (no manifold).
    sensor: bool,
    /// Whether the pair touched at the last update: its answer at the end of the step stands
    /// unless the pair is apart then, or the sweep meets the other collider again later, or
    /// goes further into it with that answer's normal against the sweep's (past its middle).
    was_touching: bool,
}

/// The world's continuous colliders and what their sweeps left for the next update.
#[derive(Clone, Debug, Default)]
pub(super) struct ContinuousColliders {
    /// Per slot: the motion of its collider when continuous.
    tracks: Vec<Option<Track>>,
    /// How many colliders are continuous; the sweep phase runs only when some are.
    count: usize,
    /// Pairs a sweep made touch that were apart at the end of the last update, sorted.
    passed: Vec<(ColliderHandle, ColliderHandle)>,
    /// Working memory of the phase.
    movers: Vec<Mover>,
    moving: Vec<u64>,
    hits: Vec<SweptHit>,
    merged_tests: Vec<PairTest>,
    merged_results: Vec<PairAnswer>,
}

impl ContinuousColliders {
    /// How many colliders are continuous.
    #[inline]
    pub fn count(&self) -> usize {
        self.count
    }

    /// Starts tracking the collider in slot `index` from `placement` (it became continuous).
    pub fn track(&mut self, index: u32, placement: Transform) {
        let index = index as usize;
        if index >= self.tracks.len() {
            self.tracks.resize(index + 1, None);
        }
        if self.tracks[index].is_none() {
            self.count += 1;
        }
        self.tracks[index] = Some(Track {
            previous: placement,
            turn: None,
        });
    }

    /// Stops tracking slot `index` (its collider was removed or is no longer continuous).
    pub fn forget(&mut self, index: u32) {
        if let Some(track) = self.tracks.get_mut(index as usize) {
            if track.take().is_some() {
                self.count -= 1;
            }
        }
        if self.count == 0 {
            self.passed.clear();
        }
    }

    /// Refuses a shift that would carry a remembered placement out of range (as
    /// [`shift`](Self::shift) would apply it), so an origin shift can fail before it changes
    /// anything.
    pub fn check_shift(&self, shift: Vec2) -> Result<(), WorldError> {
        for track in self.tracks.iter().flatten() {
            let mut previous = track.previous;
            previous.p -= shift;
            super::collider::check_placement_transform(&previous)?;
        }
        Ok(())
    }

    /// Moves every remembered placement by `-shift` (the world's origin moved).
    pub fn shift(&mut self, shift: Vec2) {
        for track in self.tracks.iter_mut().flatten() {
            track.previous.p -= shift;
        }
    }

    /// The tracks by slot, for a snapshot.
    pub fn saved_tracks(&self) -> Vec<(u32, Track)> {
        self.tracks
            .iter()
            .enumerate()
            .filter_map(|(index, track)| Some((index as u32, (*track)?)))
            .collect()
    }

    /// The pairs the last update's sweeps passed through, sorted.
    pub fn passed(&self) -> &[(ColliderHandle, ColliderHandle)] {
        &self.passed
    }

    /// Sets the stated turn of slot `index`'s track (a restore).
    pub fn set_turn(&mut self, index: u32, turn: Option<f32>) {
        if let Some(track) = self.track_mut(index) {
            track.turn = turn;
        }
    }

    /// Drops the stated turn of slot `index`'s track: a move stated after it (with
    /// [`World::set_transform`], [`World::set_transforms`] or [`World::sweep_to`]) sweeps the
    /// shortest way.
    #[inline]
    pub fn clear_turn(&mut self, index: u32) {
        if self.count == 0 {
            return;
        }
        if let Some(track) = self.track_mut(index) {
            track.turn = None;
        }
    }

    /// Sets the passed pairs, sorted (a restore).
    pub fn set_passed(&mut self, passed: Vec<(ColliderHandle, ColliderHandle)>) {
        self.passed = passed;
    }

    /// The slot's track, if its collider is continuous.
    fn track_mut(&mut self, index: u32) -> Option<&mut Track> {
        self.tracks.get_mut(index as usize)?.as_mut()
    }
}

/// The shortest turn from angle `from` to angle `to`, in `[-π, π)`.
fn shortest_turn(from: f32, to: f32) -> f32 {
    use std::f32::consts::{PI, TAU};
    (to - from + PI).rem_euclid(TAU) - PI
}

/// The sweep of `collider` from its shape placement `previous` to `current`: its object's
/// origin on a straight line, its angle turning linearly by the shortest turn, or by `turn`
/// rounded to the nearest turn that ends at `current`'s rotation.
fn collider_sweep(
    collider: &super::Collider,
    previous: &Transform,
    current: &Transform,
    turn: Option<f32>,
) -> Sweep {
    use std::f32::consts::TAU;
    // The object's origin in the shape's frame: the point the game's object turns about.
    let local_center = collider.offset.apply_inv(Vec2::ZERO);
    let shortest = if previous.q == current.q {
        0.0
    } else {
        shortest_turn(previous.angle(), current.angle())
    };
    let turn = match turn {
        Some(stated) => shortest + TAU * ((stated - shortest) / TAU).round(),
        None => shortest,
    };
    Sweep {
        local_center,
        center_start: previous.apply(local_center),
        center_end: current.apply(local_center),
        rotation_start: previous.q,
        turn,
    }
}

/// A box holding `shape` all along `sweep`, grown by `margin`, and how far the shape reaches
/// from the straight path of the sweep's rotation centre (grown likewise).
fn swept_bounds(shape: &Shape, sweep: &Sweep, margin: f32) -> (Aabb, f32) {
    let start = sweep.transform_at(0.0);
    let end = sweep.transform_at(1.0);
    // Every point of the shape stays within `reach` of the rotation centre, which moves on a
    // straight line.
    let local = shape.aabb(&Transform::IDENTITY);
    let reach = [
        local.min,
        local.max,
        Vec2::new(local.min.x, local.max.y),
        Vec2::new(local.max.x, local.min.y),
    ]
    .iter()
    .map(|corner| corner.distance(sweep.local_center))
    .fold(0.0f32, f32::max)
        * (1.0 + 1.0e-5);
    let mut bounds = if sweep.rotation() == 0.0 {
        shape.aabb(&start).union(&shape.aabb(&end))
    } else {
        Aabb {
            min: sweep.center_start.min(sweep.center_end) - Vec2::splat(reach),
            max: sweep.center_start.max(sweep.center_end) + Vec2::splat(reach),
        }
    };
    // Padding for rounding at the scale of the coordinates, as the world's boxes have.
    let magnitude = bounds
        .min
        .abs()
        .max(bounds.max.abs())
        .max(start.p.abs())
        .max(end.p.abs())
        .max_element();
    let pad = magnitude * (8.0 * f32::EPSILON) + margin;
    bounds.min -= Vec2::splat(pad);
    bounds.max += Vec2::splat(pad);
    (bounds, reach + 2.0 * pad)
}

/// Whether the segment `from`–`to` passes within the box grown by `margin` (slab test, with
/// the box grown a little more for rounding: it may say yes wrongly, never no).
fn segment_near_box(from: Vec2, to: Vec2, aabb: &Aabb, margin: f32) -> bool {
    let scale = from
        .abs()
        .max(to.abs())
        .max(aabb.min.abs())
        .max(aabb.max.abs());
    let grow = Vec2::splat(margin) + scale * (8.0 * f32::EPSILON);
    let (low, high) = (aabb.min - grow, aabb.max + grow);
    let delta = to - from;
    let (mut enter, mut leave) = (0.0f32, 1.0f32);
    for axis in 0..2 {
        if delta[axis] == 0.0 {
            if from[axis] < low[axis] || from[axis] > high[axis] {
                return false;
            }
            continue;
        }
        let inverse = 1.0 / delta[axis];
        let (t0, t1) = (
            (low[axis] - from[axis]) * inverse,
            (high[axis] - from[axis]) * inverse,
        );
        enter = enter.max(t0.min(t1));
        leave = leave.min(t0.max(t1));
    }
    enter <= leave + 1.0e-6
}

/// The cast settings of a swept pair: contact within 1e-5, or within four units in the last
/// place of the largest coordinate or motion involved where `f32` cannot resolve 1e-5 (the
/// gaps a cast measures are rounded at that scale).
fn cast_options(sweep: &Sweep, other: &Sweep) -> CastOptions {
    let scale = sweep
        .center_start
        .abs()
        .max(sweep.center_end.abs())
        .max(other.center_start.abs())
        .max(other.center_end.abs())
        .max_element()
        .max((sweep.translation() - other.translation()).length());
    CastOptions {
        tolerance: (scale * (4.0 * f32::EPSILON)).max(1.0e-5),
        max_iterations: MAX_CAST_ITERATIONS,
        ..CastOptions::default()
    }
}

/// Whether the one-way colliders of the pair (if any) block a contact found by a cast, by the
/// narrow phase's rule (see [`one_way_allows`](super::one_way_allows)) at the time of impact:
/// the normal (from `a` to `b`) must leave each one-way collider through its blocking side, as
/// rotated then, and shapes already overlapping at the start of the step must be no deeper
/// than the margin (deeper, the other collider is passing through from the other side).
fn one_way_blocks(
    (a, sweep_a): (&Entry, &Sweep),
    (b, sweep_b): (&Entry, &Sweep),
    hit: &CastHit,
) -> bool {
    let (one_way_a, one_way_b) = (a.collider.one_way, b.collider.one_way);
    if one_way_a.is_none() && one_way_b.is_none() {
        return true;
    }
    let faces = |one_way: Option<super::OneWay>, sweep: &Sweep, normal: Vec2| {
        one_way.is_none_or(|one_way| {
            sweep
                .transform_at(hit.t)
                .rotate(one_way.direction)
                .dot(normal)
                > 0.0
        })
    };
    if !faces(one_way_a, sweep_a, hit.normal) || !faces(one_way_b, sweep_b, -hit.normal) {
        return false;
    }
    if hit.t > 0.0 {
        // Found approaching, at the distance of touching: no depth.
        return true;
    }
    let depth = collide(
        &a.collider.shape,
        &sweep_a.transform_at(0.0),
        &b.collider.shape,
        &sweep_b.transform_at(0.0),
    )
    .max_penetration();
    let shallow = |one_way: Option<super::OneWay>| one_way.is_none_or(|w| depth <= w.margin);
    shallow(one_way_a) && shallow(one_way_b)
}

impl World {
    /// Makes a collider continuous or not (see
    /// [`Collider::with_continuous`](super::Collider::with_continuous)). A collider that becomes
    /// continuous is swept from where it is now.
    pub fn set_continuous(
        &mut self,
        handle: ColliderHandle,
        continuous: bool,
    ) -> Result<(), WorldError> {
        let entry = self.entry_mut(handle)?;
        if entry.collider.continuous == continuous {
            return Ok(());
        }
        entry.collider.continuous = continuous;
        let placement = entry.placement;
        if continuous {
            self.continuous.track(handle.index, placement);
        } else {
            self.continuous.forget(handle.index);
        }
        Ok(())
    }

    /// Moves a collider's object without sweeping: for a continuous collider the next update
    /// sweeps from here (a spawn, a respawn, a portal), not from where it was. For other
    /// colliders the same as [`set_transform`](World::set_transform).
    pub fn teleport(&mut self, handle: ColliderHandle, xf: Transform) -> Result<(), WorldError> {
        self.set_transform(handle, xf)?;
        let placement = self.entry(handle)?.placement;
        if let Some(track) = self.continuous.track_mut(handle.index) {
            *track = Track {
                previous: placement,
                turn: None,
            };
        }
        Ok(())
    }

    /// [`set_transform`](World::set_transform) for a continuous collider that turned by `turn`
    /// radians since the last update (any amount, several whole turns included): its sweep
    /// turns that way instead of the shortest way to the new rotation. `turn` is rounded to the
    /// nearest turn that ends at `xf`'s rotation. Other colliders ignore `turn`.
    ///
    /// The last call before the update states the step's motion: a later `set_transform`,
    /// [`set_transforms`](World::set_transforms) or [`sweep_to`](World::sweep_to) of the same
    /// collider drops `turn` (its sweep turns the shortest way to where that call put it), and
    /// a later `set_transform_spinning` replaces it.
    ///
    /// Errors: [`WorldError::InvalidInput`] for a non-finite `turn`, and those of
    /// `set_transform`; the world is then unchanged.
    pub fn set_transform_spinning(
        &mut self,
        handle: ColliderHandle,
        xf: Transform,
        turn: f32,
    ) -> Result<(), WorldError> {
        if !turn.is_finite() {
            return Err(WorldError::InvalidInput("turn"));
        }
        self.set_transform(handle, xf)?;
        if let Some(track) = self.continuous.track_mut(handle.index) {
            track.turn = Some(turn);
        }
        Ok(())
    }

    /// Moves a collider's object towards `target` and stops it at the first solid collider it
    /// would touch on the way (no sliding): the building block of a projectile that must stop
    /// at what it hits. Returns that hit (`normal` from the moving collider to the one hit), or
    /// `None` when it reached `target`.
    ///
    /// The path is swept as the update sweeps continuous colliders (straight line, shortest
    /// turn) against every enabled, non-sensor collider that its layers and filter bits let it
    /// touch, taken where they are now. One already touched at the start stops the move only
    /// if the path goes further into it. Whether the collider is continuous or not, the move
    /// is an ordinary move for the next update: the update sweeps a continuous collider from
    /// its placement at the last update the shortest way to where this call left it, dropping
    /// a turn stated before with [`set_transform_spinning`](World::set_transform_spinning).
    ///
    /// A collider is stopped short of what it would pass through, call after call, only when
    /// the two, measured square to the face they meet, are together more than four times the
    /// cast's tolerance thick: the tolerance is `max(1e-5, 4.8e-7 × s)` for `s` the largest
    /// coordinate of the path's ends or its length (4.8e-4 for a move of 1,000, 4.8e-3 at 1e4
    /// from the origin). Thinner, a collider stopped touching cannot be told from one resting
    /// on a surface it slides along: the next move passes through (a box 1e-4 thick pushed
    /// into a wall 1e-4 thick 1e3 from the origin stops at its first call and passes through
    /// at its second).
    ///
    /// ```
    /// use collide2d::{shape::{Circle, Polygon, Shape}, world::{Collider, World}, Transform, Vec2};
    /// let mut world = World::new();
    /// let wall = world.insert(Collider::new(Shape::from(Polygon::rect(0.1, 10.0)?))
    ///     .with_transform(Transform::new(Vec2::new(50.0, 0.0), 0.0)))?;
    /// let bullet = world.insert(Collider::new(Shape::from(Circle::with_radius(0.05)?)))?;
    /// let hit = world.sweep_to(bullet, Transform::new(Vec2::new(100.0, 0.0), 0.0))?.unwrap();
    /// assert_eq!(hit.collider, wall);
    /// let stopped = world.get(bullet)?.transform().p;
    /// assert!((stopped.x - (50.0 - 0.05 - 0.05)).abs() < 1e-3);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn sweep_to(
        &mut self,
        handle: ColliderHandle,
        target: Transform,
    ) -> Result<Option<WorldCastHit>, WorldError> {
        let (target_placement, _, _) = self.plan_move(handle, &target)?;
        let entry = self.entry(handle)?;
        let sweep = collider_sweep(&entry.collider, &entry.placement, &target_placement, None);
        let mut first: Option<WorldCastHit> = None;
        if entry.filter.enabled {
            let opts = cast_options(&sweep, &sweep);
            let (bounds, _) = swept_bounds(&entry.collider.shape, &sweep, opts.tolerance);
            self.broad.get().overlap_aabb_each(bounds, &mut |_, key| {
                let other = ColliderHandle::from_key(key);
                if other == handle {
                    return true;
                }
                let Ok(other_entry) = self.entry(other) else {
                    return true;
                };
                if other_entry.filter.sensor || !self.may_touch(&entry.filter, &other_entry.filter)
                {
                    return true;
                }
                let other_sweep = Sweep::fixed(&other_entry.placement);
                let Some(hit) = shape_cast(
                    &entry.collider.shape,
                    &sweep,
                    &other_entry.collider.shape,
                    &other_sweep,
                    opts,
                ) else {
                    return true;
                };
                if !one_way_blocks((entry, &sweep), (other_entry, &other_sweep), &hit) {
                    return true;
                }
                let earlier =
                    first.is_none_or(|best| (hit.t, other) < (best.fraction, best.collider));
                if earlier {
                    first = Some(WorldCastHit::new(other, hit));
                }
                true
            });
        }
        match first {
            None => self.set_transform(handle, target)?,
            Some(found) => {
                let entry = self.entry(handle)?;
                let stop = sweep
                    .transform_at(found.fraction)
                    .mul(&entry.collider.offset.inv());
                let stop = Transform {
                    p: stop.p,
                    q: stop.q.normalized(),
                };
                self.set_transform(handle, stop)?;
            }
        }
        Ok(first)
    }

    /// Whether the filters of two colliders let them touch (both enabled, layers, bits).
    fn may_touch(&self, a: &PairFilter, b: &PairFilter) -> bool {
        a.enabled && b.enabled && self.pair_allowed(a, b)
    }

    /// Stages 1–4 of the module docs: sweeps every moving continuous collider and merges the
    /// pairs they touch into the update's answers (`tests`, sorted by pair, and `results`).
    pub(super) fn run_continuous_phase(
        &mut self,
        tests: &mut Vec<PairTest>,
        results: &mut Vec<PairAnswer>,
    ) {
        let mut state = std::mem::take(&mut self.continuous);
        // 1. Motion.
        state.movers.clear();
        state.moving.clear();
        state.moving.resize(self.slots.len().div_ceil(64), 0);
        for (index, track) in state.tracks.iter().enumerate() {
            let (Some(track), Some(slot)) = (track, self.slots.get(index)) else {
                continue;
            };
            let Some(entry) = &slot.entry else {
                continue;
            };
            if !entry.filter.enabled || (track.previous == entry.placement && track.turn.is_none())
            {
                continue;
            }
            let sweep = collider_sweep(
                &entry.collider,
                &track.previous,
                &entry.placement,
                track.turn,
            );
            if sweep.translation() == Vec2::ZERO && sweep.rotation() == 0.0 {
                continue;
            }
            let margin = cast_options(&sweep, &sweep).tolerance;
            let (bounds, reach) = swept_bounds(&entry.collider.shape, &sweep, margin);
            state.movers.push(Mover {
                handle: ColliderHandle {
                    index: index as u32,
                    generation: slot.generation,
                },
                sweep,
                bounds,
                reach,
            });
            state.moving[index / 64] |= 1 << (index % 64);
        }

        // 2–4. Candidates, filter and cast: against what stays put, then between movers.
        let mut hits = std::mem::take(&mut state.hits);
        hits.clear();
        self.sweep_against_still(&state, &mut hits);
        let movers = &state.movers;
        let mut order: Vec<usize> = (0..movers.len()).collect();
        order.sort_unstable_by(|&i, &j| movers[i].bounds.min.x.total_cmp(&movers[j].bounds.min.x));
        for (position, &i) in order.iter().enumerate() {
            for &j in &order[position + 1..] {
                if movers[j].bounds.min.x > movers[i].bounds.max.x {
                    break;
                }
                if movers[i].bounds.overlaps(&movers[j].bounds) {
                    if let Some(hit) = self.sweep_pair(
                        (movers[i].handle, &movers[i].sweep),
                        (movers[j].handle, &movers[j].sweep),
                        true,
                    ) {
                        hits.push(hit);
                    }
                }
            }
        }
        hits.sort_unstable_by_key(|hit| (hit.a, hit.b));
        hits.dedup_by_key(|hit| (hit.a, hit.b));
        // Pairs touching at the last update (unless a sweep passed them then) start touching, so
        // the cast above hit them at 0. Their answer at the end of the step stands when they
        // touch then (unless the sweep meets it again later, or carried it past its middle);
        // otherwise they are cast again without that start (step 5). Checked only for hits, as
        // most candidates miss.
        let mut fresh = hits.clone();
        self.touching
            .retain_not_touching(&mut fresh, |hit| (hit.a, hit.b), &state.passed);
        if fresh.len() < hits.len() {
            let mut fresh_pairs = fresh.iter().map(|hit| (hit.a, hit.b)).peekable();
            for hit in &mut hits {
                hit.was_touching = fresh_pairs.next_if_eq(&(hit.a, hit.b)).is_none();
            }
        }
        state.hits = hits;

        // 5. Answers: merge the hit pairs into the sorted tests.
        let merged_tests = &mut state.merged_tests;
        let merged_results = &mut state.merged_results;
        merged_tests.clear();
        merged_results.clear();
        state.passed.clear();
        /// Answers a hit pair with the contact at the time of impact; a pair apart at the end
        /// of the step (`touching_at_end` false) is remembered as passed.
        fn push_hit(
            hit: &SweptHit,
            touching_at_end: bool,
            tests: &mut Vec<PairTest>,
            results: &mut Vec<PairAnswer>,
            passed: &mut Vec<(ColliderHandle, ColliderHandle)>,
        ) {
            tests.push(PairTest {
                a: hit.a,
                b: hit.b,
                boxes_apart: false,
            });
            let contact = Manifold {
                normal: hit.normal,
                points: [ContactPoint {
                    point: hit.point,
                    penetration: 0.0,
                    id: FeatureId {
                        a: Feature::Vertex(0),
                        b: Feature::Vertex(0),
                    },
                }; 2],
                count: 1,
                ..Manifold::EMPTY
            };
            results.push(match hit.sensor {
                true => PairAnswer::SensorOverlap,
                false => PairAnswer::Touching(contact),
            });
            if !touching_at_end {
                passed.push((hit.a, hit.b));
            }
        }
        let sweep_of = |handle: ColliderHandle| -> Option<Sweep> {
            match state
                .movers
                .binary_search_by_key(&handle.index, |mover| mover.handle.index)
            {
                Ok(position) => Some(state.movers[position].sweep),
                Err(_) => Some(Sweep::fixed(&self.entry(handle).ok()?.placement)),
            }
        };
        // A hit as it stands, but for a pair that touched at the last update (asked only when
        // it is apart at the end of the step): a hit only where the motion goes further into
        // the other collider, cast again without the start's touch.
        let answer = |hit: &SweptHit| -> Option<SweptHit> {
            if !hit.was_touching {
                return Some(*hit);
            }
            let (sweep_a, sweep_b) = (sweep_of(hit.a)?, sweep_of(hit.b)?);
            let (a, b) = ((hit.a, &sweep_a), (hit.b, &sweep_b));
            let found = self.sweep_pair(a, b, false)?;
            if found.time == 0.0 {
                // A part of a compound or a chain met later (a level's wall, past its floor's
                // end), hidden by the floor it started on, which the cast takes as a hit at 0
                // when the step goes deeper into it (a box turning as it rolls) and as no hit
                // otherwise.
                let later = self.later_meeting(a, b).map(|hit| SweptHit {
                    was_touching: true,
                    ..hit
                });
                if later.is_some() || !self.deepens(a, b) {
                    return later;
                }
            }
            Some(SweptHit {
                was_touching: true,
                ..found
            })
        };
        // A pair that touched at the last update and still touches keeps its contact at the
        // end of the step unless that contact pushes the shapes on the way they went (through
        // the other) or against the way they touched at the start (into what one rests on); a
        // body sliding along a compound floor across its seams so keeps the floor's contact.
        // Such a contact is replaced by the one at the time of impact, as for a pair that did
        // not touch before, when the sweep, cast again without the start's touch, meets the
        // other collider later in the step (a ball rolling along a level's floor into its
        // wall) or goes further into it from the start with the end contact's normal against
        // the one it met it with (carried past the middle of a floor). A cast that hits at 0
        // otherwise (a box turning as it rolls along a level's floor goes further into it)
        // would hide a part of a compound or a chain met later (the level's wall): that
        // meeting is looked for part by part. A chain's end contact is replaced, too, whenever
        // the sweep went through one of its segments: its manifold does not see a body behind
        // a one-sided wall, so that contact neither pushes on nor back in.
        let replacing_end = |hit: &SweptHit, end: &Manifold| -> Option<SweptHit> {
            let (sweep_a, sweep_b) = (sweep_of(hit.a)?, sweep_of(hit.b)?);
            let (shape_a, shape_b) = (
                &self.entry(hit.a).ok()?.collider.shape,
                &self.entry(hit.b).ok()?.collider.shape,
            );
            let start = collide(
                shape_a,
                &sweep_a.transform_at(0.0),
                shape_b,
                &sweep_b.transform_at(0.0),
            );
            // By more than the casts' tolerance: a contact square to the motion (a seam's
            // corner under a ball sliding over it) does not push it on.
            let pushes_on = end
                .normal
                .dot(sweep_b.translation() - sweep_a.translation())
                > cast_options(&sweep_a, &sweep_b).tolerance;
            let pushes_back_in = !start.is_empty() && end.normal.dot(start.normal) < 0.0;
            let (a, b) = ((hit.a, &sweep_a), (hit.b, &sweep_b));
            if !pushes_on && !pushes_back_in {
                // A chain's segments are one-sided: a body carried through a level chain's
                // wall ends behind it, where the chain's manifold does not see it, touching
                // the floor alone; its contact neither pushes on nor back in.
                return self.passed_chain_segment(a, b);
            }
            let found = self.sweep_pair(a, b, false)?;
            let found = if found.time > 0.0 {
                found
            } else if let Some(later) = self.later_meeting(a, b) {
                // A part met later in the step (a level's wall past the end of the floor the
                // body rests on) comes first: the end contact and the start's touch may belong
                // to different parts, so that the rule below would compare unrelated normals.
                later
            } else if found.normal.dot(end.normal) < 0.0 && self.deepens(a, b) {
                found
            } else {
                return None;
            };
            Some(SweptHit {
                was_touching: true,
                ..found
            })
        };
        let mut kept = Vec::with_capacity(state.hits.len());
        let mut hits = state.hits.iter().peekable();
        for (test, result) in tests.iter().zip(results.iter()) {
            while let Some(hit) = hits.next_if(|hit| (hit.a, hit.b) < (test.a, test.b)) {
                if let Some(hit) = answer(hit) {
                    push_hit(&hit, false, merged_tests, merged_results, &mut state.passed);
                    kept.push(hit);
                }
            }
            let hit = hits
                .next_if(|hit| (hit.a, hit.b) == (test.a, test.b))
                .and_then(|hit| match (hit.was_touching, result) {
                    (true, PairAnswer::Touching(end)) => replacing_end(hit, end),
                    (true, PairAnswer::SensorOverlap) => None,
                    _ => answer(hit),
                });
            match hit {
                Some(hit) => {
                    push_hit(
                        &hit,
                        result.is_touching(),
                        merged_tests,
                        merged_results,
                        &mut state.passed,
                    );
                    kept.push(hit);
                }
                None => {
                    merged_tests.push(*test);
                    merged_results.push(*result);
                }
            }
        }
        for hit in hits {
            if let Some(hit) = answer(hit) {
                push_hit(&hit, false, merged_tests, merged_results, &mut state.passed);
                kept.push(hit);
            }
        }
        state.hits = kept;
        std::mem::swap(tests, merged_tests);
        std::mem::swap(results, merged_results);
        // Hit pairs are re-tested at the next update whatever moves: their manifold is the
        // contact at the time of impact, and passed pairs end there.
        self.retest_pending
            .extend(state.hits.iter().map(|hit| (hit.a, hit.b)));
        self.continuous = state;
    }
    /// After the merge: puts the times of impact on this update's `Begin` events and takes
    /// every continuous collider's placement as the start of its next sweep.
    pub(super) fn finish_continuous_phase(&mut self) {
        let state = &mut self.continuous;
        let times: Vec<_> = state
            .hits
            .iter()
            .map(|hit| ((hit.a, hit.b), hit.time))
            .collect();
        self.touching.set_times_of_impact(&times);
        for (index, track) in state.tracks.iter_mut().enumerate() {
            let (Some(track), Some(entry)) = (
                track,
                self.slots.get(index).and_then(|slot| slot.entry.as_ref()),
            ) else {
                continue;
            };
            *track = Track {
                previous: entry.placement,
                turn: None,
            };
        }
    }

    /// Sweeps every mover against the colliders that do not sweep this update.
    fn sweep_against_still(&self, state: &ContinuousColliders, hits: &mut Vec<SweptHit>) {
        let sweep_one = |mover: &Mover, found: &mut Vec<SweptHit>| {
            let broad = self.broad.get();
            broad.overlap_aabb_each(mover.bounds, &mut |proxy, key| {
                let other = ColliderHandle::from_key(key);
                if other == mover.handle || super::bit_is_set(&state.moving, other.index) {
                    return true;
                }
                // A long diagonal path's box holds many colliders its path passes far from.
                let (from, to) = (mover.sweep.center_start, mover.sweep.center_end);
                if broad
                    .get_aabb(proxy)
                    .is_ok_and(|aabb| !segment_near_box(from, to, &aabb, mover.reach))
                {
                    return true;
                }
                let Ok(entry) = self.entry(other) else {
                    return true;
                };
                let still = Sweep::fixed(&entry.placement);
                if let Some(hit) =
                    self.sweep_pair((mover.handle, &mover.sweep), (other, &still), true)
                {
                    found.push(hit);
                }
                true
            });
        };
        #[cfg(feature = "rayon")]
        {
            use rayon::prelude::*;
            if state.movers.len() >= 64 {
                let batches: Vec<Vec<SweptHit>> = state
                    .movers
                    .par_chunks(16)
                    .map(|batch| {
                        let mut found = Vec::new();
                        batch.iter().for_each(|mover| sweep_one(mover, &mut found));
                        found
                    })
                    .collect();
                hits.extend(batches.into_iter().flatten());
                return;
            }
        }
        for mover in &state.movers {
            sweep_one(mover, hits);
        }
    }

    /// Whether the colliders of a pair that touch at the start of the step are deeper into each
    /// other two cast tolerances of motion later: a cast that starts overlapping judges by the
    /// contact normal at the start, and for shapes that overlap with a tie between two ways
    /// out (a bullet stopped at the middle of a wall) it may call either way further in.
    fn deepens(
        &self,
        (a, sweep_a): (ColliderHandle, &Sweep),
        (b, sweep_b): (ColliderHandle, &Sweep),
    ) -> bool {
        let (Ok(entry_a), Ok(entry_b)) = (self.entry(a), self.entry(b)) else {
            return false;
        };
        let (shape_a, shape_b) = (&entry_a.collider.shape, &entry_b.collider.shape);
        let reach = |shape: &Shape, sweep: &Sweep| swept_bounds(shape, sweep, 0.0).1;
        let closing = (sweep_a.translation() - sweep_b.translation()).length()
            + sweep_a.rotation().abs() * reach(shape_a, sweep_a)
            + sweep_b.rotation().abs() * reach(shape_b, sweep_b);
        let tolerance = cast_options(sweep_a, sweep_b).tolerance;
        if closing <= 0.0 || !closing.is_finite() {
            return false;
        }
        let later = (2.0 * tolerance / closing).min(1.0);
        let at = |t: f32| {
            collide(
                shape_a,
                &sweep_a.transform_at(t),
                shape_b,
                &sweep_b.transform_at(t),
            )
        };
        let (start, then) = (at(0.0), at(later));
        // Touching at the start without overlapping (within the band around touching): the
        // cast found the gap closing.
        start.is_empty() || (!then.is_empty() && then.max_penetration() > start.max_penetration())
    }

    /// The first contact over the step of a pair with a chain with a segment of the chain that
    /// the other collider passes through (see [`later_meeting`](Self::later_meeting)), as the
    /// pair's hit, touching at the last update; `None` when neither is a chain or no segment
    /// is passed.
    fn passed_chain_segment(
        &self,
        first: (ColliderHandle, &Sweep),
        second: (ColliderHandle, &Sweep),
    ) -> Option<SweptHit> {
        let is_chain = |handle: ColliderHandle| {
            self.entry(handle)
                .is_ok_and(|entry| matches!(entry.collider.shape, Shape::Chain(_)))
        };
        if !is_chain(first.0) && !is_chain(second.0) {
            return None;
        }
        let found = self.later_meeting(first, second)?;
        Some(SweptHit {
            was_touching: true,
            ..found
        })
    }

    /// The first contact over the step of `first` with a part of `second` (or of `second` with
    /// a part of `first`, whichever is a compound or a chain) that the sweep meets after the
    /// start, `None` when neither is a compound or a chain or no part is met. A pair touching
    /// at the start whose cast hits at 0 (going further into the part it rests on) may meet
    /// another part later in the step, which the compound's or chain's cast, taking its
    /// earliest part, does not report. A chain's parts are its one-sided segments, and only
    /// those the sweep passes through count (met from the front, its centroid behind them at
    /// the end, touched at the start included): a body sliding along a chain's floor meets
    /// the ends of the floor's in-line segments within the cast's tolerance (ghosts, which
    /// the chain's cast drops), but does not go through them. A compound's part counts only
    /// where it is met on the compound's outer boundary (not on a face it shares with another
    /// part, as at the seam of two floor boxes).
    fn later_meeting(
        &self,
        (first, first_sweep): (ColliderHandle, &Sweep),
        (second, second_sweep): (ColliderHandle, &Sweep),
    ) -> Option<SweptHit> {
        let (first_entry, second_entry) = (self.entry(first).ok()?, self.entry(second).ok()?);
        let (first_shape, second_shape) =
            (&first_entry.collider.shape, &second_entry.collider.shape);
        let opts = cast_options(first_sweep, second_sweep);
        let earliest = |hits: &mut dyn Iterator<Item = CastHit>| {
            hits.filter(|hit| hit.t > 0.0)
                .filter(|hit| {
                    one_way_blocks(
                        (first_entry, first_sweep),
                        (second_entry, second_sweep),
                        hit,
                    )
                })
                .min_by(|x, y| x.t.total_cmp(&y.t))
        };
        let hit = match (first_shape, second_shape) {
            (_, Shape::Compound(compound)) => {
                earliest(&mut compound.children().iter().enumerate().filter_map(
                    |(index, (child_xf, child))| {
                        let child_sweep = child_sweep(second_sweep, child_xf);
                        let hit = shape_cast(first_shape, first_sweep, child, &child_sweep, opts)?;
                        on_outer_boundary(compound, second_sweep, index, &hit, -hit.normal, opts)
                            .then_some(hit)
                    },
                ))
            }
            (Shape::Compound(compound), _) => {
                earliest(&mut compound.children().iter().enumerate().filter_map(
                    |(index, (child_xf, child))| {
                        let child_sweep = child_sweep(first_sweep, child_xf);
                        let hit =
                            shape_cast(child, &child_sweep, second_shape, second_sweep, opts)?;
                        on_outer_boundary(compound, first_sweep, index, &hit, hit.normal, opts)
                            .then_some(hit)
                    },
                ))
            }
            // A chain's parts are its one-sided segments; those met and left behind count
            // (from the start on: a segment the body touched at the start and went through).
            (_, Shape::Chain(chain)) => {
                let hit =
                    chain_passed_segment(chain, second_sweep, first_shape, first_sweep, opts)?;
                let hit = CastHit {
                    normal: -hit.normal,
                    ..hit
                };
                one_way_blocks(
                    (first_entry, first_sweep),
                    (second_entry, second_sweep),
                    &hit,
                )
                .then_some(hit)
            }
            (Shape::Chain(chain), _) => {
                let hit =
                    chain_passed_segment(chain, first_sweep, second_shape, second_sweep, opts)?;
                one_way_blocks(
                    (first_entry, first_sweep),
                    (second_entry, second_sweep),
                    &hit,
                )
                .then_some(hit)
            }
            _ => None,
        }?;
        let sensor = first_entry.filter.sensor || second_entry.filter.sensor;
        Some(swept_hit(first, second, &hit, sensor))
    }

    /// Stages 3 and 4 for one pair: the first contact of `first` and `second` over the step,
    /// if their filters let them touch (whether they touched at the last update is checked
    /// for the hits together).
    fn sweep_pair(
        &self,
        (first, first_sweep): (ColliderHandle, &Sweep),
        (second, second_sweep): (ColliderHandle, &Sweep),
        separating_overlap_hits: bool,
    ) -> Option<SweptHit> {
        let (first_entry, second_entry) = (self.entry(first).ok()?, self.entry(second).ok()?);
        if !self.may_touch(&first_entry.filter, &second_entry.filter) {
            return None;
        }
        // Shapes overlapping at the start of the step touch during it, even when moving apart,
        // unless they touched at the last update: others overlap because a collider was placed
        // there since (a non-continuous collider's move is a teleport).
        let opts = CastOptions {
            separating_overlap_hits,
            ..cast_options(first_sweep, second_sweep)
        };
        let hit = shape_cast(
            &first_entry.collider.shape,
            first_sweep,
            &second_entry.collider.shape,
            second_sweep,
            opts,
        )?;
        let sensor = first_entry.filter.sensor || second_entry.filter.sensor;
        if !sensor
            && !one_way_blocks(
                (first_entry, first_sweep),
                (second_entry, second_sweep),
                &hit,
            )
        {
            return None;
        }
        Some(swept_hit(first, second, &hit, sensor))
    }
}

/// Whether a cast's `hit` on part `index` of `compound` (placed along `sweep`) is on the
/// compound's outer boundary: `outward` is the part's normal there, towards the other shape.
/// A face the part shares with another part (the seam of two floor boxes) is not: just outside
/// it, the contact point lies inside the other part (deeper than the cast's tolerance, so that
/// a wall met at the floor's surface counts).
fn on_outer_boundary(
    compound: &Compound,
    sweep: &Sweep,
    index: usize,
    hit: &CastHit,
    outward: Vec2,
    opts: CastOptions,
) -> bool {
    let probe = hit.point + outward * (4.0 * opts.tolerance);
    !compound
        .children()
        .iter()
        .enumerate()
        .any(|(other, (child_xf, child))| {
            if other == index {
                return false;
            }
            let placement = child_sweep(sweep, child_xf).transform_at(hit.t);
            let projection = child.project_point(&placement, probe);
            projection.inside && projection.distance > opts.tolerance
        })
}

/// The hit of a cast of `first` against `second`, as the pair's (ordered, its normal from the
/// pair's first collider to its second), not touching at the last update.
fn swept_hit(
    first: ColliderHandle,
    second: ColliderHandle,
    hit: &CastHit,
    sensor: bool,
) -> SweptHit {
    let pair = ordered(first, second);
    SweptHit {
        a: pair.0,
        b: pair.1,
        time: hit.t.clamp(0.0, 1.0),
        point: hit.point,
        normal: if pair.0 == first {
            hit.normal
        } else {
            -hit.normal
        },
        sensor,
        was_touching: false,
    }
}
