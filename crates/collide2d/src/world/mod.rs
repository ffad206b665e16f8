//! The collision world: colliders, layers, begin/stay/end events, queries and character motion.
//!
//! ```
//! use collide2d::{shape::{Circle, Polygon, Shape}, world::{Collider, CollisionEvent, EndReason, World}, Transform, Vec2};
//!
//! let mut world = World::new();
//! let player = world.layers_mut().add("Player").unwrap();
//! let monster = world.layers_mut().add("Monster").unwrap();
//! world.layers_mut().disable(monster, monster); // monsters pass through each other
//!
//! let hero = world.insert(Collider::new(Shape::from(Circle::with_radius(0.5)?)).with_layer(player))?;
//! let slime = world.insert(
//!     Collider::new(Shape::from(Polygon::rect(1.0, 1.0)?))
//!         .with_layer(monster)
//!         .with_transform(Transform::new(Vec2::new(3.0, 0.0), 0.0)),
//! )?;
//! world.update();
//! assert!(world.events().is_empty());
//!
//! world.set_transform(slime, Transform::new(Vec2::new(0.8, 0.0), 0.0))?;
//! world.update();
//! assert!(matches!(world.began()[0], CollisionEvent::Begin { a, b, .. } if (a, b) == (hero, slime)));
//!
//! world.remove(slime)?;
//! world.update();
//! assert!(matches!(world.ended()[0], CollisionEvent::End { reason: EndReason::Removed, .. }));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! [`World::update`] returns its counts and timings ([`UpdateStats`]), not the events, so the
//! world can be read while the events are walked: [`World::began`] and [`World::ended`] hold
//! the changes, [`World::events`] all of them in pair order (with `Stay` unless turned off by
//! [`World::set_report_stay`]), and [`World::contacts`] / [`World::contacts_of`] the touching
//! pairs at any time. An `End` carries why it ended and both user data values, so a game can
//! act on it after a removal:
//!
//! ```
//! use collide2d::{shape::{Circle, Shape}, world::{Collider, World}, Transform, Vec2};
//!
//! let mut world = World::new();
//! let ball = Shape::from(Circle::with_radius(0.5)?);
//! let player = world.insert(Collider::new(ball.clone()).with_user_data(1))?;
//! let coin = world.insert(Collider::new(ball).with_sensor(true).with_user_data(7).with_transform(Transform::new(Vec2::new(0.5, 0.0), 0.0)))?;
//! world.update();
//! for event in world.began() {
//!     // The world is free to read (and `world.remove` may follow the loop).
//!     let Some(other) = event.other(player) else { continue };
//!     if event.is_sensor() && world.get(other)?.user_data() == 7 {
//!         assert_eq!(other, coin);
//!     }
//! }
//! world.remove(coin)?;
//! world.update();
//! let end = world.ended()[0];
//! assert_eq!(end.other_user_data(player), Some(7)); // the coin is gone; its data is not
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Fast objects are made continuous ([`Collider::with_continuous`]): each update sweeps them from
//! where they were at the previous one, so they cannot pass through a thin collider between two
//! updates, and the `Begin` of what they hit carries the time of impact (see
//! [`CollisionEvent`]). [`World::teleport`] moves one without sweeping; [`World::sweep_to`]
//! moves a collider until its first contact.

mod batch;
mod character;
mod collider;
mod continuous;
mod error;
mod events;
mod groups;
mod handle;
mod layers;
mod pending;
mod queries;
mod snapshot;
#[cfg(feature = "rayon")]
mod test_parts;
mod tile_map;
mod touching;
mod update;

pub use character::{MoveHit, MoveOptions, MoveResult};
pub use collider::{Collider, OneWay};
pub use error::WorldError;
pub use events::{CollisionEvent, EndReason, TimeOfImpact};
pub use groups::CollisionGroups;
pub use handle::ColliderHandle;
pub use layers::{LayerId, LayerMask, Layers, MAX_LAYERS};
pub use queries::{QueryFilter, QueryPredicate, WorldCastHit, WorldRayHit};
pub use snapshot::{SnapshotError, WorldSnapshot};
pub use tile_map::{TileGeometry, TileMapColliders};

use crate::broad::{BroadPhase, DynamicTree, HashGrid, ProxyId, SweepAndPrune};
use crate::math::{Transform, Vec2};
use crate::prefetch::{prefetch, prefetch_item};
use crate::query::Manifold;
use crate::shape::{Aabb, Shape};
use collider::{
    check_placed_box, check_placement_transform, check_transform, padded_aabb_of_valid,
};
use touching::{PairTest, Touching, TouchingPair};

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
///
/// Laid out in declaration order so that what a pair test reads (placement, filter, then the
/// shape at the start of the collider) comes first: with the slot's generation, exactly the
/// slot's first 64 bytes (a polygon's outline is one more block, behind its box).
#[derive(Clone, Debug)]
#[repr(C)]
struct Entry {
    /// `collider.world_transform()`, kept up to date so pair tests need not recompute it.
    placement: Transform,
    /// A copy of the collider's filter settings, kept up to date likewise.
    filter: PairFilter,
    collider: Collider,
    proxy: Option<ProxyId>,
    /// The colliders whose boxes overlap this one's, as the broad phase last reported.
    partners: Vec<ColliderHandle>,
}

impl Entry {
    /// A fresh entry: changed, with no partners yet.
    fn new(collider: Collider, proxy: Option<ProxyId>) -> Entry {
        Entry {
            placement: collider.world_transform(),
            filter: PairFilter::of(&collider),
            collider,
            proxy,
            partners: Vec::new(),
        }
    }

    /// Refreshes the copies kept beside the collider after it changed.
    fn collider_changed(&mut self) {
        self.placement = self.collider.world_transform();
        self.filter = PairFilter::of(&self.collider);
    }
}

/// What decides whether two colliders may touch, besides their shapes.
#[derive(Clone, Copy, Debug)]
struct PairFilter {
    groups: CollisionGroups,
    layer: LayerId,
    enabled: bool,
    sensor: bool,
    one_way: bool,
}

impl PairFilter {
    fn of(collider: &Collider) -> PairFilter {
        PairFilter {
            groups: collider.groups,
            layer: collider.layer,
            enabled: collider.enabled,
            sensor: collider.sensor,
            one_way: collider.one_way.is_some(),
        }
    }
}

/// Moves per batch of [`World::set_transforms`]: enough to overlap many cache misses, few
/// enough that the batch's data stays in the first-level cache.
const MOVE_BATCH: usize = 32;

/// The fewest bytes of collider slots for which the world asks for memory ahead (the narrow
/// phase's batches, `set_transforms`' plans) and moves a batch's leaves in the tree's two
/// steps: an eighth of a 32 MiB last-level cache (about 20k colliders). A smaller world's slots,
/// shapes and tree stay in the cache from one frame to the next, where asking ahead costs its
/// instructions for nothing (10k colliders, all moving, single moves: 2.35 ms a frame with the
/// narrow phase's asking, 2.08 ms without), while at 100k colliders it pays (5.8 ms against
/// 9.1 ms, best of six).
const ASK_AHEAD_FROM_SLOT_BYTES: usize = 4 << 20;

/// The fewest moves a `set_transforms` batch checks on several threads (feature `rayon`).
#[cfg(feature = "rayon")]
const PARALLEL_MOVES: usize = 4096;

/// A collider slot. Aligned to 64 bytes so the data a pair test reads, at its start, is one
/// cache line.
#[derive(Clone, Debug, Default)]
#[repr(C, align(64))]
struct Slot {
    generation: u32,
    entry: Option<Entry>,
}

impl Slot {
    /// Moves an emptied slot to its next generation, so handles to its last collider turn
    /// stale; `false` when the generation is already `u32::MAX`: the slot is then retired for
    /// good (never reused), as a wrapped counter would make a handle from 2³² removals ago
    /// name a new collider.
    fn next_generation(&mut self) -> bool {
        match self.generation.checked_add(1) {
            Some(next) => {
                self.generation = next;
                true
            }
            None => false,
        }
    }
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
    /// `Begin` events of the update ([`World::began`]).
    pub began: usize,
    /// `End` events of the update ([`World::ended`]).
    pub ended: usize,
}

/// Every collider of a game, which layers collide, and who touches whom.
///
/// Call [`update`](World::update) once per frame after moving colliders, then read its
/// begin/stay/end events ([`events`](World::events), [`began`](World::began),
/// [`ended`](World::ended)) in a deterministic order (sorted by handle pair). `update` returns
/// owned counts, so the world stays readable while the events are walked:
///
/// ```
/// use collide2d::{shape::{Circle, Shape}, world::{Collider, World}};
/// let mut world = World::new();
/// let ball = Shape::from(Circle::with_radius(0.5)?);
/// world.insert(Collider::new(ball.clone()).with_user_data(1))?;
/// world.insert(Collider::new(ball).with_user_data(2))?;
/// let stats = world.update();
/// assert_eq!(stats.began, 1);
/// for event in world.events() {
///     let (a, b) = event.pair();
///     assert_eq!(world.get(a)?.user_data() + world.get(b)?.user_data(), 3);
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct World {
    slots: Vec<Slot>,
    free: Vec<u32>,
    broad: Broad,
    broad_kind: BroadPhaseKind,
    layers: Layers,
    /// The layer matrix the last update filtered with: any other matrix now re-checks every
    /// box pair's filter, however it was assigned.
    seen_layer_matrix: [u32; MAX_LAYERS],
    /// Pairs touching as of the last update (`a < b`), with their manifolds; pairs whose
    /// collider was removed or disabled since are kept, detached, until their `End`.
    touching: Touching,
    /// Pairs to re-test at the next update whatever changed (after a restore).
    retest_pending: pending::PendingRetests,
    /// The colliders removed since the last update and their user data then, for the pending
    /// `End`s of their pairs (see `touching::PendingEnd::settled`).
    removed_since_update: std::collections::BTreeMap<ColliderHandle, u64>,
    /// Colliders changed since the last update (their pairs need a fresh narrow phase), each
    /// once; stale handles of colliders removed since are possible and skipped.
    dirty: Vec<ColliderHandle>,
    /// One bit per slot, set for the slots of `dirty`'s live colliders. A bit vector, not a
    /// flag in the slot, so that asking whether a partner changed stays in cache.
    dirty_bits: Vec<u64>,
    report_stay: bool,
    stats: UpdateStats,
    live: usize,
    /// Pairs whose boxes overlap: the sum of partner-list lengths over two.
    box_pairs: usize,
    /// Buffers reused by every update.
    scratch: UpdateScratch,
    /// The continuous colliders' previous placements (see `continuous.rs`).
    continuous: continuous::ContinuousColliders,
    /// The grid of the batch queries, kept until a change drops it (see `batch.rs`).
    batch_grid: std::sync::OnceLock<batch::BatchGrid>,
}

/// Working memory of [`World::update`], kept so that an update allocates nothing once warm.
#[derive(Default)]
struct UpdateScratch {
    began: Vec<crate::broad::Pair>,
    ended: Vec<crate::broad::Pair>,
    /// Pairs to re-test, `a < b`.
    retest_keys: Vec<update::PairKey>,
    /// Pairs whose boxes stopped overlapping.
    apart_keys: Vec<update::PairKey>,
    /// Working memory of the key sort.
    sort_buffer: Vec<update::PairKey>,
    /// Working memory of the key merge.
    merge_buffer: Vec<update::PairKey>,
    /// The placements, boxes and proxies of a `set_transforms` batch, once checked.
    moves: Vec<(Transform, Aabb, Option<ProxyId>)>,
    /// A batch placed on several threads: per range of slots, the positions of the moves that
    /// marked their collider changed.
    #[cfg(feature = "rayon")]
    move_notes: Vec<Vec<u32>>,
    /// The batch's moves of colliders in the broad phase.
    proxy_moves: Vec<(ProxyId, Aabb)>,
    tests: Vec<PairTest>,
    results: Vec<update::PairAnswer>,
    /// The parts of the pairs to re-test, listed on several threads.
    #[cfg(feature = "rayon")]
    key_parts: Vec<test_parts::KeyPart>,
    /// The key ranges those parts are merged in, on several threads.
    #[cfg(feature = "rayon")]
    test_ranges: Vec<test_parts::TestRange>,
    /// The keys that cut the ranges.
    #[cfg(feature = "rayon")]
    splitting_keys: Vec<u64>,
    /// Every test's answer at once, for an update with continuous colliders (whose sweeps
    /// need them before the merge).
    answers: Vec<update::PairAnswer>,
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
            seen_layer_matrix: Layers::default().matrix(),
            touching: Touching::default(),
            retest_pending: pending::PendingRetests::default(),
            removed_since_update: std::collections::BTreeMap::new(),
            dirty: Vec::new(),
            dirty_bits: Vec::new(),
            report_stay: true,
            stats: UpdateStats::default(),
            live: 0,
            box_pairs: 0,
            scratch: UpdateScratch::default(),
            continuous: continuous::ContinuousColliders::default(),
            batch_grid: std::sync::OnceLock::new(),
        })
    }

    /// An empty world like [`World::new`] with room for `colliders` colliders: inserting that
    /// many reallocates none of the world's per-collider arrays (see [`World::reserve`]).
    pub fn with_capacity(colliders: usize) -> World {
        let mut world = World::new();
        world.reserve(colliders);
        world
    }

    /// Makes room for `additional` more colliders than are live now, so that inserting them
    /// does not grow (and briefly double) the world's per-collider arrays: the collider slots
    /// and the changed-since-update lists. Freed slots are reused first and count as room.
    /// The broad phase grows as it needs to.
    ///
    /// ```
    /// use collide2d::shape::{Circle, Shape};
    /// use collide2d::world::{Collider, World};
    /// let mut world = World::new();
    /// world.reserve(1000);
    /// let ball = Shape::from(Circle::with_radius(0.5)?);
    /// for _ in 0..1000 {
    ///     world.insert(Collider::new(ball.clone())).unwrap();
    /// }
    /// # Ok::<(), collide2d::ShapeError>(())
    /// ```
    pub fn reserve(&mut self, additional: usize) {
        let new_slots = additional.saturating_sub(self.free.len());
        crate::huge_pages::reserve(&mut self.slots, new_slots);
        let slot_count = self.slots.len().saturating_add(new_slots);
        self.dirty
            .reserve(slot_count.saturating_sub(self.dirty.len()));
        let words = slot_count.div_ceil(64);
        self.dirty_bits
            .reserve(words.saturating_sub(self.dirty_bits.len()));
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

    /// The layers, to add layers or change the matrix; changes apply at the next update,
    /// however made (edits, or a whole preset assigned: `*world.layers_mut() = preset`).
    pub fn layers_mut(&mut self) -> &mut Layers {
        &mut self.layers
    }

    /// Whether `update` reports `Stay` events (default `true`).
    ///
    /// A game that reads only `Begin` and `End` turns them off: a pile of `n` colliders at one
    /// spot touches in `n²/2` pairs, and the events it then reads each frame are only the
    /// changes. The touching pairs stay available from [`contacts`](World::contacts).
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
                crate::huge_pages::reserve(&mut self.slots, 1);
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
        if collider.continuous {
            self.continuous.track(index, collider.world_transform());
        }
        self.slots[index as usize].entry = Some(Entry::new(collider, proxy));
        self.mark_dirty(handle);
        self.live += 1;
        Ok(handle)
    }

    /// Adds many colliders at once (a level, a wave of spawns) and returns their handles in
    /// order. All or nothing: every collider is checked first (as [`insert`](World::insert)
    /// checks one), and if one is refused nothing is added and its error is returned.
    ///
    /// Faster than one `insert` at a time: the slots grow once, and the default tree places a
    /// batch at least as large as its current contents (a level into an empty world) by
    /// rebuilding itself once with its binned build ([`DynamicTree::insert_many`]), which also
    /// leaves a better tree; sweep-and-prune sorts the batch and merges it into its array in
    /// one pass. Smaller batches into the tree, and the grid, take the boxes one by one. The
    /// next update reports the same events either way.
    ///
    /// ```
    /// use collide2d::{shape::{Circle, Shape}, world::{Collider, World}, Transform, Vec2};
    /// let mut world = World::new();
    /// let ball = Shape::from(Circle::with_radius(0.5)?);
    /// let handles = world.insert_many((0..100).map(|i| {
    ///     Collider::new(ball.clone()).with_transform(Transform::new(Vec2::new(i as f32 * 0.9, 0.0), 0.0))
    /// }))?;
    /// assert_eq!(handles.len(), 100);
    /// assert_eq!(world.update().began, 99); // neighbours overlap
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn insert_many(
        &mut self,
        colliders: impl IntoIterator<Item = Collider>,
    ) -> Result<Vec<ColliderHandle>, WorldError> {
        let mut colliders: Vec<Collider> = colliders.into_iter().collect();
        for collider in &mut colliders {
            collider.validate()?;
            if !self.layers.contains(collider.layer) {
                return Err(WorldError::InvalidLayer(collider.layer));
            }
        }
        // Handles: freed slots first (most recently freed first, as `insert` takes them), then
        // new slots.
        let reused = colliders.len().min(self.free.len());
        let fresh = colliders.len() - reused;
        let first_fresh = self.slots.len();
        if u32::try_from(first_fresh + fresh).is_err() {
            return Err(WorldError::InvalidInput("collider count"));
        }
        let handles: Vec<ColliderHandle> = (0..colliders.len())
            .map(|position| {
                let index = if position < reused {
                    self.free[self.free.len() - 1 - position]
                } else {
                    (first_fresh + position - reused) as u32
                };
                let generation = self
                    .slots
                    .get(index as usize)
                    .map_or(0, |slot| slot.generation);
                ColliderHandle { index, generation }
            })
            .collect();
        let boxes: Vec<(Aabb, u64)> = colliders
            .iter()
            .zip(&handles)
            .filter(|(collider, _)| collider.enabled)
            .map(|(collider, handle)| (collider.aabb(), handle.to_key()))
            .collect();
        let mut proxies = self.insert_boxes(&boxes)?.into_iter();
        self.free.truncate(self.free.len() - reused);
        self.reserve(fresh);
        self.slots.resize_with(first_fresh + fresh, Slot::default);
        for (collider, handle) in colliders.into_iter().zip(&handles) {
            let proxy = if collider.enabled {
                proxies.next()
            } else {
                None
            };
            if collider.continuous {
                self.continuous
                    .track(handle.index, collider.world_transform());
            }
            self.slots[handle.index as usize].entry = Some(Entry::new(collider, proxy));
            self.mark_dirty(*handle);
        }
        self.live += handles.len();
        Ok(handles)
    }

    /// Puts boxes into the broad phase, all or none: the tree and sweep-and-prune take the
    /// batch at once ([`DynamicTree::insert_many`]: one rebuild for a batch at least as large
    /// as the tree; [`SweepAndPrune::insert_many`]: one sort and merge); the grid takes the
    /// boxes one by one (taken out again if one is refused).
    fn insert_boxes(&mut self, boxes: &[(Aabb, u64)]) -> Result<Vec<ProxyId>, WorldError> {
        match &mut self.broad {
            Broad::Tree(tree) => Ok(tree.insert_many(boxes)?),
            Broad::Sap(sweep) => Ok(sweep.insert_many(boxes)?),
            // A grid takes each box in constant time already; it keeps its cell size.
            _ => self.insert_boxes_one_by_one(boxes),
        }
    }

    fn insert_boxes_one_by_one(
        &mut self,
        boxes: &[(Aabb, u64)],
    ) -> Result<Vec<ProxyId>, WorldError> {
        let broad = self.broad.get_mut();
        let mut ids = Vec::with_capacity(boxes.len());
        for &(aabb, key) in boxes {
            match broad.insert(aabb, key) {
                Ok(id) => ids.push(id),
                Err(error) => {
                    for id in ids {
                        // Just inserted, so it is there to remove.
                        let _ = broad.remove(id);
                    }
                    return Err(error.into());
                }
            }
        }
        Ok(ids)
    }

    /// Removes a collider and returns it; its contacts end at the next update.
    pub fn remove(&mut self, handle: ColliderHandle) -> Result<Collider, WorldError> {
        self.entry(handle)?;
        self.forget_batch_grid();
        self.detach(handle, EndReason::Removed);
        let entry = self.vacate(handle.index).expect("checked above");
        if let Some(proxy) = entry.proxy {
            self.broad.get_mut().remove(proxy)?;
        }
        Ok(entry.collider)
    }

    /// Empties live slot `index` (its collider already detached) and returns what it held:
    /// the slot moves to its next generation and onto the free list, or is retired at the last
    /// one ([`Slot::next_generation`]). The collider's proxy is left for the caller to remove.
    fn vacate(&mut self, index: u32) -> Option<Entry> {
        let slot = &mut self.slots[index as usize];
        let entry = slot.entry.take()?;
        if slot.next_generation() {
            self.free.push(index);
        }
        self.clear_dirty(index);
        self.continuous.forget(index);
        self.live -= 1;
        Some(entry)
    }

    /// Removes many colliders and returns them in order; their contacts end at the next
    /// update, as after [`remove`](World::remove) on each handle in order. All or nothing:
    /// every handle is checked first, and a stale handle (or one named twice) is refused with
    /// [`WorldError::StaleHandle`], removing nothing.
    ///
    /// Sweep and prune compacts its array once for the whole batch
    /// ([`SweepAndPrune::remove_many`]) instead of shifting it once per collider.
    ///
    /// ```
    /// use collide2d::{shape::{Circle, Shape}, world::{Collider, World}, Transform, Vec2};
    /// let mut world = World::new();
    /// let ball = Shape::from(Circle::with_radius(0.5)?);
    /// let handles = world.insert_many((0..10).map(|i| {
    ///     Collider::new(ball.clone()).with_transform(Transform::new(Vec2::new(i as f32 * 0.9, 0.0), 0.0))
    /// }))?;
    /// world.update();
    /// let removed = world.remove_many(&handles[..5])?;
    /// assert_eq!((removed.len(), world.len()), (5, 5));
    /// assert_eq!(world.update().ended, 5); // four pairs among the removed, one across
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn remove_many(&mut self, handles: &[ColliderHandle]) -> Result<Vec<Collider>, WorldError> {
        let mut named = vec![false; self.slots.len()];
        for &handle in handles {
            self.entry(handle)?;
            if std::mem::replace(&mut named[handle.index as usize], true) {
                return Err(WorldError::StaleHandle(handle));
            }
        }
        self.forget_batch_grid();
        let mut proxies = Vec::with_capacity(handles.len());
        let mut removed = Vec::with_capacity(handles.len());
        for &handle in handles {
            self.detach(handle, EndReason::Removed);
            let Some(entry) = self.vacate(handle.index) else {
                continue; // checked above
            };
            proxies.extend(entry.proxy);
            removed.push(entry.collider);
        }
        // Cannot fail: every proxy belongs to a live collider checked above.
        match &mut self.broad {
            Broad::Sap(sweep) => sweep.remove_many(&proxies)?,
            broad => {
                let broad = broad.get_mut();
                for proxy in proxies {
                    broad.remove(proxy)?;
                }
            }
        }
        Ok(removed)
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
    ///
    /// A continuous collider is swept at the next update from its placement at the last one
    /// the shortest way to this one: the last of `set_transform`,
    /// [`set_transforms`](World::set_transforms),
    /// [`set_transform_spinning`](World::set_transform_spinning) and
    /// [`sweep_to`](World::sweep_to) called on it before the update states the step's motion,
    /// so a turn stated by an earlier `set_transform_spinning` is dropped.
    pub fn set_transform(
        &mut self,
        handle: ColliderHandle,
        xf: Transform,
    ) -> Result<(), WorldError> {
        // One look-up of the slot, and the tree's update called directly: the move is checked
        // here, so the tree checks only its proxy id.
        check_transform(&xf)?;
        let entry = live_entry_mut(&mut self.slots, handle)?;
        let (placement, aabb) = plan_entry_move(entry, &xf)?;
        if let Some(proxy) = entry.proxy {
            match &mut self.broad {
                Broad::Tree(tree) => tree.update_valid(proxy, aabb)?,
                broad => broad.get_mut().update(proxy, aabb)?,
            }
        }
        entry.collider.transform = xf;
        entry.placement = placement;
        self.mark_dirty(handle);
        self.continuous.clear_turn(handle.index);
        Ok(())
    }

    /// Whether the collider slots take fewer than [`ASK_AHEAD_FROM_SLOT_BYTES`]: the world's
    /// data then stays in cache between frames, and loops read it without asking ahead.
    #[inline]
    fn stays_in_cache(&self) -> bool {
        std::mem::size_of_val(self.slots.as_slice()) < ASK_AHEAD_FROM_SLOT_BYTES
    }

    /// Moves many colliders' objects: the same as [`set_transform`](World::set_transform) on
    /// each `(handle, transform)` in order, but faster when there are many: in a world too large
    /// for the cache, the colliders are read a batch at a time so that the batch's cache misses
    /// overlap, and the broad phase takes all the moves in one [`BroadPhase::update_many`]
    /// (a smaller world's tree takes them one at a time, as single moves do).
    ///
    /// All or nothing: every move is checked first, and if one is refused (stale handle, bad
    /// transform) nothing moves and its error is returned.
    ///
    /// ```
    /// use collide2d::shape::{Circle, Shape};
    /// use collide2d::world::{Collider, World};
    /// use collide2d::{Transform, Vec2};
    ///
    /// let mut world = World::new();
    /// let ball = Shape::from(Circle::with_radius(0.5)?);
    /// let handles: Vec<_> = (0..3)
    ///     .map(|i| world.insert(Collider::new(ball.clone()).with_transform(Transform::new(Vec2::new(3.0 * i as f32, 0.0), 0.0))))
    ///     .collect::<Result<_, _>>()?;
    /// let moves: Vec<_> = handles
    ///     .iter()
    ///     .map(|&h| (h, Transform::new(Vec2::new(0.1 * h.index() as f32, 0.0), 0.0)))
    ///     .collect();
    /// world.set_transforms(&moves)?;
    /// assert_eq!(world.update().began, 3); // now all three overlap: three `Begin`s
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_transforms(
        &mut self,
        moves: &[(ColliderHandle, Transform)],
    ) -> Result<(), WorldError> {
        let mut planned = std::mem::take(&mut self.scratch.moves);
        let checked = self.plan_moves(moves, &mut planned);
        let mut applied = checked;
        if applied.is_ok() {
            // The broad phase takes the whole batch in one call (which reads its records
            // ahead); it cannot refuse it, as every handle and box was just checked, and a
            // refusal would change nothing there, so nothing here changes either.
            let mut proxy_moves = std::mem::take(&mut self.scratch.proxy_moves);
            proxy_moves.clear();
            proxy_moves.extend(
                planned
                    .iter()
                    .filter_map(|&(_, aabb, proxy)| Some((proxy?, aabb))),
            );
            #[cfg(feature = "rayon")]
            if let Broad::Tree(tree) = &mut self.broad {
                if moves.len() >= PARALLEL_MOVES && rayon::current_num_threads() > 1 {
                    // The tree's serial leaf updates run beside the world's own writes.
                    applied = tree.write_moves(&proxy_moves).map_err(WorldError::from);
                    if applied.is_ok() {
                        let mut tree = std::mem::take(tree);
                        rayon::join(
                            || tree.enlarge_leavers(),
                            || applied = self.place_all(moves, &planned, false),
                        );
                        self.broad = Broad::Tree(tree);
                    }
                    self.scratch.proxy_moves = proxy_moves;
                    self.scratch.moves = planned;
                    if applied.is_ok() {
                        self.clear_turns(moves);
                    }
                    return applied;
                }
            }
            let in_cache = self.stays_in_cache();
            applied = match &mut self.broad {
                // A world in cache: the tree takes the moves one at a time, as single moves
                // do, each leaf placed at once (the batch's two steps, which let the leaves'
                // misses overlap, would cost more than they save).
                Broad::Tree(tree) if in_cache => proxy_moves
                    .iter()
                    .try_for_each(|&(proxy, aabb)| tree.update_valid(proxy, aabb))
                    .map_err(WorldError::from),
                broad => broad
                    .get_mut()
                    .update_many(&proxy_moves)
                    .map_err(WorldError::from),
            };
            self.scratch.proxy_moves = proxy_moves;
        }
        if applied.is_ok() {
            applied = self.place_all(moves, &planned, true);
        }
        self.scratch.moves = planned;
        if applied.is_ok() {
            self.clear_turns(moves);
        }
        applied
    }

    /// Drops the stated turns of the continuous colliders a `set_transforms` batch moved (a
    /// move states the step's motion, as [`set_transform`](World::set_transform) does).
    fn clear_turns(&mut self, moves: &[(ColliderHandle, Transform)]) {
        if self.continuous.count() == 0 {
            return;
        }
        for &(handle, _) in moves {
            self.continuous.clear_turn(handle.index);
        }
    }

    /// The part of a checked `set_transforms` batch outside the broad phase: [`World::place`]
    /// for each move in order. With the `rayon` feature, `split` and at least
    /// [`PARALLEL_MOVES`] moves, the slots are cut into one range a thread (`crate::slot_ranges`) and each thread writes,
    /// in move order, the transforms, placements and changed bits of the colliders in its
    /// range (so a collider moved twice ends with its last move), noting the moves that marked
    /// their collider changed; the notes, visited in move order, list the changed colliders.
    /// The same colliders, placements and changed list as one move at a time. (Beside the
    /// tree's own serial writes, on the other side of a `rayon::join`, it runs unsplit.)
    fn place_all(
        &mut self,
        moves: &[(ColliderHandle, Transform)],
        planned: &[(Transform, Aabb, Option<ProxyId>)],
        split: bool,
    ) -> Result<(), WorldError> {
        #[cfg(not(feature = "rayon"))]
        let _ = split;
        #[cfg(feature = "rayon")]
        if split && moves.len() >= PARALLEL_MOVES && rayon::current_num_threads() > 1 {
            // The changed bits are written here directly, not through `mark_dirty`.
            self.forget_batch_grid();
            use crate::slot_ranges;
            use rayon::prelude::*;
            let slot_count = self.slots.len();
            let words = slot_count.div_ceil(64);
            if self.dirty_bits.len() < words {
                self.dirty_bits.resize(words, 0);
            }
            let range_len = slot_ranges::range_len(slot_count, rayon::current_num_threads());
            let range_count = slot_count.div_ceil(range_len);
            let mut notes = std::mem::take(&mut self.scratch.move_notes);
            notes.resize_with(range_count, Vec::new);
            self.slots
                .par_chunks_mut(range_len)
                .zip(self.dirty_bits.par_chunks_mut(range_len / 64))
                .zip(notes.par_iter_mut())
                .enumerate()
                .for_each(|(range, ((slots, dirty_bits), notes))| {
                    let first_slot = range * range_len;
                    slot_ranges::positions_in_range(
                        moves,
                        |&(handle, _)| handle.index as usize,
                        first_slot,
                        slots.len(),
                        notes,
                    );
                    // Keep only the moves that mark their collider changed.
                    notes.retain(|&position| {
                        let (handle, xf) = moves[position as usize];
                        let local = handle.index as usize - first_slot;
                        // Every handle is live, as just checked by the plan.
                        let slot = &mut slots[local];
                        let live = slot.generation == handle.generation;
                        if let Some(entry) = slot.entry.as_mut().filter(|_| live) {
                            entry.collider.transform = xf;
                            entry.placement = planned[position as usize].0;
                        }
                        let (word, bit) = (&mut dirty_bits[local / 64], 1u64 << (local % 64));
                        let first_mark = *word & bit == 0;
                        *word |= bit;
                        first_mark
                    });
                });
            let dirty = &mut self.dirty;
            slot_ranges::for_each_in_batch_order(
                &notes[..range_count],
                moves.len(),
                |position| moves[position].0.index as usize / range_len,
                |&position| position,
                |position| dirty.push(moves[position as usize].0),
            );
            self.scratch.move_notes = notes;
            return Ok(());
        }
        for (&(handle, xf), &(placement, _, _)) in moves.iter().zip(planned) {
            // Cannot fail: the handle is live, as just checked.
            self.place(handle, xf, placement)?;
        }
        Ok(())
    }

    /// Checks every move of a `set_transforms` batch into `planned` (one plan a move, in
    /// order), or returns the error of the first move refused. A world too large for the cache
    /// asks for each batch of [`MOVE_BATCH`] colliders first. With the `rayon` feature and at
    /// least [`PARALLEL_MOVES`] moves, parts of the batch are checked on the threads of the
    /// current pool, each writing its part of `planned` (reads only otherwise); the plans and
    /// the error are the same.
    fn plan_moves(
        &self,
        moves: &[(ColliderHandle, Transform)],
        planned: &mut Vec<(Transform, Aabb, Option<ProxyId>)>,
    ) -> Result<(), WorldError> {
        /// Plans a part of the batch into `planned` (as long), in order, stopping at its first
        /// refused move.
        fn plan_part(
            world: &World,
            part: &[(ColliderHandle, Transform)],
            planned: &mut [(Transform, Aabb, Option<ProxyId>)],
        ) -> Result<(), WorldError> {
            if world.stays_in_cache() {
                for ((handle, xf), plan) in part.iter().zip(planned) {
                    *plan = world.plan_move(*handle, xf)?;
                }
                return Ok(());
            }
            for (batch, batch_plans) in part.chunks(MOVE_BATCH).zip(planned.chunks_mut(MOVE_BATCH))
            {
                // Ask for the batch's colliders and outlines first, so that their misses overlap.
                for entry in batch
                    .iter()
                    .filter_map(|&(handle, _)| world.entry(handle).ok())
                {
                    prefetch_item(&entry.collider.offset);
                    prefetch_shape_heap(&entry.collider.shape);
                }
                for ((handle, xf), plan) in batch.iter().zip(batch_plans) {
                    *plan = world.plan_move(*handle, xf)?;
                }
            }
            Ok(())
        }
        // Only growth is filled: every plan is written below.
        planned.truncate(moves.len());
        planned.resize(moves.len(), (Transform::IDENTITY, Aabb::default(), None));
        #[cfg(feature = "rayon")]
        if moves.len() >= PARALLEL_MOVES && rayon::current_num_threads() > 1 {
            use rayon::prelude::*;
            let part_len = moves.len().div_ceil(4 * rayon::current_num_threads());
            // The first refused move of the batch is the first of the first part with one.
            let first_refused = planned
                .par_chunks_mut(part_len)
                .zip(moves.par_chunks(part_len))
                .enumerate()
                .filter_map(|(position, (part_plans, part))| {
                    plan_part(self, part, part_plans)
                        .err()
                        .map(|error| (position, error))
                })
                .min_by_key(|&(position, _)| position);
            return match first_refused {
                Some((_, error)) => Err(error),
                None => Ok(()),
            };
        }
        plan_part(self, moves, planned)
    }

    /// Checks a move of `handle`'s object to `xf` and returns the collider's new placement and
    /// box, and its broad-phase proxy (see [`plan_entry_move`]).
    #[inline]
    fn plan_move(
        &self,
        handle: ColliderHandle,
        xf: &Transform,
    ) -> Result<(Transform, Aabb, Option<ProxyId>), WorldError> {
        check_transform(xf)?;
        let entry = self.entry(handle)?;
        let (placement, aabb) = plan_entry_move(entry, xf)?;
        Ok((placement, aabb, entry.proxy))
    }

    /// The part of a checked move outside the broad phase: the collider's transform and
    /// placement, and its pairs to re-test.
    #[inline]
    fn place(
        &mut self,
        handle: ColliderHandle,
        xf: Transform,
        placement: Transform,
    ) -> Result<(), WorldError> {
        let entry = live_entry_mut(&mut self.slots, handle)?;
        entry.collider.transform = xf;
        entry.placement = placement;
        self.mark_dirty(handle);
        Ok(())
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

    /// Sets a collider's collision groups (see [`CollisionGroups`]).
    pub fn set_groups(
        &mut self,
        handle: ColliderHandle,
        groups: CollisionGroups,
    ) -> Result<(), WorldError> {
        self.modify(handle, |c| c.groups = groups)
    }

    /// Makes a collider a sensor or solid.
    ///
    /// A pair it touches that changes kind by this (a solid pair becoming a sensor pair, or
    /// back) ends at the next update with [`EndReason::SensorChanged`] and, when the two still
    /// touch, begins again as the other kind right after its `End`, in the same update.
    pub fn set_sensor(&mut self, handle: ColliderHandle, sensor: bool) -> Result<(), WorldError> {
        self.modify(handle, |c| c.sensor = sensor)
    }

    /// Sets the game's data of a collider. Events written from the next update on carry it,
    /// the `End` of a pair it left since the last update included.
    pub fn set_user_data(&mut self, handle: ColliderHandle, data: u64) -> Result<(), WorldError> {
        // A pair it left since the last update (disabled, or its partner removed) ends with
        // its data as of that update, like every other event (`PendingEnd::settled`).
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

    /// Makes a collider one-way (see [`OneWay`]; the direction need not be unit) or, with
    /// `None`, two-way. Its contacts are judged again at the next update: one it still has
    /// goes on without an end and a begin. A zero or non-finite direction or a negative or
    /// non-finite margin is refused with [`WorldError::InvalidOneWay`].
    pub fn set_one_way(
        &mut self,
        handle: ColliderHandle,
        one_way: Option<OneWay>,
    ) -> Result<(), WorldError> {
        self.modify(handle, |c| c.one_way = one_way)
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
                if entry.collider.sensor != before.sensor {
                    self.touching.note_kind_change();
                }
                entry.proxy = proxy;
                entry.collider_changed();
                self.mark_dirty(handle);
                if left_broad_phase {
                    self.detach(handle, EndReason::Disabled);
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
        live_or_stale(
            self.slots
                .get(handle.index as usize)
                .filter(|slot| slot.generation == handle.generation)
                .and_then(|slot| slot.entry.as_ref()),
            handle,
        )
    }

    fn entry_mut(&mut self, handle: ColliderHandle) -> Result<&mut Entry, WorldError> {
        live_entry_mut(&mut self.slots, handle)
    }

    /// Records that a live collider changed: its pairs are re-tested at the next update, and
    /// the batch grid is dropped.
    #[inline]
    fn mark_dirty(&mut self, handle: ColliderHandle) {
        self.forget_batch_grid();
        let (word, bit) = (handle.index as usize / 64, 1u64 << (handle.index % 64));
        if word >= self.dirty_bits.len() {
            self.grow_dirty_bits(word + 1);
        }
        if self.dirty_bits[word] & bit == 0 {
            self.dirty_bits[word] |= bit;
            self.dirty.push(handle);
        }
    }

    /// Lengthens the changed bits to `words` words (out of line: a new slot's first change).
    #[cold]
    #[inline(never)]
    fn grow_dirty_bits(&mut self, words: usize) {
        self.dirty_bits.resize(words, 0);
    }

    /// Clears a slot's changed bit (after an update, or when its collider is removed).
    fn clear_dirty(&mut self, index: u32) {
        if let Some(word) = self.dirty_bits.get_mut(index as usize / 64) {
            *word &= !(1u64 << (index % 64));
        }
    }

    /// Whether the live collider in slot `index` changed since the last update.
    #[inline]
    fn is_dirty(&self, index: u32) -> bool {
        bit_is_set(&self.dirty_bits, index)
    }

    /// Whether the layer matrix and filter bits let two colliders interact.
    fn pair_allowed(&self, a: &PairFilter, b: &PairFilter) -> bool {
        self.layers.collides(a.layer, b.layer) && a.groups.interacts_with(b.groups)
    }

    /// The events of the last update in pair order: `Begin`, `End` and, when reported (see
    /// [`World::set_report_stay`]), `Stay`.
    pub fn events(&self) -> &[CollisionEvent] {
        self.touching.events()
    }

    /// The last update's `Begin` events, in pair order (without walking the `Stay` events).
    pub fn began(&self) -> &[CollisionEvent] {
        self.touching.began()
    }

    /// The last update's `End` events, in pair order (without walking the `Stay` events).
    pub fn ended(&self) -> &[CollisionEvent] {
        self.touching.ended()
    }

    /// Every pair touching as of the last update, in pair order, with its manifold (`None` for
    /// sensors). Pairs detached since by a removal or disabling are left out.
    pub fn contacts(
        &self,
    ) -> impl Iterator<Item = (ColliderHandle, ColliderHandle, Option<&Manifold>)> {
        self.touching.live()
    }

    /// The pairs `handle` touches as of the last update, as [`contacts`](World::contacts)
    /// gives them (`(a, b, manifold)` with `a < b`, so the normal points from `a` to `b`), in
    /// pair order; none for a stale handle. Costs one look-up per collider whose box overlaps
    /// `handle`'s.
    ///
    /// ```
    /// use collide2d::{shape::{Circle, Shape}, world::{Collider, World}, Transform, Vec2};
    /// let mut world = World::new();
    /// let ball = Shape::from(Circle::with_radius(0.5)?);
    /// let at = |x: f32| Transform::new(Vec2::new(x, 0.0), 0.0);
    /// let left = world.insert(Collider::new(ball.clone()).with_transform(at(-0.8)))?;
    /// let middle = world.insert(Collider::new(ball.clone()).with_transform(at(0.0)))?;
    /// let right = world.insert(Collider::new(ball).with_transform(at(0.8)))?;
    /// world.update();
    /// let partners: Vec<_> = world.contacts_of(middle).map(|(a, b, _)| if a == middle { b } else { a }).collect();
    /// assert_eq!(partners, [left, right]);
    /// assert_eq!(world.contacts_of(left).count(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn contacts_of(
        &self,
        handle: ColliderHandle,
    ) -> impl Iterator<Item = (ColliderHandle, ColliderHandle, Option<&Manifold>)> {
        let mut pairs: Vec<(ColliderHandle, ColliderHandle)> = match self.entry(handle) {
            Ok(entry) => entry
                .partners
                .iter()
                .map(|&partner| ordered(handle, partner))
                .collect(),
            Err(_) => Vec::new(),
        };
        // After a restore or origin shift, a touching pair may wait for its re-test without
        // its boxes overlapping.
        pairs.extend(
            self.retest_pending
                .iter()
                .filter(|&&(a, b)| a == handle || b == handle),
        );
        pairs.sort_unstable();
        pairs.dedup();
        pairs.into_iter().filter_map(move |pair| {
            let manifold = self.touching.manifold(pair)?;
            Some((pair.0, pair.1, manifold))
        })
    }

    /// Moves the world's origin to `new_origin`: every collider's object transform is shifted
    /// by `−new_origin`, so a game far from the origin can bring its action back to where `f32`
    /// is precise (call it when the player has travelled far; keep the same offset in the game's
    /// own coordinates).
    ///
    /// Nothing else changes: contacts stay (their manifolds are recomputed at the next update,
    /// which reports `Stay`, not `Begin`), handles stay valid, and the broad phase is rebuilt
    /// from the shifted boxes. Cost: one broad-phase rebuild, `O(n log n)`, and a narrow-phase
    /// re-test of every pair whose boxes overlap at the next update (positions are rounded by the
    /// shift, so a pair at the very edge of touching may tip either way).
    ///
    /// Errors (the world unchanged): [`WorldError::InvalidInput`] for a non-finite origin,
    /// [`WorldError::TransformOutOfRange`] when a shifted position would leave
    /// ±[`MAX_COORDINATE`](crate::shape::MAX_COORDINATE): a collider's object, its shape's
    /// placement (object and offset) or box, or where a continuous collider's next sweep
    /// starts.
    ///
    /// ```
    /// use collide2d::{shape::{Circle, Shape}, world::{Collider, World}, Transform, Vec2};
    /// let mut world = World::new();
    /// let far = Vec2::new(1.0e6, -2.0e6);
    /// let ball = Shape::from(Circle::with_radius(0.5)?);
    /// let a = world.insert(Collider::new(ball.clone()).with_transform(Transform::new(far, 0.0)))?;
    /// let b = world.insert(Collider::new(ball).with_transform(Transform::new(far + Vec2::new(0.75, 0.0), 0.0)))?;
    /// assert_eq!(world.update().began, 1);
    /// world.shift_origin(far)?;
    /// assert_eq!(world.get(a)?.transform().p, Vec2::ZERO);
    /// assert_eq!(world.get(b)?.transform().p, Vec2::new(0.75, 0.0));
    /// world.update();
    /// assert!(matches!(world.events()[0], collide2d::world::CollisionEvent::Stay { .. }));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn shift_origin(&mut self, new_origin: Vec2) -> Result<(), WorldError> {
        let new_origin = check_vector(new_origin, "origin")?;
        // Everything that can fail comes first, so an error leaves the world unchanged: every
        // shifted transform, the placement and box it gives (an offset can carry the shape out
        // of range where its object is not), each continuous collider's remembered placement,
        // and the fresh broad phase.
        let mut moved = Vec::with_capacity(self.live);
        let mut broad = Broad::new(self.broad_kind)?;
        for (index, slot) in self.slots.iter().enumerate() {
            let Some(entry) = &slot.entry else {
                continue;
            };
            let mut xf = entry.collider.transform;
            xf.p -= new_origin;
            check_transform(&xf)?;
            let (placement, aabb) = plan_entry_move(entry, &xf)?;
            let proxy = match entry.proxy {
                Some(_) => {
                    let handle = ColliderHandle {
                        index: index as u32,
                        generation: slot.generation,
                    };
                    Some(broad.get_mut().insert(aabb, handle.to_key())?)
                }
                None => None,
            };
            moved.push((index, xf, placement, proxy));
        }
        self.continuous.check_shift(new_origin)?;
        self.forget_batch_grid();
        for (index, xf, placement, proxy) in moved {
            let Some(entry) = &mut self.slots[index].entry else {
                continue; // listed above as live
            };
            entry.collider.transform = xf;
            entry.placement = placement;
            entry.partners.clear();
            entry.proxy = proxy;
        }
        // The fresh broad phase reports every overlapping pair as begun: those are the partner
        // lists, exactly as before the shift up to rounding.
        let began = broad.get_mut().update_pairs().began.clone();
        self.broad = broad;
        self.box_pairs = 0;
        self.continuous.shift(new_origin);
        for pair in began {
            let broad = self.broad.get();
            let (Ok(a), Ok(b)) = (broad.key(pair.lower()), broad.key(pair.higher())) else {
                continue;
            };
            let (a, b) = (ColliderHandle::from_key(a), ColliderHandle::from_key(b));
            if let Ok(entry) = self.entry_mut(a) {
                entry.partners.push(b);
            }
            if let Ok(entry) = self.entry_mut(b) {
                entry.partners.push(a);
            }
            self.box_pairs += 1;
            // Shifting rounds positions, which can tip a pair at the edge of touching either
            // way; and stored manifolds hold world points: re-test every box pair.
            self.retest_pending.push(ordered(a, b));
        }
        self.retest_pending
            .extend(self.touching.live().map(|(a, b, _)| (a, b)));
        Ok(())
    }

    /// Whether a collider touched anything at the last update: whether
    /// [`contacts_of`](World::contacts_of) lists a pair.
    pub fn is_touching(&self, handle: ColliderHandle) -> bool {
        self.entry(handle).is_ok_and(|entry| {
            entry
                .partners
                .iter()
                .any(|&p| self.touching.contains(ordered(handle, p)))
                // A pair a continuous collider's sweep touched, or one waiting for its re-test
                // after a restore or origin shift, may touch without its boxes overlapping.
                || self
                    .retest_pending
                    .iter()
                    .any(|&(a, b)| (a == handle || b == handle) && self.touching.contains((a, b)))
        })
    }
}

/// The live entry `handle` names in `slots` (see [`World::entry_mut`]).
#[inline]
fn live_entry_mut(slots: &mut [Slot], handle: ColliderHandle) -> Result<&mut Entry, WorldError> {
    live_or_stale(
        slots
            .get_mut(handle.index as usize)
            .filter(|slot| slot.generation == handle.generation)
            .and_then(|slot| slot.entry.as_mut()),
        handle,
    )
}

/// The new placement and box of `entry`'s collider when its object moves to `xf` (already
/// checked), or the error that refuses the move. Only the object transform changes: the rest of
/// the collider was checked when it was set, so checking the new placement and box is all
/// `Collider::validate` would add.
#[inline(always)]
fn plan_entry_move(entry: &Entry, xf: &Transform) -> Result<(Transform, Aabb), WorldError> {
    let placement = xf.mul(&entry.collider.offset);
    check_placement_transform(&placement)?;
    let aabb = padded_aabb_of_valid(&entry.collider.shape, &placement);
    check_placed_box(&aabb)?;
    Ok((placement, aabb))
}

/// `found`, or the stale-handle error for `handle`. The error is built only when returned:
/// `WorldError` owns strings in other variants, so an error built eagerly (`ok_or`) is dropped
/// through its drop glue on every successful lookup.
#[inline]
fn live_or_stale<T>(found: Option<T>, handle: ColliderHandle) -> Result<T, WorldError> {
    match found {
        Some(entry) => Ok(entry),
        None => Err(WorldError::StaleHandle(handle)),
    }
}

/// Whether bit `index` of a bit vector is set (bits past its end are clear).
#[inline]
fn bit_is_set(bits: &[u64], index: u32) -> bool {
    bits.get(index as usize / 64)
        .is_some_and(|word| word & (1u64 << (index % 64)) != 0)
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

/// Asks for the heap blocks a pair test reads of `shape` (a polygon's outline, a compound's child
/// boxes), so that a batch of tests finds them in cache. Changes nothing.
#[inline]
pub(crate) fn prefetch_shape_heap(shape: &Shape) {
    match shape {
        Shape::Polygon(polygon) => {
            if let Some(outline) = polygon.padded_outline() {
                prefetch_item(outline);
            }
            prefetch(polygon.vertices(), 0);
            prefetch(polygon.normals(), 0);
        }
        Shape::Compound(compound) => prefetch(compound.child_aabbs(), 0),
        Shape::Circle(_) | Shape::Capsule(_) | Shape::Segment(_) | Shape::Chain(_) => {}
    }
}

/// Checks a vector from the user.
pub(crate) fn check_vector(v: Vec2, what: &'static str) -> Result<Vec2, WorldError> {
    if v.is_finite() {
        Ok(v)
    } else {
        Err(WorldError::InvalidInput(what))
    }
}

/// Checks that a motion by `delta` (finite) from the position `from` (within range) ends
/// within ±[`MAX_COORDINATE`](crate::shape::MAX_COORDINATE); a sum that overflows `f32` is
/// beyond it too. Casts and moves refuse such a motion rather than answer "nothing hit": the
/// narrow phase cannot run it (a sweep out of range gives no hit).
pub(crate) fn check_motion_end(from: Vec2, delta: Vec2) -> Result<(), WorldError> {
    if (from + delta).abs().max_element() <= crate::shape::MAX_COORDINATE {
        Ok(())
    } else {
        Err(WorldError::TransformOutOfRange)
    }
}
#[cfg(test)]
mod layout_tests {
    use super::*;

    #[test]
    fn what_a_pair_test_reads_is_the_first_cache_line_of_a_slot() {
        let slot = Slot {
            generation: 0,
            entry: Some(Entry::new(
                Collider::new(crate::shape::Shape::from(
                    crate::shape::Circle::with_radius(1.0).unwrap(),
                )),
                None,
            )),
        };
        let base = &slot as *const Slot as usize;
        let entry = slot.entry.as_ref().unwrap();
        let end_of = |address: usize, size: usize| address + size - base;
        assert_eq!(base % 64, 0);
        assert!(
            end_of(
                &entry.placement as *const _ as usize,
                std::mem::size_of::<Transform>()
            ) <= 64
        );
        assert!(
            end_of(
                &entry.filter as *const _ as usize,
                std::mem::size_of::<PairFilter>()
            ) <= 64
        );
        assert!(
            end_of(
                &entry.collider.shape as *const _ as usize,
                std::mem::size_of::<crate::shape::Shape>()
            ) <= 64
        );
    }
}

#[cfg(test)]
mod capacity_tests {
    use super::*;
    use crate::shape::{Circle, Shape};

    fn ball_at(x: f32) -> Collider {
        Collider::new(Shape::from(Circle::with_radius(0.5).unwrap()))
            .with_transform(Transform::from_translation(crate::Vec2::new(x, 0.0)))
    }

    #[test]
    fn inserting_the_reserved_count_moves_no_per_collider_array() {
        for count in [1usize, 63, 64, 65, 1000] {
            let mut world = World::with_capacity(count);
            let slots = (world.slots.as_ptr(), world.slots.capacity());
            let dirty = (world.dirty.as_ptr(), world.dirty.capacity());
            let bits = (world.dirty_bits.as_ptr(), world.dirty_bits.capacity());
            for i in 0..count {
                world.insert(ball_at(i as f32 * 2.0)).unwrap();
            }
            assert_eq!(world.len(), count);
            assert_eq!((world.slots.as_ptr(), world.slots.capacity()), slots);
            assert_eq!((world.dirty.as_ptr(), world.dirty.capacity()), dirty);
            assert_eq!(
                (world.dirty_bits.as_ptr(), world.dirty_bits.capacity()),
                bits
            );
        }
    }

    #[test]
    fn freed_slots_count_as_room_and_reserve_after_inserts_adds_to_them() {
        let mut world = World::new();
        let handles: Vec<_> = (0..10)
            .map(|i| world.insert(ball_at(i as f32)).unwrap())
            .collect();
        world.update();
        for handle in &handles[..4] {
            world.remove(*handle).unwrap();
        }
        world.update();
        world.reserve(20);
        let slots = (world.slots.as_ptr(), world.slots.capacity());
        assert!(world.slots.capacity() >= 10 + 16);
        for i in 0..20 {
            world.insert(ball_at(100.0 + i as f32)).unwrap();
        }
        assert_eq!(world.len(), 26);
        assert_eq!((world.slots.as_ptr(), world.slots.capacity()), slots);
    }

    #[test]
    fn a_slot_at_the_last_generation_is_retired_not_reused() {
        for many in [false, true] {
            let mut world = World::new();
            let first = world.insert(ball_at(0.0)).unwrap();
            world.update();
            // As after 2³² − 1 removals from slot 0.
            world.slots[0].generation = u32::MAX;
            let last = ColliderHandle {
                index: 0,
                generation: u32::MAX,
            };
            assert!(world.contains(last) && !world.contains(first));
            if many {
                world.remove_many(&[last]).unwrap();
            } else {
                world.remove(last).unwrap();
            }
            assert!(world.free.is_empty());
            // The next colliders take fresh slots; no handle to slot 0, of any generation,
            // names a collider again (a wrapped counter would revive `first`).
            let next: Vec<_> = (0..3)
                .map(|i| world.insert(ball_at(i as f32)).unwrap())
                .collect();
            assert!(next.iter().all(|h| h.index != 0));
            assert!(!world.contains(first) && !world.contains(last));
            assert_eq!(world.len(), 3);
            assert!(matches!(
                world.remove(last),
                Err(WorldError::StaleHandle(_))
            ));
            // The retired slot survives a snapshot, and stays retired.
            let mut restored = World::restore(world.snapshot()).unwrap();
            assert!(!restored.contains(first) && !restored.contains(last));
            let again = restored.insert(ball_at(9.0)).unwrap();
            assert_ne!(again.index, 0);
            assert_eq!(world.insert(ball_at(9.0)).unwrap(), again);
            restored.update();
            world.update();
            assert_eq!(restored.events(), world.events());
        }
    }

    #[test]
    fn a_reserved_world_reports_the_same_events_as_a_growing_one() {
        let mut reserved = World::with_capacity(50);
        let mut growing = World::new();
        for i in 0..50 {
            // Overlapping neighbours: every ball touches the next one.
            reserved.insert(ball_at(i as f32 * 0.9)).unwrap();
            growing.insert(ball_at(i as f32 * 0.9)).unwrap();
        }
        reserved.update();
        growing.update();
        assert_eq!(reserved.events(), growing.events());
        assert_eq!(reserved.events().len(), 49);
    }
}
