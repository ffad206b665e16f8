//! The collision world: colliders, layers, begin/stay/end events, queries and character motion.
//!
//! ```
//! use collide2d::{shape::{Circle, Polygon, Shape}, world::{Collider, CollisionEvent, World}, Transform, Vec2};
//!
//! let mut world = World::new();
//! let player = world.layers_mut().add("Player").unwrap();
//! let monster = world.layers_mut().add("Monster").unwrap();
//! world.layers_mut().disable(monster, monster); // monsters pass through each other
//!
//! let hero = world.insert(Collider::new(Shape::from(Circle::with_radius(0.5)?)).layer(player))?;
//! let slime = world.insert(
//!     Collider::new(Shape::from(Polygon::rect(1.0, 1.0)?))
//!         .layer(monster)
//!         .transform(Transform::new(Vec2::new(3.0, 0.0), 0.0)),
//! )?;
//! assert!(world.update().is_empty());
//!
//! world.set_transform(slime, Transform::new(Vec2::new(0.8, 0.0), 0.0))?;
//! let events = world.update();
//! assert!(matches!(events[0], CollisionEvent::Begin { a, b, .. } if (a, b) == (hero, slime)));
//!
//! world.remove(slime)?;
//! assert!(matches!(world.update()[0], CollisionEvent::End { .. }));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod character;
mod collider;
mod events;
mod handle;
mod layers;
mod queries;

pub use character::{MoveHit, MoveOptions, MoveResult};
pub use collider::{Collider, OneWay};
pub use events::CollisionEvent;
pub use handle::ColliderHandle;
pub use layers::{LayerId, LayerMask, Layers, MAX_LAYERS};
pub use queries::{QueryFilter, WorldCastHit, WorldRayHit};

use crate::broad::{BroadPhase, BroadPhaseError, DynamicTree, HashGrid, ProxyId, SweepAndPrune};
use crate::math::{Transform, Vec2};
use crate::query::{collide, overlaps, Manifold};
use collider::check_transform;
use std::collections::BTreeMap;

/// Why a world call was refused. A refused call leaves the world unchanged.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum WorldError {
    /// The handle names a collider that was removed (or never existed in this world).
    StaleHandle(ColliderHandle),
    /// A transform or offset was not finite, or its rotation was not unit length.
    NonFiniteTransform,
    /// A number was NaN, infinite or out of range (e.g. a move delta or query box).
    InvalidInput(&'static str),
    /// A one-way direction was zero or not finite, or its margin negative.
    InvalidOneWay,
    /// No layer has this name.
    UnknownLayer(String),
    /// The layer id is not one of this world's layers.
    InvalidLayer(LayerId),
    /// A layer with this name exists already.
    DuplicateLayer(String),
    /// Layer names must not be empty.
    EmptyLayerName,
    /// A world has at most [`MAX_LAYERS`] layers.
    TooManyLayers,
    /// The broad phase refused a box.
    BroadPhase(BroadPhaseError),
}

impl std::fmt::Display for WorldError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WorldError::StaleHandle(h) => write!(
                f,
                "collider handle {}:{} is stale (removed or from another world)",
                h.index, h.generation
            ),
            WorldError::NonFiniteTransform => {
                write!(
                    f,
                    "transform is not finite or its rotation is not unit length"
                )
            }
            WorldError::InvalidInput(what) => write!(f, "invalid {what}"),
            WorldError::InvalidOneWay => write!(
                f,
                "one-way direction must be a non-zero finite vector and margin finite and >= 0"
            ),
            WorldError::UnknownLayer(name) => write!(f, "no layer is named `{name}`"),
            WorldError::InvalidLayer(id) => write!(f, "layer {} does not exist", id.index()),
            WorldError::DuplicateLayer(name) => write!(f, "a layer named `{name}` exists already"),
            WorldError::EmptyLayerName => write!(f, "layer names must not be empty"),
            WorldError::TooManyLayers => write!(f, "a world has at most {MAX_LAYERS} layers"),
            WorldError::BroadPhase(e) => write!(f, "broad phase: {e}"),
        }
    }
}

impl std::error::Error for WorldError {}

impl From<BroadPhaseError> for WorldError {
    fn from(e: BroadPhaseError) -> Self {
        WorldError::BroadPhase(e)
    }
}

/// Which broad phase a world uses.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum BroadPhaseKind {
    /// A dynamic AABB tree: good for mixed sizes (the default).
    #[default]
    Tree,
    /// A spatial hash grid with this cell size: good for crowds of similar size.
    Grid {
        /// Cell size in world units.
        cell_size: f32,
    },
    /// Sweep-and-prune on the x axis: good for long, flat levels.
    SweepAndPrune,
}

/// The broad phase behind a world.
enum Broad {
    Tree(DynamicTree),
    Grid(HashGrid),
    Sap(SweepAndPrune),
}

impl Broad {
    fn new(kind: BroadPhaseKind) -> Result<Broad, WorldError> {
        Ok(match kind {
            BroadPhaseKind::Tree => Broad::Tree(DynamicTree::new()),
            BroadPhaseKind::Grid { cell_size } => Broad::Grid(HashGrid::new(cell_size)?),
            BroadPhaseKind::SweepAndPrune => Broad::Sap(SweepAndPrune::new()),
        })
    }

    fn get(&self) -> &dyn BroadPhase {
        match self {
            Broad::Tree(b) => b,
            Broad::Grid(b) => b,
            Broad::Sap(b) => b,
        }
    }

    fn get_mut(&mut self) -> &mut dyn BroadPhase {
        match self {
            Broad::Tree(b) => b,
            Broad::Grid(b) => b,
            Broad::Sap(b) => b,
        }
    }
}

/// A live collider with its broad-phase proxy (none while disabled).
#[derive(Clone, Debug)]
struct Entry {
    collider: Collider,
    proxy: Option<ProxyId>,
    /// Changed since the last update: its pairs need a fresh narrow phase.
    dirty: bool,
    /// The colliders whose boxes overlap this one's, as the broad phase last reported.
    partners: Vec<ColliderHandle>,
}

#[derive(Clone, Debug, Default)]
struct Slot {
    generation: u32,
    entry: Option<Entry>,
}

/// One touching pair remembered between updates (`a < b`).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
struct Contact {
    a: ColliderHandle,
    b: ColliderHandle,
    manifold: Option<Manifold>,
}

/// Time spent in each phase of the last [`World::update`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct UpdateStats {
    /// Broad phase: box updates and pair finding.
    pub broad: std::time::Duration,
    /// Layer filter and narrow phase.
    pub narrow: std::time::Duration,
    /// Comparing with the previous update and building events.
    pub events: std::time::Duration,
    /// Pairs whose boxes overlap.
    pub candidate_pairs: usize,
    /// Pairs that went through the narrow phase (the rest were unchanged or filtered).
    pub narrow_tests: usize,
}

/// Every collider of a game, which layers collide, and who touches whom.
///
/// Call [`update`](World::update) once per frame after moving colliders; it returns the
/// begin/stay/end events in a deterministic order (sorted by handle pair).
pub struct World {
    slots: Vec<Slot>,
    free: Vec<u32>,
    broad: Broad,
    broad_kind: BroadPhaseKind,
    layers: Layers,
    seen_layers_version: u64,
    /// Pairs touching as of the last update (`a < b`), with their manifolds.
    touching: BTreeMap<(ColliderHandle, ColliderHandle), Option<Manifold>>,
    /// Touching pairs whose collider was removed or disabled since: their `End` is due.
    pending_ends: Vec<(ColliderHandle, ColliderHandle)>,
    /// Pairs to re-test at the next update whatever changed (after a restore).
    retest_pending: Vec<(ColliderHandle, ColliderHandle)>,
    events: Vec<CollisionEvent>,
    dirty: Vec<ColliderHandle>,
    report_stay: bool,
    stats: UpdateStats,
    live: usize,
}

impl Default for World {
    fn default() -> Self {
        World::new()
    }
}

impl World {
    /// An empty world with a dynamic-tree broad phase and one layer, `"default"`.
    pub fn new() -> World {
        World::with_broad_phase(BroadPhaseKind::Tree).expect("the tree needs no settings")
    }

    /// An empty world with the chosen broad phase; errors for a bad grid cell size.
    pub fn with_broad_phase(kind: BroadPhaseKind) -> Result<World, WorldError> {
        Ok(World {
            slots: Vec::new(),
            free: Vec::new(),
            broad: Broad::new(kind)?,
            broad_kind: kind,
            layers: Layers::default(),
            seen_layers_version: 0,
            touching: BTreeMap::new(),
            pending_ends: Vec::new(),
            retest_pending: Vec::new(),
            events: Vec::new(),
            dirty: Vec::new(),
            report_stay: true,
            stats: UpdateStats::default(),
            live: 0,
        })
    }

    /// The broad phase in use.
    pub fn broad_phase_kind(&self) -> BroadPhaseKind {
        self.broad_kind
    }

    /// The broad phase itself, for drawing or statistics.
    pub fn broad_phase(&self) -> &dyn BroadPhase {
        self.broad.get()
    }

    /// The layers and their collision matrix.
    pub fn layers(&self) -> &Layers {
        &self.layers
    }

    /// The layers, to add layers or change the matrix; changes apply at the next update.
    pub fn layers_mut(&mut self) -> &mut Layers {
        &mut self.layers
    }

    /// Whether `update` reports `Stay` events (default `true`).
    pub fn set_report_stay(&mut self, report: bool) {
        self.report_stay = report;
    }

    /// Timings and counts of the last update.
    pub fn stats(&self) -> UpdateStats {
        self.stats
    }

    /// How many colliders there are.
    pub fn len(&self) -> usize {
        self.live
    }

    /// Whether there are no colliders.
    pub fn is_empty(&self) -> bool {
        self.live == 0
    }

    /// Adds a collider; errors for non-finite transforms, an unknown layer or a bad one-way
    /// setting.
    pub fn insert(&mut self, mut collider: Collider) -> Result<ColliderHandle, WorldError> {
        collider.validate()?;
        if !self.layers.contains(collider.layer) {
            return Err(WorldError::InvalidLayer(collider.layer));
        }
        let index = match self.free.pop() {
            Some(index) => index,
            None => {
                self.slots.push(Slot::default());
                (self.slots.len() - 1) as u32
            }
        };
        let handle = ColliderHandle {
            index,
            generation: self.slots[index as usize].generation,
        };
        let proxy = if collider.enabled {
            match self
                .broad
                .get_mut()
                .insert(collider.aabb(), handle.to_key())
            {
                Ok(proxy) => Some(proxy),
                Err(e) => {
                    self.free.push(index);
                    return Err(e.into());
                }
            }
        } else {
            None
        };
        self.slots[index as usize].entry = Some(Entry {
            collider,
            proxy,
            dirty: true,
            partners: Vec::new(),
        });
        self.dirty.push(handle);
        self.live += 1;
        Ok(handle)
    }

    /// Removes a collider and returns it; its contacts end at the next update.
    pub fn remove(&mut self, handle: ColliderHandle) -> Result<Collider, WorldError> {
        self.entry(handle)?;
        self.detach(handle);
        let slot = &mut self.slots[handle.index as usize];
        let entry = slot.entry.take().expect("checked above");
        slot.generation = slot.generation.wrapping_add(1);
        if let Some(proxy) = entry.proxy {
            self.broad.get_mut().remove(proxy)?;
        }
        self.free.push(handle.index);
        self.live -= 1;
        Ok(entry.collider)
    }

    /// The collider behind a handle.
    pub fn get(&self, handle: ColliderHandle) -> Result<&Collider, WorldError> {
        self.entry(handle).map(|e| &e.collider)
    }

    /// Whether the handle names a live collider.
    pub fn contains(&self, handle: ColliderHandle) -> bool {
        self.entry(handle).is_ok()
    }

    /// Every collider with its handle, in handle order.
    pub fn iter(&self) -> impl Iterator<Item = (ColliderHandle, &Collider)> {
        self.slots.iter().enumerate().filter_map(|(index, slot)| {
            slot.entry.as_ref().map(|entry| {
                (
                    ColliderHandle {
                        index: index as u32,
                        generation: slot.generation,
                    },
                    &entry.collider,
                )
            })
        })
    }

    /// Moves a collider's object.
    pub fn set_transform(
        &mut self,
        handle: ColliderHandle,
        xf: Transform,
    ) -> Result<(), WorldError> {
        check_transform(&xf)?;
        self.modify(handle, |c| c.transform = xf)
    }

    /// Moves a collider's shape on its object.
    pub fn set_offset(
        &mut self,
        handle: ColliderHandle,
        offset: Transform,
    ) -> Result<(), WorldError> {
        check_transform(&offset)?;
        self.modify(handle, |c| c.offset = offset)
    }

    /// Puts a collider on another layer.
    pub fn set_layer(&mut self, handle: ColliderHandle, layer: LayerId) -> Result<(), WorldError> {
        if !self.layers.contains(layer) {
            return Err(WorldError::InvalidLayer(layer));
        }
        self.modify(handle, |c| c.layer = layer)
    }

    /// Sets the Box2D-style category and mask bits.
    pub fn set_category_mask(
        &mut self,
        handle: ColliderHandle,
        category: u32,
        mask: u32,
    ) -> Result<(), WorldError> {
        self.modify(handle, |c| {
            c.category = category;
            c.mask = mask;
        })
    }

    /// Makes a collider a sensor or solid.
    pub fn set_sensor(&mut self, handle: ColliderHandle, sensor: bool) -> Result<(), WorldError> {
        self.modify(handle, |c| c.sensor = sensor)
    }

    /// Sets the game's data of a collider.
    pub fn set_user_data(&mut self, handle: ColliderHandle, data: u64) -> Result<(), WorldError> {
        self.entry_mut(handle)?.collider.user_data = data;
        Ok(())
    }

    /// Replaces a collider's shape.
    pub fn set_shape(
        &mut self,
        handle: ColliderHandle,
        shape: crate::shape::Shape,
    ) -> Result<(), WorldError> {
        self.modify(handle, |c| c.shape = shape)
    }

    /// Enables or disables a collider. A disabled collider leaves the broad phase: its contacts
    /// end at the next update and queries skip it.
    pub fn set_enabled(&mut self, handle: ColliderHandle, enabled: bool) -> Result<(), WorldError> {
        self.modify(handle, |c| c.enabled = enabled)
    }

    /// Applies a change to a collider, re-validates it and updates its broad-phase box; on error
    /// the collider is restored.
    fn modify(
        &mut self,
        handle: ColliderHandle,
        change: impl FnOnce(&mut Collider),
    ) -> Result<(), WorldError> {
        let entry = self.entry_mut(handle)?;
        let before = entry.collider.clone();
        change(&mut entry.collider);
        if let Err(e) = entry.collider.validate() {
            entry.collider = before;
            return Err(e);
        }
        let (enabled, aabb, proxy) = (entry.collider.enabled, entry.collider.aabb(), entry.proxy);
        let broad = self.broad.get_mut();
        let result = match (enabled, proxy) {
            (true, Some(proxy)) => broad.update(proxy, aabb).map(|_| Some(proxy)),
            (true, None) => broad.insert(aabb, handle.to_key()).map(Some),
            (false, Some(proxy)) => broad.remove(proxy).map(|_| None),
            (false, None) => Ok(None),
        };
        let entry = self.slots[handle.index as usize]
            .entry
            .as_mut()
            .expect("checked above");
        match result {
            Ok(proxy) => {
                let left_broad_phase = entry.proxy.is_some() && proxy.is_none();
                entry.proxy = proxy;
                if !entry.dirty {
                    entry.dirty = true;
                    self.dirty.push(handle);
                }
                if left_broad_phase {
                    self.detach(handle);
                }
                Ok(())
            }
            Err(e) => {
                entry.collider = before;
                Err(e.into())
            }
        }
    }

    fn entry(&self, handle: ColliderHandle) -> Result<&Entry, WorldError> {
        self.slots
            .get(handle.index as usize)
            .filter(|slot| slot.generation == handle.generation)
            .and_then(|slot| slot.entry.as_ref())
            .ok_or(WorldError::StaleHandle(handle))
    }

    fn entry_mut(&mut self, handle: ColliderHandle) -> Result<&mut Entry, WorldError> {
        self.slots
            .get_mut(handle.index as usize)
            .filter(|slot| slot.generation == handle.generation)
            .and_then(|slot| slot.entry.as_mut())
            .ok_or(WorldError::StaleHandle(handle))
    }

    /// Whether the layer matrix and filter bits let two colliders interact.
    fn pair_allowed(&self, a: &Collider, b: &Collider) -> bool {
        self.layers.collides(a.layer, b.layer)
            && (a.category & b.mask) != 0
            && (b.category & a.mask) != 0
    }

    /// Forgets a collider's box pairs (it is being removed or disabled) and schedules `End`
    /// for the pairs it was touching.
    fn detach(&mut self, handle: ColliderHandle) {
        let partners = match self.entry_mut(handle) {
            Ok(entry) => std::mem::take(&mut entry.partners),
            Err(_) => return,
        };
        for partner in partners {
            if let Ok(other) = self.entry_mut(partner) {
                other.partners.retain(|&p| p != handle);
            }
            let key = ordered(handle, partner);
            if self.touching.remove(&key).is_some() {
                self.pending_ends.push(key);
            }
        }
    }

    /// Runs broad phase → filter → narrow phase and returns this update's events.
    ///
    /// 1. The broad phase reports which box pairs began and ended overlapping; partner lists
    ///    follow.
    /// 2. Only pairs with a changed collider (or new pairs, or all pairs after a layer-matrix
    ///    change) are re-tested: layer matrix and filter bits, then the narrow phase. Pairs
    ///    whose boxes stopped overlapping stop touching.
    /// 3. Events: `End` for pairs no longer touching (including removed and disabled
    ///    colliders), `Begin` for new ones, `Stay` for the rest, sorted by pair.
    pub fn update(&mut self) -> &[CollisionEvent] {
        let started = std::time::Instant::now();
        // 1. Broad phase and partner lists.
        let changes = self.broad.get_mut().update_pairs().clone();
        let mut retest: Vec<(ColliderHandle, ColliderHandle)> = Vec::new();
        let mut ended_boxes: Vec<(ColliderHandle, ColliderHandle)> = Vec::new();
        for pair in &changes.ended {
            let broad = self.broad.get();
            // A removed or disabled collider's pairs were already forgotten.
            let (Ok(a), Ok(b)) = (broad.key(pair.lower()), broad.key(pair.higher())) else {
                continue;
            };
            let (a, b) = ordered(ColliderHandle::from_key(a), ColliderHandle::from_key(b));
            if let Ok(entry) = self.entry_mut(a) {
                entry.partners.retain(|&p| p != b);
            }
            if let Ok(entry) = self.entry_mut(b) {
                entry.partners.retain(|&p| p != a);
            }
            ended_boxes.push((a, b));
        }
        for pair in &changes.began {
            let broad = self.broad.get();
            let (Ok(a), Ok(b)) = (broad.key(pair.lower()), broad.key(pair.higher())) else {
                continue;
            };
            let (a, b) = ordered(ColliderHandle::from_key(a), ColliderHandle::from_key(b));
            if let Ok(entry) = self.entry_mut(a) {
                entry.partners.push(b);
            }
            if let Ok(entry) = self.entry_mut(b) {
                entry.partners.push(a);
            }
            retest.push((a, b));
        }
        let filters_changed = self.layers.version() != self.seen_layers_version;
        if filters_changed {
            for (index, slot) in self.slots.iter().enumerate() {
                if let Some(entry) = &slot.entry {
                    let handle = ColliderHandle {
                        index: index as u32,
                        generation: slot.generation,
                    };
                    retest.extend(
                        entry
                            .partners
                            .iter()
                            .filter(|&&p| handle < p)
                            .map(|&p| (handle, p)),
                    );
                }
            }
        } else {
            for &handle in &self.dirty {
                if let Ok(entry) = self.entry(handle) {
                    retest.extend(entry.partners.iter().map(|&p| ordered(handle, p)));
                }
            }
        }
        retest.append(&mut self.retest_pending);
        retest.sort_unstable();
        retest.dedup();
        let broad_done = std::time::Instant::now();

        // 2. Filter and narrow phase on the re-tested pairs.
        let results = self.run_narrow_phase(&retest);
        let mut began: Vec<(ColliderHandle, ColliderHandle)> = Vec::new();
        let mut ended: Vec<(ColliderHandle, ColliderHandle)> =
            std::mem::take(&mut self.pending_ends);
        for (&pair, result) in retest.iter().zip(results) {
            match result {
                Some(manifold) => {
                    if self.touching.insert(pair, manifold).is_none() {
                        began.push(pair);
                    }
                }
                None => {
                    if self.touching.remove(&pair).is_some() {
                        ended.push(pair);
                    }
                }
            }
        }
        for pair in ended_boxes {
            if self.touching.remove(&pair).is_some() {
                ended.push(pair);
            }
        }
        let narrow_done = std::time::Instant::now();

        // 3. Events in pair order. A pair that ended (its collider was disabled or re-shaped)
        //    and touches again by this update never stopped touching as far as updates can
        //    tell: it stays.
        ended.sort_unstable();
        ended.dedup();
        began.sort_unstable();
        if !ended.is_empty() {
            let still_touching: Vec<_> = ended
                .iter()
                .copied()
                .filter(|pair| self.touching.contains_key(pair))
                .collect();
            if !still_touching.is_empty() {
                ended.retain(|pair| !self.touching.contains_key(pair));
                began.retain(|pair| still_touching.binary_search(pair).is_err());
            }
        }
        self.events.clear();
        let mut ends = ended.into_iter().peekable();
        let mut push_ends_before =
            |events: &mut Vec<CollisionEvent>, limit: Option<(ColliderHandle, ColliderHandle)>| {
                while let Some(&(a, b)) = ends.peek() {
                    if limit.is_some_and(|l| (a, b) >= l) {
                        break;
                    }
                    events.push(CollisionEvent::End { a, b });
                    ends.next();
                }
            };
        if self.report_stay {
            let mut begun = began.iter().peekable();
            for (&(a, b), manifold) in &self.touching {
                push_ends_before(&mut self.events, Some((a, b)));
                if begun.peek() == Some(&&(a, b)) {
                    begun.next();
                    self.events.push(CollisionEvent::Begin {
                        a,
                        b,
                        manifold: *manifold,
                    });
                } else {
                    self.events.push(CollisionEvent::Stay {
                        a,
                        b,
                        manifold: *manifold,
                    });
                }
            }
        } else {
            for (a, b) in began {
                push_ends_before(&mut self.events, Some((a, b)));
                let manifold = self.touching.get(&(a, b)).copied().flatten();
                self.events.push(CollisionEvent::Begin { a, b, manifold });
            }
        }
        push_ends_before(&mut self.events, None);

        for handle in std::mem::take(&mut self.dirty) {
            if let Ok(entry) = self.entry_mut(handle) {
                entry.dirty = false;
            }
        }
        self.seen_layers_version = self.layers.version();
        let done = std::time::Instant::now();
        self.stats = UpdateStats {
            broad: broad_done - started,
            narrow: narrow_done - broad_done,
            events: done - narrow_done,
            candidate_pairs: self
                .slots
                .iter()
                .filter_map(|s| s.entry.as_ref())
                .map(|e| e.partners.len())
                .sum::<usize>()
                / 2,
            narrow_tests: retest.len(),
        };
        &self.events
    }

    /// The events of the last update.
    pub fn events(&self) -> &[CollisionEvent] {
        &self.events
    }

    /// Every pair touching as of the last update, with its manifold (`None` for sensors).
    pub fn contacts(
        &self,
    ) -> impl Iterator<Item = (ColliderHandle, ColliderHandle, Option<&Manifold>)> {
        self.touching.iter().map(|(&(a, b), m)| (a, b, m.as_ref()))
    }

    /// Whether a collider touched anything at the last update.
    pub fn is_touching(&self, handle: ColliderHandle) -> bool {
        self.entry(handle).is_ok_and(|entry| {
            entry
                .partners
                .iter()
                .any(|&p| self.touching.contains_key(&ordered(handle, p)))
        })
    }

    /// The narrow-phase answer for each pair: `Some(manifold)` when touching (`None` inside
    /// for sensors), `None` when apart. With the `rayon` feature, large batches run in
    /// parallel; the answers are the same and in the same order.
    fn run_narrow_phase(
        &self,
        pairs: &[(ColliderHandle, ColliderHandle)],
    ) -> Vec<Option<Option<Manifold>>> {
        #[cfg(feature = "rayon")]
        {
            use rayon::prelude::*;
            if pairs.len() >= 256 {
                return pairs
                    .par_iter()
                    .map(|&(a, b)| self.narrow_pair(a, b))
                    .collect();
            }
        }
        pairs.iter().map(|&(a, b)| self.narrow_pair(a, b)).collect()
    }

    /// Whether colliders `a` and `b` touch now, with their manifold for solid pairs.
    fn narrow_pair(&self, a: ColliderHandle, b: ColliderHandle) -> Option<Option<Manifold>> {
        let (ca, cb) = (&self.entry(a).ok()?.collider, &self.entry(b).ok()?.collider);
        if !ca.enabled || !cb.enabled || !self.pair_allowed(ca, cb) {
            return None;
        }
        let (xa, xb) = (ca.world_transform(), cb.world_transform());
        if ca.sensor || cb.sensor {
            return overlaps(&ca.shape, &xa, &cb.shape, &xb).then_some(None);
        }
        let manifold = collide(&ca.shape, &xa, &cb.shape, &xb);
        if manifold.is_empty() || !one_way_allows(ca, cb, &manifold) {
            return None;
        }
        Some(Some(manifold))
    }
}

/// A pair in canonical order (smaller handle first).
#[inline]
fn ordered(a: ColliderHandle, b: ColliderHandle) -> (ColliderHandle, ColliderHandle) {
    if a < b {
        (a, b)
    } else {
        (b, a)
    }
}

/// A one-way collider only touches shapes on its blocking side that are not deeper than its
/// margin. `manifold.normal` points from `a` to `b`.
pub(crate) fn one_way_allows(a: &Collider, b: &Collider, manifold: &Manifold) -> bool {
    let depth = manifold.max_penetration();
    if let Some((direction, margin)) = a.one_way_world() {
        if manifold.normal.dot(direction) <= 0.0 || depth > margin {
            return false;
        }
    }
    if let Some((direction, margin)) = b.one_way_world() {
        if (-manifold.normal).dot(direction) <= 0.0 || depth > margin {
            return false;
        }
    }
    true
}

/// Checks a vector from the user.
pub(crate) fn check_vector(v: Vec2, what: &'static str) -> Result<Vec2, WorldError> {
    if v.is_finite() {
        Ok(v)
    } else {
        Err(WorldError::InvalidInput(what))
    }
}

/// Everything a [`World`] knows, as plain data: colliders with their handles, layers and the
/// matrix, and which pairs touch. With the `serde` feature it serialises; restoring it and
/// continuing gives the same events as never having stopped.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct WorldSnapshot {
    broad_phase: BroadPhaseKind,
    layers: Layers,
    seen_layers_version: u64,
    /// Each slot's generation and its collider, if live, with whether it changed since the
    /// last update.
    slots: Vec<(u32, Option<(Collider, bool)>)>,
    free: Vec<u32>,
    contacts: Vec<Contact>,
    pending_ends: Vec<(ColliderHandle, ColliderHandle)>,
    report_stay: bool,
}

impl World {
    /// A copy of the world's whole state (see [`WorldSnapshot`]).
    pub fn snapshot(&self) -> WorldSnapshot {
        WorldSnapshot {
            broad_phase: self.broad_kind,
            layers: self.layers.clone(),
            seen_layers_version: self.seen_layers_version,
            slots: self
                .slots
                .iter()
                .map(|slot| {
                    (
                        slot.generation,
                        slot.entry.as_ref().map(|e| (e.collider.clone(), e.dirty)),
                    )
                })
                .collect(),
            free: self.free.clone(),
            contacts: self
                .touching
                .iter()
                .map(|(&(a, b), &manifold)| Contact { a, b, manifold })
                .collect(),
            pending_ends: {
                let mut ends = self.pending_ends.clone();
                ends.sort_unstable();
                ends
            },
            report_stay: self.report_stay,
        }
    }

    /// Rebuilds a world from a snapshot. Every collider is re-validated, so a hand-edited
    /// snapshot with bad numbers, unknown layers, inconsistent slots or contacts naming dead
    /// colliders is an error, not a broken world.
    pub fn restore(snapshot: WorldSnapshot) -> Result<World, WorldError> {
        let mut world = World::with_broad_phase(snapshot.broad_phase)?;
        world.layers = snapshot.layers;
        world.seen_layers_version = snapshot.seen_layers_version;
        world.report_stay = snapshot.report_stay;
        for (index, (generation, collider)) in snapshot.slots.into_iter().enumerate() {
            let handle = ColliderHandle {
                index: index as u32,
                generation,
            };
            let entry = match collider {
                Some((mut collider, dirty)) => {
                    collider.validate()?;
                    if !world.layers.contains(collider.layer) {
                        return Err(WorldError::InvalidLayer(collider.layer));
                    }
                    let proxy = if collider.enabled {
                        Some(
                            world
                                .broad
                                .get_mut()
                                .insert(collider.aabb(), handle.to_key())?,
                        )
                    } else {
                        None
                    };
                    world.live += 1;
                    if dirty {
                        world.dirty.push(handle);
                    }
                    Some(Entry {
                        collider,
                        proxy,
                        dirty,
                        partners: Vec::new(),
                    })
                }
                None => None,
            };
            world.slots.push(Slot { generation, entry });
        }
        let mut free_seen = std::collections::BTreeSet::new();
        for &index in &snapshot.free {
            let slot = world.slots.get(index as usize);
            if slot.is_none_or(|s| s.entry.is_some()) || !free_seen.insert(index) {
                return Err(WorldError::InvalidInput("snapshot free list"));
            }
        }
        if world.slots.iter().filter(|s| s.entry.is_none()).count() != snapshot.free.len() {
            return Err(WorldError::InvalidInput("snapshot free list"));
        }
        world.free = snapshot.free;
        let sorted = snapshot
            .contacts
            .windows(2)
            .all(|w| (w[0].a, w[0].b) < (w[1].a, w[1].b));
        if !sorted || snapshot.contacts.iter().any(|c| c.a >= c.b) {
            return Err(WorldError::InvalidInput("snapshot contacts"));
        }
        for contact in snapshot.contacts {
            if !world.contains(contact.a) || !world.contains(contact.b) {
                return Err(WorldError::InvalidInput("snapshot contacts"));
            }
            world
                .touching
                .insert((contact.a, contact.b), contact.manifold);
            // The rebuilt broad phase cannot say which of these pairs' boxes came apart since
            // the last update: re-test them all at the next one.
            world.retest_pending.push((contact.a, contact.b));
        }
        world.pending_ends = snapshot.pending_ends;
        // Partner lists come back from the rebuilt broad phase, where every pair begins now.
        let began = world.broad.get_mut().update_pairs().began.clone();
        for pair in began {
            let broad = world.broad.get();
            let (Ok(a), Ok(b)) = (broad.key(pair.lower()), broad.key(pair.higher())) else {
                continue;
            };
            let (a, b) = (ColliderHandle::from_key(a), ColliderHandle::from_key(b));
            if let Ok(entry) = world.entry_mut(a) {
                entry.partners.push(b);
            }
            if let Ok(entry) = world.entry_mut(b) {
                entry.partners.push(a);
            }
        }
        Ok(world)
    }
}
