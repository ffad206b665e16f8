//! Broad phase: find the pairs of boxes that overlap, and boxes hit by queries, without testing
//! every pair.
//!
//! Three structures implement one [`BroadPhase`] trait and give exactly the same answers:
//!
//! | structure | best for |
//! |---|---|
//! | [`DynamicTree`] (default) | any scene; fat boxes make small motions free |
//! | [`HashGrid`] | many boxes of similar size; cell size near the typical box size |
//! | [`SweepAndPrune`] | scenes spread along one axis, mostly small motions |
//!
//! **Conventions.** A proxy is one box with a user key. Boxes are closed: boxes that only touch
//! overlap (as [`Aabb::overlaps`]). Pairs, queries and ray hits always use the exact ("tight")
//! box given to `insert`/`update`; enlarged boxes are an internal detail. Pair finding comes in two
//! forms: [`BroadPhase::update_pairs`] reports what began and ended since the previous call,
//! costing about `O(k log n)` for `k` moved proxies out of `n` (when half or more of a few hundred
//! or more moved, it finds every pair from scratch with a dense grid pass and reports the
//! difference, which is then cheaper), and [`BroadPhase::for_each_pair`] finds every pair from
//! scratch. Orders are deterministic: the same operations in the same order
//! give the same output.
//!
//! **Memory.** On Linux, the large arrays of a broad phase (every structure's exact boxes, keys
//! and generations; the tree's nodes, slot records and partner lists) are advised for
//! transparent huge pages once they reach 4 MiB (from roughly 100,000 proxies). That spares a
//! large scene most of its address-translation misses, at the cost of at most one partly used
//! 2 MiB page per array. Where the system declines, nothing changes but speed.

/// The [`BroadPhase`] methods that only look an id up in the structure's `proxies`
/// ([`proxy_table::ProxyTable`]): the same in every structure.
macro_rules! proxy_table_lookups {
    () => {
        fn len(&self) -> usize {
            self.proxies.len()
        }

        fn contains(&self, id: ProxyId) -> bool {
            self.proxies.resolve(id).is_ok()
        }

        fn get_aabb(&self, id: ProxyId) -> Result<Aabb, BroadPhaseError> {
            Ok(self.proxies.tight[self.proxies.resolve(id)?])
        }

        fn key(&self, id: ProxyId) -> Result<u64, BroadPhaseError> {
            Ok(self.proxies.keys[self.proxies.resolve(id)?])
        }
    };
}

mod error;
mod fx_hasher;
mod pairs;
mod proxy_id;
mod proxy_table;
mod ray;

pub mod dynamic_tree;
pub mod hash_grid;
pub mod sweep_and_prune;

pub(crate) use error::check_aabb;
pub use error::BroadPhaseError;
pub(crate) use fx_hasher::FxBuildHasher;
pub use pairs::{Pair, PairChanges};
pub use proxy_id::ProxyId;
pub use ray::{ray_entry_distance, ProxyRayHit, RayControl, RAY_PADDING};

pub use dynamic_tree::DynamicTree;
pub use hash_grid::HashGrid;
pub use sweep_and_prune::SweepAndPrune;

use crate::math::Vec2;
use crate::shape::Aabb;

/// A structure that stores boxes and finds overlapping pairs and query hits quickly.
///
/// Every method that takes a box or id checks it and returns [`BroadPhaseError`] instead of
/// panicking; a refused call changes nothing.
///
/// ```
/// use collide2d::broad::{BroadPhase, DynamicTree, RayControl};
/// use collide2d::{Aabb, Vec2};
///
/// let mut tree = DynamicTree::new();
/// let a = tree.insert(Aabb { min: Vec2::ZERO, max: Vec2::ONE }, 10)?;
/// let b = tree.insert(Aabb { min: Vec2::new(2.0, 0.0), max: Vec2::new(3.0, 1.0) }, 20)?;
/// assert!(tree.update_pairs().began.is_empty());
///
/// // Move b so that it touches a: the pair begins.
/// tree.update(b, Aabb { min: Vec2::new(1.0, 0.0), max: Vec2::new(2.0, 1.0) })?;
/// let changes = tree.update_pairs();
/// assert_eq!(changes.began.len(), 1);
/// assert_eq!((changes.began[0].lower(), changes.began[0].higher()), (a, b));
///
/// // A ray along y = 0.5 enters a first, at distance 1.
/// let mut hits = Vec::new();
/// tree.ray_cast_each(Vec2::new(-1.0, 0.5), Vec2::X, 10.0, &mut |hit| {
///     hits.push((hit.key, hit.distance));
///     RayControl::Continue
/// })?;
/// assert_eq!(hits.iter().map(|hit| hit.0).collect::<Vec<_>>(), vec![10, 20]);
/// // The boxes are entered grown by a few ulps (see `ray_entry_distance`).
/// assert!((hits[0].1 - 1.0).abs() < 1e-5 && (hits[1].1 - 2.0).abs() < 1e-5);
///
/// tree.remove(a)?;
/// assert!(tree.remove(a).is_err()); // stale id
/// assert_eq!(tree.update_pairs().ended.len(), 1);
/// # Ok::<(), collide2d::broad::BroadPhaseError>(())
/// ```
pub trait BroadPhase {
    /// Stores a box with a user key and returns its id.
    fn insert(&mut self, aabb: Aabb, key: u64) -> Result<ProxyId, BroadPhaseError>;

    /// Replaces the box of a live proxy.
    fn update(&mut self, id: ProxyId, aabb: Aabb) -> Result<(), BroadPhaseError>;

    /// Replaces the boxes of many live proxies, in order: the same as calling
    /// [`update`](Self::update) for each `(id, box)`, so a later move of an id wins. Every move
    /// is checked before any is applied: a refused batch changes nothing. Structures that can
    /// overlap the memory traffic of many moves do so (the tree moves the leaves that left their
    /// fat boxes after all exact boxes are written, reading each one's nodes a few leaves ahead).
    ///
    /// ```
    /// use collide2d::broad::{BroadPhase, BroadPhaseError, DynamicTree};
    /// use collide2d::{Aabb, Vec2};
    ///
    /// let unit = |x: f32| Aabb { min: Vec2::new(x, 0.0), max: Vec2::new(x + 1.0, 1.0) };
    /// let mut tree = DynamicTree::new();
    /// let a = tree.insert(unit(0.0), 1)?;
    /// let b = tree.insert(unit(5.0), 2)?;
    /// tree.update_pairs();
    ///
    /// // A NaN box anywhere in the batch refuses all of it.
    /// let bad = Aabb { min: Vec2::NAN, max: Vec2::ONE };
    /// assert!(tree.update_many(&[(a, unit(0.5)), (b, bad)]).is_err());
    /// assert_eq!(tree.get_aabb(a)?, unit(0.0));
    ///
    /// tree.update_many(&[(a, unit(2.0)), (b, unit(2.5))])?;
    /// assert_eq!(tree.update_pairs().began.len(), 1);
    /// # Ok::<(), BroadPhaseError>(())
    /// ```
    fn update_many(&mut self, moves: &[(ProxyId, Aabb)]) -> Result<(), BroadPhaseError> {
        for &(id, aabb) in moves {
            self.get_aabb(id)?;
            check_aabb(aabb)?;
        }
        for &(id, aabb) in moves {
            self.update(id, aabb)?;
        }
        Ok(())
    }

    /// Removes a proxy; its reported pairs end at the next [`update_pairs`](Self::update_pairs).
    fn remove(&mut self, id: ProxyId) -> Result<(), BroadPhaseError>;

    /// Number of live proxies.
    fn len(&self) -> usize;

    /// Whether no proxy is stored.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether `id` names a live proxy.
    fn contains(&self, id: ProxyId) -> bool;

    /// The exact box of a live proxy.
    fn get_aabb(&self, id: ProxyId) -> Result<Aabb, BroadPhaseError>;

    /// The user key of a live proxy.
    fn key(&self, id: ProxyId) -> Result<u64, BroadPhaseError>;

    /// Pairs that began and ended overlapping since the previous call (the first call reports
    /// every pair as begun). Costs about `O(k log n + k d)` for `k` inserted or updated proxies
    /// with `d` partners each; `O(n + pairs)` when half or more of `n ≥ 256` proxies changed
    /// (then every pair is found from scratch and compared with the last report).
    fn update_pairs(&mut self) -> &PairChanges;

    /// Every overlapping pair as of the last [`update_pairs`](Self::update_pairs), sorted.
    fn current_pairs(&self) -> Vec<Pair>;

    /// Calls `callback` once for every overlapping pair, found from scratch, in a deterministic
    /// order particular to the structure.
    fn for_each_pair(&self, callback: &mut dyn FnMut(Pair));

    /// Visits the structure's own boxes, for drawing: `(box, level)`. The tree gives every
    /// node's fat box with its height (0 for leaves); structures without boxes of their own
    /// (the grid's cells follow from its cell size; sweep-and-prune keeps intervals) give none.
    fn for_each_structure_box(&self, visit: &mut dyn FnMut(Aabb, u32)) {
        let _ = visit;
    }

    /// Every overlapping pair found from scratch, sorted.
    fn find_pairs(&self) -> Vec<Pair> {
        let mut pairs = Vec::new();
        self.for_each_pair(&mut |pair| pairs.push(pair));
        pairs.sort_unstable();
        pairs
    }

    /// Calls `callback(id, key)` for every proxy whose box overlaps `aabb`, until it returns
    /// `false`. An invalid `aabb` (NaN, inverted) matches nothing.
    fn overlap_aabb_each(&self, aabb: Aabb, callback: &mut dyn FnMut(ProxyId, u64) -> bool);

    /// Calls `callback(id, key)` for every proxy whose box contains `point`, until it returns
    /// `false`.
    fn overlap_point_each(&self, point: Vec2, callback: &mut dyn FnMut(ProxyId, u64) -> bool) {
        self.overlap_aabb_each(
            Aabb {
                min: point,
                max: point,
            },
            callback,
        );
    }

    /// Visits the boxes entered by the ray from `origin` along `direction` (normalised here)
    /// within `max_distance` (may be infinite), nearest entry first (ties in a deterministic
    /// order). The callback can [`RayControl::Clip`] the distance or [`RayControl::Stop`].
    /// Boxes are tested grown by a few ulps ([`ray_entry_distance`]), so a box that a ray from
    /// far away only grazes is still visited.
    fn ray_cast_each(
        &self,
        origin: Vec2,
        direction: Vec2,
        max_distance: f32,
        callback: &mut dyn FnMut(ProxyRayHit) -> RayControl,
    ) -> Result<(), BroadPhaseError>;
}

/// Applies a ray callback's answer to the current limit; `None` means stop.
#[inline]
pub(crate) fn apply_ray_control(control: RayControl, max_distance: f32) -> Option<f32> {
    match control {
        RayControl::Continue => Some(max_distance),
        RayControl::Clip(distance) if distance.is_nan() => Some(max_distance),
        RayControl::Clip(distance) => Some(max_distance.min(distance.max(0.0))),
        RayControl::Stop => None,
    }
}
