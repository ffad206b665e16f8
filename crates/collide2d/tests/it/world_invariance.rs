//! Seeded sweeps of random edit sequences interleaved with updates, checked against a
//! brute-force model of which pairs touch, and replayed in changed worlds that must answer the
//! same:
//!
//! 1. Event algebra: per pair, events alternate `Begin` (`Stay`*) `End`, all of the kind
//!    (sensor or solid) the `Begin` was, a pair that changes kind while touching ending and
//!    beginning again right after in the same update; no event but an `End` names a collider
//!    that is gone or disabled; an `End`'s reason is the edit that caused it;
//!    a collider put in a freed slot never inherits the old collider's pairs. Every edit joins
//!    in: moves (single, batched, far away and back in one frame), shapes, offsets, layers, the
//!    layer matrix, groups, sensor flips, enabling and disabling (twice in one frame), removal
//!    and reinsertion in the same frame.
//! 2. Invariance: the same edits give the same events translated by a whole number of units,
//!    after `shift_origin`, after a snapshot round trip (through JSON with the `serde`
//!    feature) taken at any point, with each broad phase, and on 1, 2 and 4 threads.
//! 3. Queries read the colliders as they are now (edits apply at once; no update needed):
//!    point, box, ray and shape-cast queries right after edits agree with brute force over
//!    the model. Contacts, `contacts_of` and `is_touching` read the last update, less the pairs
//!    of colliders removed or disabled since.
//! 4. Refused input (stale handles, non-finite or out-of-range transforms and offsets, shapes
//!    whose box leaves the coordinate range, unknown layers, bad origins) returns an error and
//!    leaves the world exactly as it was: the same snapshot, and the same events afterwards.
//!
//! Positions are whole multiples of 1/64 within ±6 units, and translations whole numbers of
//! units, so every translated position is exact and the narrow phase sees the same relative
//! placements.

use crate::support;

use collide2d::query::CastOptions;
use collide2d::shape::{Aabb, Capsule, Circle, Polygon, Ray, Shape};
use collide2d::world::{
    BroadPhaseKind, Collider, ColliderHandle, CollisionEvent, CollisionGroups, EndReason, LayerId,
    OneWay, QueryFilter, World, WorldError,
};
use collide2d::{Sweep, Transform, Vec2};
use std::collections::{BTreeMap, BTreeSet};
use support::threads::on_threads;
use support::Rng;

type Pair = (ColliderHandle, ColliderHandle);

/// One edit (or an update) of a sweep, replayable on another world: handles are the same in
/// every world that went through the same edits, since slots are handed out the same way.
#[derive(Clone, Debug)]
enum Op {
    Insert(Collider),
    Remove(ColliderHandle),
    /// Removed and a new collider inserted before the next update (it takes the freed slot).
    RemoveInsert(ColliderHandle, Collider),
    Move(ColliderHandle, Transform),
    Moves(Vec<(ColliderHandle, Transform)>),
    /// Moved far away and back to this transform in one frame.
    FarAndBack(ColliderHandle, Transform),
    Shape(ColliderHandle, Shape),
    Offset(ColliderHandle, Transform),
    Layer(ColliderHandle, LayerId),
    Matrix(LayerId, LayerId, bool),
    Groups(ColliderHandle, CollisionGroups),
    Sensor(ColliderHandle, bool),
    Enabled(ColliderHandle, bool),
    /// Enabled set to the other value and back in one frame.
    Toggle(ColliderHandle),
    /// Several inserted at once (`insert_many`, freed slots first).
    InsertMany(Vec<Collider>),
    /// Several removed at once (`remove_many`).
    RemoveMany(Vec<ColliderHandle>),
    OneWay(ColliderHandle, Option<OneWay>),
    UserData(ColliderHandle, u64),
    Update,
}

/// A position on the 1/64 grid within ±6.
fn grid_point(rng: &mut Rng) -> Vec2 {
    let q = |rng: &mut Rng| (rng.below(12 * 64 + 1) as f32 - 6.0 * 64.0) / 64.0;
    Vec2::new(q(rng), q(rng))
}

/// A random placement; with `aligned`, on the 1/4 grid and turned by a multiple of a
/// quarter turn (exactly), so that boxes and circles often touch exactly.
fn grid_transform(rng: &mut Rng, aligned: bool) -> Transform {
    if aligned {
        let q = |rng: &mut Rng| (rng.below(49) as f32 - 24.0) / 4.0;
        let (c, s) = [(1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0)][rng.below(4)];
        return Transform {
            p: Vec2::new(q(rng), q(rng)),
            q: collide2d::Rot { c, s },
        };
    }
    Transform::new(grid_point(rng), rng.angle())
}

fn random_shape(rng: &mut Rng, aligned: bool) -> Shape {
    if aligned {
        let size = |rng: &mut Rng| (1 + rng.below(8)) as f32 / 4.0;
        return match rng.below(3) {
            0 => Shape::from(Circle::with_radius(size(rng) / 2.0).unwrap()),
            1 => Shape::from(Polygon::rect(size(rng), size(rng)).unwrap()),
            _ => Shape::from(
                Capsule::new(Vec2::ZERO, Vec2::new(size(rng), 0.0), size(rng) / 4.0).unwrap(),
            ),
        };
    }
    match rng.below(4) {
        0 => Shape::from(Circle::with_radius(rng.range(0.2, 1.0)).unwrap()),
        1 => Shape::from(Polygon::rect(rng.range(0.3, 2.0), rng.range(0.3, 2.0)).unwrap()),
        2 => Shape::from(Polygon::regular(3 + rng.below(5), rng.range(0.3, 1.0)).unwrap()),
        _ => Shape::from(
            Capsule::new(
                Vec2::ZERO,
                Vec2::new(rng.range(0.2, 1.5), 0.0),
                rng.range(0.1, 0.5),
            )
            .unwrap(),
        ),
    }
}

fn random_groups(rng: &mut Rng) -> CollisionGroups {
    if rng.below(3) == 0 {
        CollisionGroups::ALL
    } else {
        CollisionGroups::new(1 << rng.below(3), 0b101 | (1 << rng.below(3)))
    }
}

fn random_collider(rng: &mut Rng, layers: &[LayerId], data: u64, aligned: bool) -> Collider {
    let mut collider = Collider::new(random_shape(rng, aligned))
        .with_transform(grid_transform(rng, aligned))
        .with_layer(layers[rng.below(layers.len())])
        .with_sensor(rng.below(6) == 0)
        .with_enabled(rng.below(10) != 0)
        .with_user_data(data);
    if !aligned && rng.below(5) == 0 {
        collider = collider.with_offset(Transform::new(grid_point(rng) / 8.0, rng.angle()));
    }
    if rng.below(6) == 0 {
        collider = collider.with_groups(random_groups(rng));
    }
    collider
}

/// `collider` with another shape and one-way setting, everything else kept.
fn rebuilt(collider: &Collider, shape: Shape, one_way: Option<OneWay>) -> Collider {
    let rebuilt = Collider::new(shape)
        .with_transform(collider.transform())
        .with_offset(collider.offset())
        .with_layer(collider.layer())
        .with_sensor(collider.is_sensor())
        .with_enabled(collider.is_enabled())
        .with_user_data(collider.user_data())
        .with_groups(collider.groups());
    match one_way {
        Some(w) => rebuilt.with_one_way(w.direction, w.margin),
        None => rebuilt,
    }
}

fn shifted(xf: Transform, by: Vec2) -> Transform {
    Transform { p: xf.p + by, ..xf }
}

/// Applies `op` to `world` with every object position moved by `by`; returns the handles
/// inserted, in the order of the op's colliders.
fn apply(world: &mut World, op: &Op, by: Vec2) -> Result<Vec<ColliderHandle>, WorldError> {
    let at = |c: &Collider| c.clone().with_transform(shifted(c.transform(), by));
    match op {
        Op::Insert(c) => return world.insert(at(c)).map(|h| vec![h]),
        Op::Remove(h) => world.remove(*h).map(|_| ()),
        Op::RemoveInsert(h, c) => {
            world.remove(*h)?;
            return world.insert(at(c)).map(|h| vec![h]);
        }
        Op::InsertMany(colliders) => return world.insert_many(colliders.iter().map(at)),
        Op::RemoveMany(handles) => world.remove_many(handles).map(|_| ()),
        Op::OneWay(h, one_way) => world.set_one_way(*h, *one_way),
        Op::UserData(h, data) => world.set_user_data(*h, *data),
        Op::Move(h, xf) => world.set_transform(*h, shifted(*xf, by)),
        Op::Moves(moves) => {
            let moves: Vec<_> = moves.iter().map(|&(h, xf)| (h, shifted(xf, by))).collect();
            world.set_transforms(&moves)
        }
        Op::FarAndBack(h, xf) => {
            let far = Transform::new(Vec2::new(4096.0, -2048.0) + by, 0.5);
            world.set_transform(*h, far)?;
            world.set_transform(*h, shifted(*xf, by))
        }
        Op::Shape(h, s) => world.set_shape(*h, s.clone()),
        Op::Offset(h, o) => world.set_offset(*h, *o),
        Op::Layer(h, l) => world.set_layer(*h, *l),
        Op::Matrix(a, b, on) => {
            if *on {
                world.layers_mut().enable(*a, *b);
            } else {
                world.layers_mut().disable(*a, *b);
            }
            Ok(())
        }
        Op::Groups(h, g) => world.set_groups(*h, *g),
        Op::Sensor(h, s) => world.set_sensor(*h, *s),
        Op::Enabled(h, e) => world.set_enabled(*h, *e),
        Op::Toggle(h) => {
            let enabled = world.get(*h)?.is_enabled();
            world.set_enabled(*h, !enabled)?;
            world.set_enabled(*h, enabled)
        }
        Op::Update => {
            world.update();
            Ok(())
        }
    }
    .map(|()| Vec::new())
}

/// An event without its manifold or time of impact: what must agree between worlds whose
/// positions differ (manifolds hold world points).
fn signature(event: &CollisionEvent) -> String {
    let (a, b) = event.pair();
    let kind = match event {
        CollisionEvent::Begin { .. } => "begin",
        CollisionEvent::Stay { .. } => "stay",
        CollisionEvent::End { .. } => "end",
    };
    format!(
        "{kind} {}/{} {}/{} {:?} {} {:?}",
        a.index(),
        a.generation(),
        b.index(),
        b.generation(),
        event.end_reason(),
        event.is_sensor(),
        event.user_data()
    )
}

/// The model: what each live collider is, and what happened to each since the last update.
#[derive(Default)]
struct Model {
    colliders: BTreeMap<ColliderHandle, Collider>,
    /// Pairs open (`Begin` seen, no `End` yet).
    open: BTreeSet<Pair>,
    /// Whether each open pair began as a sensor pair.
    kinds: BTreeMap<Pair, bool>,
    /// Why each open pair must end if it ends at the next update, by its first cause since
    /// the last update (removal or disabling; a removal after a disabling makes it a
    /// removal); `None` where either reason is right (disabled and enabled again).
    detached: BTreeMap<Pair, Option<EndReason>>,
    /// User data of every collider ever inserted (kept after removal).
    data: BTreeMap<ColliderHandle, u64>,
    removed: Vec<ColliderHandle>,
}

impl Model {
    fn detach(&mut self, h: ColliderHandle, reason: EndReason) {
        let pairs: Vec<Pair> = self
            .open
            .iter()
            .filter(|p| p.0 == h || p.1 == h)
            .copied()
            .collect();
        for pair in pairs {
            self.detached.entry(pair).or_insert(Some(reason));
        }
    }

    fn set_enabled(&mut self, h: ColliderHandle, enabled: bool) {
        let was = self.colliders[&h].is_enabled();
        if was && !enabled {
            self.detach(h, EndReason::Disabled);
        }
        if !was && enabled {
            for (pair, reason) in self.detached.iter_mut() {
                if (pair.0 == h || pair.1 == h) && *reason == Some(EndReason::Disabled) {
                    *reason = None;
                }
            }
        }
        let c = self.colliders.get_mut(&h).unwrap();
        *c = c.clone().with_enabled(enabled);
    }

    fn remove(&mut self, h: ColliderHandle) {
        // Every open pair of a removed collider ends as a removal, also one that its disabling
        // detached since the last update: the `End` says the collider is gone.
        for &pair in &self.open {
            if pair.0 == h || pair.1 == h {
                self.detached.insert(pair, Some(EndReason::Removed));
            }
        }
        self.colliders.remove(&h);
        self.removed.push(h);
    }

    fn edit(&mut self, h: ColliderHandle, f: impl FnOnce(Collider) -> Collider) {
        let c = self.colliders.get_mut(&h).unwrap();
        *c = f(c.clone());
    }

    /// Applies a successful edit (not an update) to the model; `inserted` is the handle an
    /// insertion got.
    fn apply(&mut self, op: &Op, inserted: &[ColliderHandle]) {
        let insert = |model: &mut Model, colliders: &[Collider]| {
            assert_eq!(colliders.len(), inserted.len());
            for (c, &h) in colliders.iter().zip(inserted) {
                model.data.insert(h, c.user_data());
                model.colliders.insert(h, c.clone());
            }
        };
        match op {
            Op::Insert(c) => insert(self, std::slice::from_ref(c)),
            Op::InsertMany(colliders) => insert(self, colliders),
            Op::Remove(h) => self.remove(*h),
            Op::RemoveMany(handles) => {
                for h in handles {
                    self.remove(*h);
                }
            }
            Op::RemoveInsert(h, c) => {
                self.remove(*h);
                insert(self, std::slice::from_ref(c));
            }
            Op::UserData(h, data) => {
                self.data.insert(*h, *data);
                self.edit(*h, |c| c.with_user_data(*data));
            }
            Op::OneWay(h, w) => self.edit(*h, |c| rebuilt(&c, c.shape().clone(), *w)),
            Op::Move(h, xf) | Op::FarAndBack(h, xf) => self.edit(*h, |c| c.with_transform(*xf)),
            Op::Moves(moves) => {
                for &(h, xf) in moves {
                    self.edit(h, |c| c.with_transform(xf));
                }
            }
            Op::Shape(h, s) => self.edit(*h, |c| rebuilt(&c, s.clone(), c.one_way())),
            Op::Offset(h, o) => self.edit(*h, |c| c.with_offset(*o)),
            Op::Layer(h, l) => self.edit(*h, |c| c.with_layer(*l)),
            Op::Groups(h, g) => self.edit(*h, |c| c.with_groups(*g)),
            Op::Sensor(h, s) => self.edit(*h, |c| c.with_sensor(*s)),
            Op::Enabled(h, e) => self.set_enabled(*h, *e),
            Op::Toggle(h) => {
                let e = self.colliders[h].is_enabled();
                self.set_enabled(*h, !e);
                self.set_enabled(*h, e);
            }
            Op::Matrix(..) | Op::Update => {}
        }
    }

    /// The pairs that touch now, by brute force.
    fn reference(&self, world: &World) -> BTreeSet<Pair> {
        let live: Vec<_> = self
            .colliders
            .iter()
            .filter(|(_, c)| c.is_enabled())
            .collect();
        let mut pairs = BTreeSet::new();
        for i in 0..live.len() {
            for j in i + 1..live.len() {
                if support::touches(world, live[i].1, live[j].1) {
                    pairs.insert((*live[i].0, *live[j].0));
                }
            }
        }
        pairs
    }

    /// The contacts the world lists between updates: the open pairs less detached ones.
    fn contacts(&self) -> BTreeSet<Pair> {
        self.open
            .iter()
            .filter(|p| !self.detached.contains_key(p))
            .copied()
            .collect()
    }

    /// Checks an update's events against the model and the brute-force reference, and moves
    /// the model past the update. Returns the first rule broken.
    fn check_update(&mut self, world: &World, report_stay: bool) -> Result<(), String> {
        let events = world.events();
        let now = self.reference(world);
        let mut seen = BTreeSet::new();
        let mut open = self.open.clone();
        // The pair whose `Begin` must come next: it changed kind, and its `End` came first.
        let mut begins_next: Option<Pair> = None;
        for event in events {
            let pair = event.pair();
            let begins_again = match begins_next.take() {
                Some(changed)
                    if changed != pair || !matches!(event, CollisionEvent::Begin { .. }) =>
                {
                    return Err(format!(
                        "{changed:?} changed kind and its Begin does not follow its End: {event:?}"
                    ));
                }
                changed => changed.is_some(),
            };
            if pair.0 >= pair.1 || (!seen.insert(pair) && !begins_again) {
                return Err(format!("pair out of order or twice: {event:?}"));
            }
            let live = |h: ColliderHandle| self.colliders.get(&h).is_some_and(|c| c.is_enabled());
            // Whether the pair is a sensor pair now.
            let sensor_now = |pair: Pair| {
                [pair.0, pair.1]
                    .iter()
                    .any(|h| self.colliders.get(h).is_some_and(|c| c.is_sensor()))
            };
            match event {
                CollisionEvent::Begin { .. } | CollisionEvent::Stay { .. } => {
                    if !live(pair.0) || !live(pair.1) {
                        return Err(format!(
                            "event names a gone or disabled collider: {event:?}"
                        ));
                    }
                    let begin = matches!(event, CollisionEvent::Begin { .. });
                    if begin == open.contains(&pair) {
                        return Err(format!(
                            "begin of an open pair or stay of a closed one: {event:?}"
                        ));
                    }
                    if event.is_sensor() != sensor_now(pair) {
                        return Err(format!("wrong kind (sensor or solid): {event:?}"));
                    }
                    if begin {
                        self.kinds.insert(pair, event.is_sensor());
                    }
                    if begin && self.detached.contains_key(&pair) {
                        return Err(format!("detached pair begins again: {event:?}"));
                    }
                    if begin && event.user_data() != Some([self.data[&pair.0], self.data[&pair.1]])
                    {
                        return Err(format!(
                            "wrong user data: {event:?}, expected {:?}",
                            [self.data[&pair.0], self.data[&pair.1]]
                        ));
                    }
                    open.insert(pair);
                }
                CollisionEvent::End { reason, .. } => {
                    if !open.contains(&pair) {
                        return Err(format!("end of a pair never begun: {event:?}"));
                    }
                    let began_as_sensor = self.kinds.remove(&pair);
                    if began_as_sensor != Some(event.is_sensor()) {
                        return Err(format!(
                            "End's sensor flag differs from its Begin's ({began_as_sensor:?}): {event:?}"
                        ));
                    }
                    let kind_changed = now.contains(&pair) && sensor_now(pair) != event.is_sensor();
                    let expected = match self.detached.get(&pair) {
                        Some(Some(reason)) => Some(*reason),
                        Some(None) => None,
                        None if kind_changed => Some(EndReason::SensorChanged),
                        None => Some(support::reason_they_stop(
                            world,
                            &self.colliders[&pair.0],
                            &self.colliders[&pair.1],
                        )),
                    };
                    if *reason == EndReason::SensorChanged {
                        if !kind_changed {
                            return Err(format!("ends for a kind it did not change: {event:?}"));
                        }
                        begins_next = Some(pair);
                    }
                    if expected.is_some_and(|e| e != *reason) {
                        return Err(format!(
                            "end reason {reason:?}, expected {expected:?}: {event:?}"
                        ));
                    }
                    if event.user_data() != Some([self.data[&pair.0], self.data[&pair.1]]) {
                        return Err(format!(
                            "wrong user data: {event:?}, expected {:?}",
                            [self.data[&pair.0], self.data[&pair.1]]
                        ));
                    }
                    open.remove(&pair);
                }
            }
        }
        if let Some(pair) = begins_next {
            return Err(format!("{pair:?} changed kind and does not begin"));
        }
        if report_stay {
            let reported: BTreeSet<Pair> = events
                .iter()
                .filter(|e| !matches!(e, CollisionEvent::End { .. }))
                .map(|e| e.pair())
                .collect();
            if reported != open {
                return Err("a touching pair without its Stay".into());
            }
        }
        if open != now {
            let missing: Vec<_> = now.difference(&open).collect();
            let extra: Vec<_> = open.difference(&now).collect();
            return Err(format!(
                "touching pairs differ from brute force: missing {missing:?}, extra {extra:?}"
            ));
        }
        let began: Vec<_> = events
            .iter()
            .filter(|e| matches!(e, CollisionEvent::Begin { .. }))
            .copied()
            .collect();
        let ended: Vec<_> = events
            .iter()
            .filter(|e| matches!(e, CollisionEvent::End { .. }))
            .copied()
            .collect();
        if world.began() != began || world.ended() != ended {
            return Err("began()/ended() differ from events()".into());
        }
        self.open = open;
        self.detached.clear();
        Ok(())
    }

    /// Checks contacts, `contacts_of` and `is_touching` (as of the last update, less detached
    /// pairs) and the queries (as of now) against brute force.
    fn check_queries(&self, world: &World, rng: &mut Rng) -> Result<(), String> {
        let expected = self.contacts();
        let listed: BTreeSet<Pair> = world.contacts().map(|(a, b, _)| (a, b)).collect();
        if listed != expected {
            return Err(format!("contacts {listed:?}, expected {expected:?}"));
        }
        let handles: Vec<ColliderHandle> = self
            .colliders
            .keys()
            .chain(&self.removed)
            .copied()
            .collect();
        for h in handles {
            let of: Vec<Pair> = world.contacts_of(h).map(|(a, b, _)| (a, b)).collect();
            let want: Vec<Pair> = expected
                .iter()
                .filter(|p| p.0 == h || p.1 == h)
                .copied()
                .collect();
            if of != want {
                return Err(format!("contacts_of({h:?}) {of:?}, expected {want:?}"));
            }
            if world.is_touching(h) == want.is_empty() {
                return Err(format!("is_touching({h:?}) disagrees with {want:?}"));
            }
        }
        // One-way colliders answer rays and casts by their side (tested elsewhere): skipped.
        let filter = QueryFilter::new().with_skip_one_way(true);
        let solid: Vec<(ColliderHandle, &Collider)> = self
            .colliders
            .iter()
            .filter(|(_, c)| c.is_enabled() && !c.is_sensor() && c.one_way().is_none())
            .map(|(h, c)| (*h, c))
            .collect();
        for _ in 0..4 {
            let point = rng.point(7.0);
            let found = world.overlap_point(point, &filter).unwrap();
            let want: Vec<_> = solid
                .iter()
                .filter(|(_, c)| c.shape().contains(&c.world_transform(), point))
                .map(|(h, _)| *h)
                .collect();
            if found != want {
                return Err(format!(
                    "overlap_point {point:?}: {found:?}, expected {want:?}"
                ));
            }
            let corner = rng.point(7.0);
            let aabb = Aabb {
                min: corner,
                max: corner + Vec2::new(rng.range(0.0, 3.0), rng.range(0.0, 3.0)),
            };
            let found = world.overlap_aabb(aabb, &filter).unwrap();
            let want: Vec<_> = solid
                .iter()
                .filter(|(_, c)| c.aabb().overlaps(&aabb))
                .map(|(h, _)| *h)
                .collect();
            if found != want {
                return Err(format!(
                    "overlap_aabb {aabb:?}: {found:?}, expected {want:?}"
                ));
            }
            let ray = Ray {
                origin: rng.point(8.0),
                direction: Vec2::from_angle(rng.angle()),
                max_distance: rng.range(0.5, 16.0),
            };
            let hits: Vec<_> = world
                .ray_cast_all(&ray, &filter)
                .unwrap()
                .iter()
                .map(|hit| (hit.collider, hit.distance))
                .collect();
            let mut want: Vec<_> = solid
                .iter()
                .filter_map(|(h, c)| {
                    c.shape()
                        .ray_cast(&c.world_transform(), &ray)
                        .map(|hit| (*h, hit.distance))
                })
                .collect();
            want.sort_by(|x, y| x.1.total_cmp(&y.1).then(x.0.cmp(&y.0)));
            if hits != want {
                return Err(format!("ray_cast_all {ray:?}: {hits:?}, expected {want:?}"));
            }
            let nearest = world
                .ray_cast(&ray, &filter)
                .unwrap()
                .map(|hit| hit.collider);
            if nearest != want.first().map(|w| w.0) {
                return Err(format!("ray_cast {ray:?}: {nearest:?}, expected {want:?}"));
            }
            // A small circle cast: the nearest hit over every collider.
            let probe = Shape::from(Circle::with_radius(0.25).unwrap());
            let start = Transform::new(rng.point(8.0), 0.0);
            let delta = rng.point(6.0);
            let cast = world
                .shape_cast(&probe, &start, delta, &filter, CastOptions::default())
                .unwrap()
                .map(|hit| (hit.fraction, hit.collider));
            let sweep = Sweep::linear(&start, delta);
            let want = solid
                .iter()
                .filter_map(|(h, c)| {
                    let still = Sweep::linear(&c.world_transform(), Vec2::ZERO);
                    collide2d::shape_cast(&probe, &sweep, c.shape(), &still, CastOptions::default())
                        .map(|hit| (hit.t, *h))
                })
                .min_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
            if cast.map(|c| c.0) != want.map(|w| w.0) {
                return Err(format!(
                    "shape_cast from {start:?} by {delta:?}: {cast:?}, expected {want:?}"
                ));
            }
        }
        Ok(())
    }
}

/// Makes a world of `kind` with the sweep's four layers.
fn new_world(kind: BroadPhaseKind) -> (World, Vec<LayerId>) {
    let mut world = World::with_broad_phase(kind).unwrap();
    let mut layers = vec![LayerId::DEFAULT];
    for name in ["Player", "Monster", "Bullet"] {
        layers.push(world.layers_mut().add(name).unwrap());
    }
    (world, layers)
}

/// A random edit of the model's colliders (or an update, a quarter of the time).
fn random_op(rng: &mut Rng, model: &Model, layers: &[LayerId], step: u64, aligned: bool) -> Op {
    let handles: Vec<ColliderHandle> = model.colliders.keys().copied().collect();
    if rng.below(4) == 0 {
        return Op::Update;
    }
    if handles.is_empty() || (handles.len() < 24 && rng.below(5) == 0) {
        return Op::Insert(random_collider(rng, layers, step * 8, aligned));
    }
    let h = handles[rng.below(handles.len())];
    match rng.below(18) {
        17 => Op::UserData(h, 1_000_000 + step),
        14 => Op::InsertMany(
            (0..1 + rng.below(4))
                .map(|i| random_collider(rng, layers, step * 8 + i as u64, aligned))
                .collect(),
        ),
        15 => {
            let mut picked: Vec<ColliderHandle> = handles.clone();
            picked.retain(|_| rng.below(4) == 0);
            Op::RemoveMany(picked)
        }
        16 => Op::OneWay(
            h,
            (rng.below(3) != 0).then(|| OneWay {
                direction: Vec2::from_angle(rng.angle()),
                margin: rng.range(0.0, 0.5),
            }),
        ),
        0 => Op::Remove(h),
        1 => Op::RemoveInsert(h, random_collider(rng, layers, step * 8, aligned)),
        2 | 3 => Op::Move(h, grid_transform(rng, aligned)),
        4 => Op::Moves(
            (0..1 + rng.below(4))
                .map(|_| {
                    (
                        handles[rng.below(handles.len())],
                        grid_transform(rng, aligned),
                    )
                })
                .collect(),
        ),
        5 => Op::FarAndBack(h, model.colliders[&h].transform()),
        6 => Op::Shape(h, random_shape(rng, aligned)),
        7 => Op::Offset(h, Transform::new(grid_point(rng) / 8.0, rng.angle())),
        8 => Op::Layer(h, layers[rng.below(layers.len())]),
        9 => Op::Matrix(
            layers[rng.below(layers.len())],
            layers[rng.below(layers.len())],
            rng.below(2) == 0,
        ),
        10 => Op::Groups(h, random_groups(rng)),
        11 => Op::Sensor(h, rng.below(2) == 0),
        12 => Op::Enabled(h, rng.below(2) == 0),
        _ => Op::Toggle(h),
    }
}

/// Refused input: each call must fail and leave the world as it was. Returns the first one
/// that changed the world or was accepted.
fn check_refusals(world: &mut World, model: &Model, rng: &mut Rng) -> Result<usize, String> {
    let before = world.snapshot();
    let live: Vec<ColliderHandle> = model.colliders.keys().copied().collect();
    let nan = Transform::new(Vec2::new(f32::NAN, 0.0), 0.0);
    let far = Transform::new(Vec2::new(2.0e9, 0.0), 0.0);
    let skew = Transform {
        p: Vec2::ZERO,
        q: collide2d::Rot { c: 3.0, s: 0.0 },
    };
    let huge = Shape::from(Circle::with_radius(1.0).unwrap());
    let mut attempts: Vec<(String, Result<(), WorldError>)> = Vec::new();
    let mut attempt = |what: &str, result: Result<(), WorldError>| {
        attempts.push((what.to_string(), result));
    };
    if let Some(&stale) = model.removed.last() {
        attempt(
            "stale set_transform",
            world.set_transform(stale, Transform::IDENTITY),
        );
        attempt("stale remove", world.remove(stale).map(|_| ()));
        attempt("stale set_shape", world.set_shape(stale, huge.clone()));
        attempt("stale set_enabled", world.set_enabled(stale, false));
        attempt("stale set_layer", world.set_layer(stale, LayerId::DEFAULT));
        attempt("stale set_sensor", world.set_sensor(stale, true));
        attempt(
            "stale set_groups",
            world.set_groups(stale, CollisionGroups::ALL),
        );
        attempt(
            "stale set_offset",
            world.set_offset(stale, Transform::IDENTITY),
        );
        attempt("stale set_user_data", world.set_user_data(stale, 99));
        if let Some(&h) = live.first() {
            attempt(
                "batch with a stale handle",
                world.set_transforms(&[(h, Transform::IDENTITY), (stale, Transform::IDENTITY)]),
            );
            attempt(
                "remove_many with a stale handle",
                world.remove_many(&[h, stale]).map(|_| ()),
            );
        }
    }
    if !live.is_empty() {
        let h = live[rng.below(live.len())];
        attempt("NaN transform", world.set_transform(h, nan));
        attempt("far transform", world.set_transform(h, far));
        attempt("skewed rotation", world.set_transform(h, skew));
        attempt("NaN offset", world.set_offset(h, nan));
        attempt("far offset", world.set_offset(h, far));
        attempt(
            "batch with NaN",
            world.set_transforms(&[(h, Transform::IDENTITY), (h, nan)]),
        );
        attempt(
            "remove_many naming one twice",
            world.remove_many(&[h, h]).map(|_| ()),
        );
        attempt(
            "unknown layer",
            world.set_layer(h, LayerId::new(17).unwrap()),
        );
    }
    attempt(
        "insert NaN",
        world
            .insert(Collider::circle(1.0).unwrap().with_transform(nan))
            .map(|_| ()),
    );
    attempt(
        "insert past the range",
        world
            .insert(
                Collider::circle(1.0)
                    .unwrap()
                    .with_position(Vec2::new(0.0, -2.0e9)),
            )
            .map(|_| ()),
    );
    attempt("NaN origin", world.shift_origin(Vec2::new(f32::NAN, 1.0)));
    if !live.is_empty() {
        attempt(
            "origin out of range",
            world.shift_origin(Vec2::new(-1.5e9, 0.0)),
        );
    }
    let count = attempts.len();
    for (what, result) in attempts {
        if result.is_ok() {
            return Err(format!("{what} accepted"));
        }
    }
    if world.snapshot() != before {
        return Err("a refused call changed the world".into());
    }
    Ok(count)
}

/// A world restored from `world`'s snapshot (through JSON with the `serde` feature).
fn round_trip(world: &World) -> World {
    let snapshot = world.snapshot();
    #[cfg(feature = "serde")]
    let snapshot: collide2d::world::WorldSnapshot =
        serde_json::from_str(&serde_json::to_string(&snapshot).unwrap()).unwrap();
    World::restore(snapshot).unwrap()
}

/// One recorded sweep: its edits and, per update, the events' signatures and full events.
struct Recording {
    ops: Vec<Op>,
    events: Vec<Vec<CollisionEvent>>,
    /// Counts of the checks made, for the report.
    refusals: usize,
    updates: usize,
}

/// Runs a random sweep on a world of `kind`, checking the event algebra, the model, the
/// queries and refused input; returns the edits and events, or the first failure.
fn record(seed: u64, kind: BroadPhaseKind, steps: usize) -> Result<Recording, String> {
    let mut rng = Rng(seed);
    let (mut world, layers) = new_world(kind);
    let mut model = Model::default();
    let mut recording = Recording {
        ops: Vec::new(),
        events: Vec::new(),
        refusals: 0,
        updates: 0,
    };
    for step in 0..steps {
        let op = random_op(&mut rng, &model, &layers, step as u64 + 1, seed % 2 == 1);
        let inserted =
            apply(&mut world, &op, Vec2::ZERO).map_err(|e| format!("step {step} {op:?}: {e}"))?;
        model.apply(&op, &inserted);
        for &h in &inserted {
            if model.removed.iter().any(|r| r.index() == h.index())
                && world.contacts_of(h).next().is_some()
            {
                return Err(format!(
                    "step {step}: {h:?} in a reused slot inherits contacts"
                ));
            }
        }
        let fail =
            |what: String| format!("seed {seed} step {step} ({kind:?}) after {op:?}: {what}");
        if matches!(op, Op::Update) {
            model.check_update(&world, true).map_err(fail)?;
            recording.events.push(world.events().to_vec());
            recording.updates += 1;
        }
        if rng.below(3) == 0 {
            model.check_queries(&world, &mut rng).map_err(fail)?;
        }
        if rng.below(8) == 0 {
            recording.refusals += check_refusals(&mut world, &model, &mut rng).map_err(fail)?;
        }
        recording.ops.push(op);
    }
    world.update();
    model
        .check_update(&world, true)
        .map_err(|e| format!("seed {seed} last update: {e}"))?;
    recording.events.push(world.events().to_vec());
    recording.ops.push(Op::Update);
    Ok(recording)
}

/// The events of replaying `ops` on a fresh world of `kind` with positions moved by `by`;
/// `edit(world, position)` may change the world (restore it, shift its origin) before the
/// op at `position`.
fn replay(
    ops: &[Op],
    kind: BroadPhaseKind,
    by: Vec2,
    mut edit: impl FnMut(&mut World, usize),
) -> Vec<Vec<CollisionEvent>> {
    let (mut world, _) = new_world(kind);
    let mut events = Vec::new();
    for (position, op) in ops.iter().enumerate() {
        edit(&mut world, position);
        apply(&mut world, op, by).unwrap();
        if matches!(op, Op::Update) {
            events.push(world.events().to_vec());
        }
    }
    events
}

fn signatures(events: &[Vec<CollisionEvent>]) -> Vec<Vec<String>> {
    events
        .iter()
        .map(|frame| frame.iter().map(signature).collect())
        .collect()
}

/// The first frame where two event streams differ.
fn first_difference<T: PartialEq + std::fmt::Debug>(a: &[Vec<T>], b: &[Vec<T>]) -> Option<String> {
    if a.len() != b.len() {
        return Some(format!("{} frames against {}", a.len(), b.len()));
    }
    a.iter()
        .zip(b)
        .position(|(x, y)| x != y)
        .map(|frame| format!("frame {frame}: {:?}\nagainst {:?}", a[frame], b[frame]))
}

const KINDS: [BroadPhaseKind; 3] = [
    BroadPhaseKind::Tree,
    BroadPhaseKind::Grid { cell_size: 1.5 },
    BroadPhaseKind::SweepAndPrune,
];

const SEEDS: u64 = 32;
const STEPS: usize = 400;

/// Class 1, 3 and 4: event algebra, queries right after edits and refused input, in every
/// broad phase.
#[test]
fn every_edit_keeps_the_event_algebra_the_queries_and_refusals() {
    let mut failures = Vec::new();
    let (mut updates, mut refusals) = (0, 0);
    for kind in KINDS {
        for seed in 0..SEEDS {
            match record(0x1a4_0000 + seed, kind, STEPS) {
                Ok(recording) => {
                    updates += recording.updates;
                    refusals += recording.refusals;
                }
                Err(failure) => failures.push(failure),
            }
        }
    }
    eprintln!(
        "{} sweeps, {updates} updates checked, {refusals} refused calls",
        3 * SEEDS
    );
    support::assert_no_failures(&failures, 3 * SEEDS as usize, 3);
}

/// Class 2: translated worlds, origin shifts, snapshot round trips, other broad phases and
/// thread counts replay the same edits into the same events.
#[test]
fn the_same_edits_give_the_same_events_however_the_world_is_held() {
    let mut failures = Vec::new();
    let mut cases = 0;
    for seed in 0..SEEDS {
        let recording = match record(0x2a4_0000 + seed, BroadPhaseKind::Tree, STEPS) {
            Ok(recording) => recording,
            Err(failure) => {
                failures.push(failure);
                continue;
            }
        };
        let ops = &recording.ops;
        let base = &recording.events;
        let mut compare = |what: String, other: Vec<Vec<CollisionEvent>>, exact: bool| {
            cases += 1;
            let difference = if exact {
                first_difference(base, &other)
            } else {
                first_difference(&signatures(base), &signatures(&other))
            };
            if let Some(difference) = difference {
                failures.push(format!("seed {seed}, {what}: {difference}"));
            }
        };
        let mut rng = Rng(seed);
        for by in [Vec2::new(1024.0, -512.0), Vec2::new(-3.0, 7.0)] {
            compare(
                format!("translated by {by:?}"),
                replay(ops, BroadPhaseKind::Tree, by, |_, _| {}),
                false,
            );
        }
        // Origin shifts at random points: the positions in later edits move with the origin.
        let shift_at: BTreeSet<usize> = (0..3).map(|_| rng.below(ops.len())).collect();
        let mut origin = Vec2::ZERO;
        let (mut world, _) = new_world(BroadPhaseKind::Tree);
        let mut events = Vec::new();
        for (position, op) in ops.iter().enumerate() {
            if shift_at.contains(&position) {
                let step = Vec2::new(rng.below(64) as f32 - 32.0, rng.below(64) as f32 - 32.0);
                world.shift_origin(step).unwrap();
                origin += step;
            }
            apply(&mut world, op, -origin).unwrap();
            if matches!(op, Op::Update) {
                events.push(world.events().to_vec());
            }
        }
        compare(
            format!("origin shifted before ops {shift_at:?}"),
            events,
            false,
        );
        // Snapshot round trips at random points, mid-frame included.
        let trips: BTreeSet<usize> = (0..4).map(|_| rng.below(ops.len())).collect();
        compare(
            format!("restored before ops {trips:?}"),
            replay(ops, BroadPhaseKind::Tree, Vec2::ZERO, |world, position| {
                if trips.contains(&position) {
                    *world = round_trip(world);
                }
            }),
            true,
        );
        for kind in &KINDS[1..] {
            compare(
                format!("{kind:?}"),
                replay(ops, *kind, Vec2::ZERO, |_, _| {}),
                true,
            );
        }
        for threads in [1, 2, 4] {
            compare(
                format!("{threads} threads"),
                on_threads(threads, || {
                    replay(ops, BroadPhaseKind::Tree, Vec2::ZERO, |_, _| {})
                }),
                true,
            );
        }
    }
    eprintln!("{cases} replays of {SEEDS} sweeps");
    support::assert_no_failures(&failures, cases, 3);
}

/// Class 4, origin shifts: a shift is refused, with the world left exactly as it was, when it
/// would carry any collider's object, placement (an offset reaching further than the object)
/// or box, or a continuous collider's sweep start (where it was at the last update), past the
/// coordinate range; an accepted shift leaves every placement in range and a snapshot that
/// restores. Worlds near the range's edge, with offsets and continuous colliders that moved
/// since their update, shifted by random origins.
#[test]
fn an_origin_shift_is_refused_whole_or_keeps_every_placement_in_range() {
    const EDGE: f32 = 1.0e9;
    let (mut refused, mut accepted, mut failures) = (0, 0, Vec::new());
    for seed in 0..400u64 {
        let mut rng = Rng(0x4a4_0000 + seed);
        let kind = KINDS[seed as usize % 3];
        let (mut world, _) = new_world(kind);
        for _ in 0..1 + rng.below(4) {
            let far = |rng: &mut Rng| Vec2::new(rng.range(-0.9, 0.9), rng.range(-0.9, 0.9)) * EDGE;
            let mut collider = Collider::circle(rng.range(0.5, 2.0))
                .unwrap()
                .with_position(far(&mut rng))
                .with_continuous(rng.below(3) == 0)
                .with_enabled(rng.below(6) != 0);
            if rng.below(2) == 0 {
                let offset = Vec2::new(rng.range(-0.5, 0.5), rng.range(-0.5, 0.5)) * EDGE;
                let candidate = collider.clone().with_offset(Transform::new(offset, 0.0));
                if World::new().insert(candidate.clone()).is_ok() {
                    collider = candidate;
                }
            }
            let Ok(handle) = world.insert(collider) else {
                continue;
            };
            if rng.below(2) == 0 {
                world.update();
                // Moved since the update: a continuous collider's sweep starts where it was.
                let to = Vec2::new(rng.range(-0.3, 0.3), rng.range(-0.3, 0.3)) * EDGE;
                let _ = world.set_transform(handle, Transform::new(to, 0.0));
            }
        }
        let origin = Vec2::new(rng.range(-0.6, 0.6), rng.range(-0.6, 0.6)) * EDGE;
        let before = world.snapshot();
        match world.shift_origin(origin) {
            Err(_) => {
                refused += 1;
                if world.snapshot() != before {
                    failures.push(format!(
                        "seed {seed} ({kind:?}): refused shift by {origin:?} changed the world"
                    ));
                }
            }
            Ok(()) => {
                accepted += 1;
                for (handle, collider) in world.iter() {
                    let placement = collider.world_transform();
                    let aabb = collider.aabb();
                    let inside = |v: Vec2| v.is_finite() && v.abs().max_element() <= EDGE;
                    if !inside(placement.p) || !aabb.min.is_finite() || !aabb.max.is_finite() {
                        failures.push(format!("seed {seed} ({kind:?}): {handle:?} placed out of range at {placement:?} after shift by {origin:?}"));
                    }
                }
                if let Err(e) = World::restore(world.snapshot()) {
                    failures.push(format!("seed {seed} ({kind:?}): after shift by {origin:?} the snapshot does not restore: {e}"));
                }
                world.update();
            }
        }
    }
    eprintln!("{refused} shifts refused, {accepted} accepted");
    assert!(
        refused > 20 && accepted > 20,
        "{refused} refused, {accepted} accepted"
    );
    support::assert_no_failures(&failures, refused + accepted, 3);
}

/// The exact case: an object in range whose offset carries its shape to 1.05e9 after the
/// shift. The shift used to shift the first collider, fail on its box in the new broad phase,
/// and return the error with that collider moved and the second not, the world no longer
/// restorable from its own snapshot.
#[test]
fn an_origin_shift_carrying_an_offset_shape_out_of_range_changes_nothing() {
    for kind in KINDS {
        let (mut world, _) = new_world(kind);
        let offset = Transform::new(Vec2::new(4.5e8, 0.0), 0.0);
        let far = Collider::circle(1.0)
            .unwrap()
            .with_position(Vec2::new(5.0e8, 0.0));
        world.insert(far.with_offset(offset)).unwrap();
        world.insert(Collider::circle(1.0).unwrap()).unwrap();
        world.update();
        let before = world.snapshot();
        assert_eq!(
            world.shift_origin(Vec2::new(-1.0e8, 0.0)),
            Err(WorldError::TransformOutOfRange)
        );
        assert!(world.snapshot() == before, "{kind:?}");
        assert!(World::restore(world.snapshot()).is_ok());
        // A continuous collider's sweep start (where it was at the update) is checked too.
        let mut world = new_world(kind).0;
        let bullet = Collider::circle(1.0).unwrap().with_continuous(true);
        let bullet = world
            .insert(bullet.with_position(Vec2::new(9.0e8, 0.0)))
            .unwrap();
        world.update();
        world.set_transform(bullet, Transform::IDENTITY).unwrap();
        let before = world.snapshot();
        assert_eq!(
            world.shift_origin(Vec2::new(-2.0e8, 0.0)),
            Err(WorldError::TransformOutOfRange)
        );
        assert!(world.snapshot() == before, "{kind:?}");
    }
}

/// The exact case of the user-data class: data set after a pair was detached (its collider
/// disabled, or its partner removed) used to leave the pair's `End` with the data as of the
/// detachment; the `End` carries a live collider's data as of the update that writes it, a
/// removed one's as of its removal.
#[test]
fn an_end_carries_user_data_set_after_its_pair_was_detached() {
    for kind in KINDS {
        let (mut world, _) = new_world(kind);
        let ball = || Collider::circle(0.5).unwrap();
        let a = world.insert(ball().with_user_data(1)).unwrap();
        let b = world
            .insert(ball().with_user_data(2).with_position(Vec2::X * 0.5))
            .unwrap();
        let c = world
            .insert(ball().with_user_data(3).with_position(Vec2::X * 4.0))
            .unwrap();
        let d = world
            .insert(ball().with_user_data(4).with_position(Vec2::X * 4.5))
            .unwrap();
        world.update();
        world.set_enabled(a, false).unwrap();
        world.set_user_data(a, 10).unwrap();
        world.set_user_data(b, 20).unwrap();
        world.remove(c).unwrap();
        world.set_user_data(d, 40).unwrap();
        world.update();
        let ends: Vec<_> = world
            .ended()
            .iter()
            .map(|e| (e.pair(), e.end_reason(), e.user_data()))
            .collect();
        assert_eq!(
            ends,
            [
                ((a, b), Some(EndReason::Disabled), Some([10, 20])),
                ((c, d), Some(EndReason::Removed), Some([3, 40])),
            ],
            "{kind:?}"
        );
    }
}
