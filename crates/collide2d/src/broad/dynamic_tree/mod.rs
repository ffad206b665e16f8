//! A dynamic bounding-volume tree of fat (enlarged) boxes: the default broad phase.
//!
//! Code map: this file holds the data and the [`BroadPhase`] glue; `insert.rs` places and removes
//! leaves (perimeter-cost descent), `rotate.rs` keeps quality with tree rotations, `build.rs` does
//! the bulk (binned SAH) build, `query.rs` has box, point and ray queries and the fat-box pair
//! traversal, `pairs.rs` finds exact pairs from scratch over a compact copy, and `validate.rs`
//! checks every invariant.

mod build;
mod insert;
mod pairs;
mod query;
mod rotate;
mod validate;

use crate::broad::pairs::tree_partners::{self as partners, TreePairs, MAX_SLOTS};
use pairs::CompactTree;

use crate::broad::pairs::dense_pairs::{DenseInput, DensePairs, DenseScratch, SlotBox};
use crate::broad::pairs::pair_tracker::MarkedSlots;
use crate::broad::proxy_table::{check_id, ProxyTable};
use crate::broad::{
    check_aabb, BroadPhase, BroadPhaseError, Pair, PairChanges, ProxyId, ProxyRayHit, RayControl,
};
use crate::huge_pages;
use crate::math::Vec2;
use crate::prefetch::prefetch;
use crate::shape::Aabb;

/// Marks "no node" in parent and child links.
pub(crate) const NULL_NODE: u32 = u32::MAX;

/// Height stored in free nodes, so validation can tell them apart.
const FREE_HEIGHT: u32 = u32::MAX;

/// How many leaves apart the stages of [`DynamicTree::read_leaf_ahead`] are.
const LEAVER_READ_AHEAD: usize = 2;

/// How many moves ahead [`BroadPhase::update_many`] asks for a mover's slot record and exact
/// box (the ids of a batch are known in advance, unlike those of single updates).
const MOVE_READ_AHEAD: usize = 16;

/// The fewest proxies with a new fat box whose tree queries run on several threads (feature
/// `rayon`).
#[cfg(feature = "rayon")]
const PARALLEL_FAT_QUERIES: usize = 256;

/// How many proxies ahead the parallel fat-partner refresh asks for the lists it will edit.
#[cfg(feature = "rayon")]
const LINK_READ_AHEAD: usize = 8;

/// Default margin added on every side of a leaf's box, in world units.
///
/// A proxy whose box stays inside its fat box does not touch the tree at all. About a fifth of a
/// typical object size works well (0.2 suits objects around one unit): a larger margin means
/// fewer re-insertions but more fat-box partners to re-test.
pub const DEFAULT_MARGIN: f32 = 0.2;

/// The fat box is further stretched by this many times the last displacement, in the direction
/// of motion, so a steadily moving proxy leaves its fat box less often.
pub const DISPLACEMENT_MULTIPLIER: f32 = 8.0;

/// One node: a leaf (one proxy) or an internal node with exactly two children.
///
/// 32 bytes, aligned to 32, so a node never straddles two cache lines: queries and insertions
/// visit nodes scattered through a large array. A leaf keeps its proxy slot in `child_b`.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(32))]
pub(crate) struct TreeNode {
    /// Leaf: the enlarged box. Internal: the union of the children's fat boxes.
    pub fat: Aabb,
    /// Parent node, `NULL_NODE` for the root; for free nodes, the next free node.
    pub parent: u32,
    /// First child, `NULL_NODE` for a leaf.
    pub child_a: u32,
    /// Second child; for a leaf, its proxy slot (see [`TreeNode::proxy`]).
    pub child_b: u32,
    /// 0 for a leaf, 1 + the taller child's height otherwise, `FREE_HEIGHT` when free.
    pub height: u32,
}

// A tree node is half a cache line.
const _: () = assert!(std::mem::size_of::<TreeNode>() == 32);
const _: () = assert!(std::mem::align_of::<TreeNode>() == 32);

impl TreeNode {
    #[inline]
    pub fn is_leaf(&self) -> bool {
        self.child_a == NULL_NODE
    }

    /// A leaf's proxy slot.
    #[inline]
    pub fn proxy(&self) -> u32 {
        debug_assert!(self.is_leaf());
        self.child_b
    }

    /// The box that bounds what lies below: the exact box for a leaf (looked up in `tight`, the
    /// proxies' boxes), the fat union otherwise.
    #[inline]
    pub fn pruning_box<'a>(&'a self, tight: &'a [Aabb]) -> &'a Aabb {
        if self.is_leaf() {
            &tight[self.proxy() as usize]
        } else {
            &self.fat
        }
    }
}

/// What [`DynamicTree`]'s `update` reads of a proxy slot besides its exact box, in one record:
/// `update` visits the moved proxies' slots one after another, and at a million proxies each
/// separate per-slot array it reads costs a cache line from memory per proxy.
///
/// **Invariant:** `leaf` is [`NULL_NODE`] exactly for free slots; for a live slot, `leaf` is its
/// leaf node, `fat` that leaf's box, and `generation` the slot's generation in the proxy table.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(32))]
pub(crate) struct SlotInfo {
    /// The fat box: the leaf's box.
    pub fat: Aabb,
    /// The leaf node, [`NULL_NODE`] while the slot is free.
    pub leaf: u32,
    /// The slot's generation (a copy of the proxy table's), so that an id is checked here.
    pub generation: u32,
}

impl Default for SlotInfo {
    fn default() -> Self {
        SlotInfo {
            fat: Aabb::default(),
            leaf: NULL_NODE,
            generation: 0,
        }
    }
}

impl SlotBox for SlotInfo {
    #[inline]
    fn slot_box(&self) -> &Aabb {
        &self.fat
    }
}

// A slot record is half a cache line.
const _: () = assert!(std::mem::size_of::<SlotInfo>() == 32);
const _: () = assert!(std::mem::align_of::<SlotInfo>() == 32);

/// A dynamic AABB tree (bounding-volume hierarchy) over fat boxes.
///
/// * Each leaf stores the proxy's exact box and a fat box: the exact box grown by the margin
///   ([`DEFAULT_MARGIN`] unless set with [`DynamicTree::with_margin`]) and stretched along the
///   last motion ([`DISPLACEMENT_MULTIPLIER`]). An update that stays inside the fat box costs
///   O(1); otherwise the leaf is removed and re-inserted.
/// * Insertion descends by perimeter cost (the 2D surface-area heuristic) with branch-and-bound,
///   and every ancestor is then refit and, when it helps, rotated (a child swapped with a
///   grandchild) to lower the perimeter or the height.
/// * [`DynamicTree::build`] and [`DynamicTree::rebuild`] build the whole tree at once with a
///   binned SAH split, faster and better than inserting one by one.
/// * [`DynamicTree::validate`] checks every structural invariant.
/// * It holds at most 2³¹ proxies; beyond that, insertion returns
///   [`BroadPhaseError::TooManyProxies`].
///
/// Pairs: `update_pairs` keeps, per proxy, the list of proxies whose *fat* boxes overlap, each
/// entry flagged while the pair is reported; only proxies whose fat box changed query the tree,
/// and a proxy that moved inside its fat box only re-tests that list against exact boxes.
///
/// ```
/// use collide2d::broad::{BroadPhase, DynamicTree};
/// use collide2d::{Aabb, Vec2};
///
/// let boxes: Vec<(Aabb, u64)> = (0..100)
///     .map(|i| {
///         let min = Vec2::new(i as f32, 0.0);
///         (Aabb { min, max: min + Vec2::splat(1.5) }, i)
///     })
///     .collect();
/// let (mut tree, ids) = DynamicTree::build(&boxes)?;
/// tree.validate().expect("a freshly built tree is valid");
/// assert_eq!(tree.find_pairs().len(), 99); // neighbours overlap
/// assert_eq!(tree.update_pairs().began.len(), 99);
///
/// let mut hits = Vec::new();
/// tree.overlap_point_each(Vec2::new(10.2, 1.0), &mut |id, key| {
///     hits.push(key);
///     true
/// });
/// hits.sort();
/// assert_eq!(hits, vec![9, 10]);
/// tree.remove(ids[9])?;
/// tree.validate().unwrap();
/// # Ok::<(), collide2d::broad::BroadPhaseError>(())
/// ```
#[derive(Clone, Debug)]
pub struct DynamicTree {
    nodes: Vec<TreeNode>,
    root: u32,
    free_node: u32,
    free_node_count: usize,
    proxies: ProxyTable,
    /// Fat box, leaf and generation of each proxy slot (see [`SlotInfo`]).
    slot_info: Vec<SlotInfo>,
    margin: f32,
    /// Fat-partner lists with reported flags.
    pub(in crate::broad) pairs: TreePairs,
    /// Proxies whose fat box changed since their fat-partner list was built.
    fat_changed: MarkedSlots,
    /// Proxies whose leaf took a new fat box by growing its ancestors in place (a batch of
    /// moves), to be placed again by [`DynamicTree::place_unplaced`].
    unplaced: MarkedSlots,
    query_lanes: query::QueryLanes,
    /// [`BroadPhase::update_many`]: the proxies that left their fat boxes, with their
    /// displacement.
    leavers: Vec<(u32, Vec2)>,
    /// [`BroadPhase::update_many`]: each applied move's old exact box and whether its proxy was
    /// marked as moved before, to undo the batch if a later move is refused.
    undo: Vec<(Aabb, bool)>,
    /// The arrays of the dense pass that finds every pair from scratch, kept between updates.
    dense_scratch: DenseScratch,
    /// The parts of the fat-partner queries run on several threads.
    #[cfg(feature = "rayon")]
    fat_query_parts: Vec<FatQueryPart>,
}

/// One part of the fat-partner queries run on several threads (see
/// [`DynamicTree::link_found_in_parts`]), kept between updates so they allocate nothing.
#[cfg(feature = "rayon")]
#[derive(Clone, Debug, Default)]
struct FatQueryPart {
    lanes: query::QueryLanes,
    batch: Vec<u32>,
    boxes: Vec<Aabb>,
    /// Every proxy found, the answers of the part's queries one after another.
    found: Vec<u32>,
    /// Per query, its proxy and where its answer ends in `found`.
    ends: Vec<(u32, u32)>,
}

impl Default for DynamicTree {
    fn default() -> Self {
        DynamicTree::new()
    }
}

impl DynamicTree {
    /// An empty tree with [`DEFAULT_MARGIN`].
    pub fn new() -> DynamicTree {
        DynamicTree {
            nodes: Vec::new(),
            root: NULL_NODE,
            free_node: NULL_NODE,
            free_node_count: 0,
            proxies: ProxyTable::default(),
            slot_info: Vec::new(),
            margin: DEFAULT_MARGIN,
            pairs: TreePairs::default(),
            fat_changed: MarkedSlots::default(),
            unplaced: MarkedSlots::default(),
            query_lanes: query::QueryLanes::default(),
            leavers: Vec::new(),
            undo: Vec::new(),
            dense_scratch: DenseScratch::default(),
            #[cfg(feature = "rayon")]
            fat_query_parts: Vec::new(),
        }
    }

    /// An empty tree whose fat boxes are grown by `margin` (negative or NaN margins become 0).
    pub fn with_margin(margin: f32) -> DynamicTree {
        let mut tree = DynamicTree::new();
        tree.margin = if margin.is_finite() {
            margin.max(0.0)
        } else {
            0.0
        };
        tree
    }

    /// The margin added around each box.
    pub fn margin(&self) -> f32 {
        self.margin
    }

    /// The fat box of a live proxy (contains its exact box).
    pub fn fat_aabb(&self, id: ProxyId) -> Result<Aabb, BroadPhaseError> {
        let slot = self.proxies.resolve(id)?;
        Ok(self.slot_info[slot].fat)
    }

    /// Height of the tree: 0 for a single leaf or an empty tree.
    pub fn height(&self) -> u32 {
        if self.root == NULL_NODE {
            0
        } else {
            self.nodes[self.root as usize].height
        }
    }

    /// Sum of the perimeters of internal nodes divided by the root's: the tree-quality measure
    /// that insertion and rotations try to keep low.
    pub fn area_ratio(&self) -> f32 {
        if self.root == NULL_NODE {
            return 0.0;
        }
        let root_perimeter = self.nodes[self.root as usize].fat.perimeter();
        let total: f32 = self
            .nodes
            .iter()
            .filter(|node| node.height != FREE_HEIGHT && !node.is_leaf())
            .map(|node| node.fat.perimeter())
            .sum();
        if root_perimeter > 0.0 {
            total / root_perimeter
        } else {
            0.0
        }
    }

    /// The exact box grown by the margin and stretched along `displacement`.
    fn fatten(&self, tight: Aabb, displacement: Vec2) -> Aabb {
        let margin = Vec2::splat(self.margin);
        let mut fat = Aabb {
            min: tight.min - margin,
            max: tight.max + margin,
        };
        // A jump much larger than the box is a teleport, not a motion worth predicting.
        let jump_limit = 4.0 * (self.margin + tight.extents().max_element());
        if displacement.is_finite() && displacement.length() <= jump_limit {
            let stretch = displacement * DISPLACEMENT_MULTIPLIER;
            if stretch.x < 0.0 {
                fat.min.x += stretch.x;
            } else {
                fat.max.x += stretch.x;
            }
            if stretch.y < 0.0 {
                fat.min.y += stretch.y;
            } else {
                fat.max.y += stretch.y;
            }
        }
        if fat.min.is_finite() && fat.max.is_finite() {
            fat
        } else {
            tight
        }
    }

    /// Refuses `extra` more proxies when the slots they may take would not fit in a list entry
    /// (see [`partners::MAX_SLOTS`]).
    fn check_room(&self, extra: usize) -> Result<(), BroadPhaseError> {
        room_for(self.proxies.slot_count(), extra)
    }

    fn reserve_proxy_slots(&mut self) {
        let slots = self.proxies.slot_count();
        if self.slot_info.len() < slots {
            huge_pages::grow_to(&mut self.slot_info, slots, SlotInfo::default());
            self.pairs.reserve_slots(slots);
            self.fat_changed.reserve(slots);
            self.unplaced.reserve(slots);
        }
    }

    fn mark_fat_changed(&mut self, slot: usize) {
        self.fat_changed.mark(slot as u32);
    }

    /// Brings the per-proxy lists of fat-box partners up to date for proxies whose fat box changed.
    ///
    /// 1. Many changed (a bulk build, the first call): recompute every list from one pass over
    ///    all fat boxes: the dense grid pass, or, when the boxes are spread too far apart for
    ///    it, a self-overlap traversal of the tree.
    /// 2. Otherwise take each changed proxy out of its old partners' lists, then query the tree
    ///    with its new fat box. A pair of two changed proxies is added only by the one processed
    ///    second (the first sees the other still flagged and skips it).
    ///
    /// Either way the reported pairs are lifted out first and flagged again afterwards; those
    /// whose fat boxes no longer overlap end. With many changed proxies on a pool of several
    /// threads, `beside` (taken) runs meanwhile (see [`DynamicTree::relink_in_parts`]).
    fn refresh_fat_partners(&mut self, beside: &mut Option<impl FnOnce() + Send>) {
        #[cfg(not(feature = "rayon"))]
        let _ = beside;
        let live = self.proxies.len();
        let changed_count = self.fat_changed.len();
        if changed_count >= 256 && changed_count * 4 >= live {
            // 1. Full recompute.
            self.pairs.unlink_all();
            self.fat_changed.clear();
            let pairs = &mut self.pairs;
            let mut add = |first: u32, second: u32| pairs.link(first, second);
            let fat_boxes = DenseInput {
                boxes: &self.slot_info,
                alive: &self.proxies.alive,
                live,
            };
            match DensePairs::of_sampled_boxes_in(&mut self.dense_scratch, fat_boxes) {
                Some(dense) => {
                    dense.for_each_pair(&mut add);
                    self.dense_scratch.keep(dense);
                }
                None => {
                    let mut stack = Vec::with_capacity(64);
                    query::for_each_fat_leaf_pair(&self.nodes, self.root, &mut stack, &mut add);
                }
            }
        } else {
            // 2. Incremental.
            let changed = self.fat_changed.take_list();
            #[cfg(feature = "rayon")]
            if changed.len() >= PARALLEL_FAT_QUERIES && rayon::current_num_threads() > 1 {
                self.relink_in_parts(&changed, beside);
                self.fat_changed.give_back(changed);
                return;
            }
            unlink_changed(&mut self.pairs, &self.fat_changed, &changed);
            self.link_found(&changed);
            self.fat_changed.give_back(changed);
        }
        self.pairs.restore_lifted(&self.proxies);
    }

    /// Step 2 of [`DynamicTree::refresh_fat_partners`], after the unlinking: each proxy of
    /// `changed` still marked queries the tree with its fat box and links the proxies found
    /// that are not marked, then is unmarked (so a pair of two changed proxies is linked once,
    /// by the one processed second).
    fn link_found(&mut self, changed: &[u32]) {
        // The tree queries of a batch of proxies walk together (their cache misses
        // overlap); their answers are then applied one proxy after another, in order, so
        // the lists come out exactly as from one query at a time.
        let mut lanes = std::mem::take(&mut self.query_lanes);
        let mut batch = Vec::with_capacity(query::QUERY_LANES);
        let mut boxes = Vec::with_capacity(query::QUERY_LANES);
        for chunk in changed.chunks(query::QUERY_LANES) {
            batch.clear();
            batch.extend(
                chunk
                    .iter()
                    .map(|&slot| slot as usize)
                    .filter(|&slot| self.fat_changed.contains(slot)),
            );
            boxes.clear();
            boxes.extend(batch.iter().map(|&slot| self.slot_info[slot].fat));
            query::fat_leaves_together(&self.nodes, self.root, &boxes, &mut lanes);
            lanes.found[..batch.len()]
                .iter()
                .flatten()
                .for_each(|&proxy| self.pairs.prefetch_list(proxy as usize));
            for (&slot, found) in batch.iter().zip(&lanes.found) {
                self.link_answer(slot, found);
            }
        }
        self.query_lanes = lanes;
    }

    /// Applies one fat-box query's answer `found` for `slot`: when `slot` is still marked,
    /// unmarks it and links it with every proxy found that is not marked. A slot removed and
    /// filled again since the last update is listed twice; its first entry clears the mark,
    /// and the second is skipped.
    #[inline]
    fn link_answer(&mut self, slot: usize, found: &[u32]) {
        if !self.fat_changed.contains(slot) {
            return;
        }
        self.fat_changed.unmark(slot);
        for &proxy in found {
            if proxy as usize != slot && !self.fat_changed.contains(proxy as usize) {
                self.pairs.link(slot as u32, proxy);
            }
        }
    }

    /// The incremental refresh of [`DynamicTree::refresh_fat_partners`] on the current rayon
    /// pool, in two rounds of two sides:
    ///
    /// 1. The changed proxies leave their old partners' lists ([`unlink_changed`]) on one
    ///    side while, on the other, their queries walk the tree (which the lists do not touch)
    ///    in parts, each into its own buffers.
    /// 2. The answers are applied one proxy after another in `changed`'s order, exactly as
    ///    [`DynamicTree::link_found`] applies them, then the lifted pairs are flagged again,
    ///    while `beside` (when given) runs on the other side.
    ///
    /// A proxy listed twice is queried twice, and its second answer skipped, as its mark is
    /// gone by then.
    #[cfg(feature = "rayon")]
    fn relink_in_parts(&mut self, changed: &[u32], beside: &mut Option<impl FnOnce() + Send>) {
        use rayon::prelude::*;
        let threads = rayon::current_num_threads();
        let part_len = changed
            .len()
            .div_ceil(4 * threads)
            .next_multiple_of(query::QUERY_LANES);
        let part_count = changed.len().div_ceil(part_len);
        let mut parts = std::mem::take(&mut self.fat_query_parts);
        if parts.len() < part_count {
            parts.resize_with(part_count, FatQueryPart::default);
        }
        let (nodes, root) = (&self.nodes, self.root);
        let (slot_info, fat_changed) = (&self.slot_info, &self.fat_changed);
        let pairs = &mut self.pairs;
        rayon::join(
            || unlink_changed(pairs, fat_changed, changed),
            || {
                parts[..part_count]
                    .par_iter_mut()
                    .zip(changed.par_chunks(part_len))
                    .for_each(|(part, chunk)| {
                        part.found.clear();
                        part.ends.clear();
                        for lanes_chunk in chunk.chunks(query::QUERY_LANES) {
                            part.batch.clear();
                            part.batch.extend(
                                lanes_chunk
                                    .iter()
                                    .copied()
                                    .filter(|&slot| fat_changed.contains(slot as usize)),
                            );
                            part.boxes.clear();
                            part.boxes.extend(
                                part.batch.iter().map(|&slot| slot_info[slot as usize].fat),
                            );
                            query::fat_leaves_together(nodes, root, &part.boxes, &mut part.lanes);
                            for (&slot, found) in part.batch.iter().zip(&part.lanes.found) {
                                part.found.extend_from_slice(found);
                                part.ends.push((slot, part.found.len() as u32));
                            }
                        }
                    })
            },
        );
        let mut apply = || {
            for part in &parts[..part_count] {
                let found_of = |index: usize| {
                    let start = index.checked_sub(1).map_or(0, |before| part.ends[before].1);
                    &part.found[start as usize..part.ends[index].1 as usize]
                };
                for (index, &(slot, _)) in part.ends.iter().enumerate() {
                    // Ask for the lists a few proxies ahead will edit.
                    if index + LINK_READ_AHEAD < part.ends.len() {
                        for &proxy in found_of(index + LINK_READ_AHEAD) {
                            self.pairs.prefetch_list(proxy as usize);
                        }
                    }
                    self.link_answer(slot as usize, found_of(index));
                }
            }
            self.pairs.restore_lifted(&self.proxies);
        };
        match beside.take() {
            Some(beside) => {
                rayon::join(apply, beside);
            }
            None => apply(),
        }
        self.fat_query_parts = parts;
    }

    /// The slot of `id`, checked against the slot record (the same answer as the proxy table's
    /// `resolve`), which also holds the fat box and the leaf that an update reads next.
    #[inline]
    fn check_slot(&self, id: ProxyId) -> Result<usize, BroadPhaseError> {
        let record = self.slot_info.get(id.index() as usize);
        check_id(
            id,
            record.map(|info| (info.leaf != NULL_NODE, info.generation)),
        )
    }

    /// [`BroadPhase::update`] of a box already checked (finite, not inverted): the collision
    /// world's moves, which check the box they compute, call it directly (inlined in each:
    /// a call costs a single move 4 % of its instructions).
    #[inline(always)]
    pub(crate) fn update_valid(&mut self, id: ProxyId, aabb: Aabb) -> Result<(), BroadPhaseError> {
        debug_assert!(check_aabb(aabb).is_ok());
        let slot = self.check_slot(id)?;
        let info = self.slot_info[slot];
        let old = self.proxies.tight[slot];
        self.proxies.tight[slot] = aabb;
        if !info.fat.contains(&aabb) {
            self.refatten(slot, info.leaf, aabb.center() - old.center());
        }
        self.pairs.mark_moved(slot as u32);
        Ok(())
    }

    /// Step 1 of [`BroadPhase::update_many`]: checks and writes the exact boxes of `moves` and
    /// lists the leavers, or, refusing a move, changes nothing. Until
    /// [`DynamicTree::enlarge_leavers`] follows, the leavers' boxes lie outside their leaves: the
    /// world runs the two steps apart only to do its own writes beside the second.
    pub(crate) fn write_moves(&mut self, moves: &[(ProxyId, Aabb)]) -> Result<(), BroadPhaseError> {
        let mut undo = std::mem::take(&mut self.undo);
        undo.clear();
        let mut leavers = std::mem::take(&mut self.leavers);
        leavers.clear();
        for (position, &(id, aabb)) in moves.iter().enumerate() {
            if let Some(&(ahead, _)) = moves.get(position + MOVE_READ_AHEAD) {
                prefetch(&self.slot_info, ahead.index() as usize);
                prefetch(&self.proxies.tight, ahead.index() as usize);
            }
            let checked = self
                .check_slot(id)
                .and_then(|slot| Ok((slot, check_aabb(aabb)?)));
            let (slot, aabb) = match checked {
                Ok(checked) => checked,
                Err(error) => {
                    for (&(id, _), &(old, was_moved)) in moves.iter().zip(&undo).rev() {
                        let slot = id.index() as usize;
                        self.proxies.tight[slot] = old;
                        if !was_moved {
                            self.pairs.unmark_moved(slot);
                        }
                    }
                    (self.undo, self.leavers) = (undo, leavers);
                    return Err(error);
                }
            };
            let old = self.proxies.tight[slot];
            undo.push((old, self.pairs.is_moved(slot)));
            self.proxies.tight[slot] = aabb;
            if !self.slot_info[slot].fat.contains(&aabb) {
                leavers.push((slot as u32, aabb.center() - old.center()));
            }
            self.pairs.mark_moved(slot as u32);
        }
        (self.undo, self.leavers) = (undo, leavers);
        Ok(())
    }

    /// Step 2 of [`BroadPhase::update_many`]: gives each listed leaver whose exact box is
    /// still outside its fat box a new fat box, held by growing the leaf's ancestors where it
    /// stays ([`DynamicTree::enlarge_leaf`]), and marks it to be placed again.
    pub(crate) fn enlarge_leavers(&mut self) {
        let leavers = std::mem::take(&mut self.leavers);
        for (position, &(slot, displacement)) in leavers.iter().enumerate() {
            self.read_leaf_ahead(|stage| {
                leavers
                    .get(position + stage * LEAVER_READ_AHEAD)
                    .map(|&(slot, _)| self.slot_info[slot as usize].leaf)
            });
            let slot = slot as usize;
            let info = self.slot_info[slot];
            if !info.fat.contains(&self.proxies.tight[slot]) {
                let fat = self.new_fat_box(slot, displacement);
                self.enlarge_leaf(info.leaf, fat);
                self.unplaced.mark(slot as u32);
            }
        }
        self.leavers = leavers;
    }

    /// Places again, one after another in the order they were marked, the leaves that
    /// [`DynamicTree::enlarge_leavers`] left where they were: each is unlinked and inserted
    /// below its lowest former ancestor that holds its fat box ([`DynamicTree::move_leaf`]),
    /// its ancestors shrinking back and rotating on the way. Changes the tree's shape only:
    /// no box, pair or query answer.
    ///
    /// [`BroadPhase::update_pairs`] calls it last; the collision world calls it beside its
    /// narrow phase instead, on another thread.
    pub(crate) fn place_unplaced(&mut self) {
        if self.unplaced.len() == 0 {
            return;
        }
        let unplaced = self.unplaced.take_list();
        for position in 0..unplaced.len() {
            self.read_leaf_ahead(|stage| {
                unplaced
                    .get(position + stage * LEAVER_READ_AHEAD)
                    .map(|&slot| self.slot_info[slot as usize].leaf)
            });
            let slot = unplaced[position] as usize;
            // A proxy removed since is unmarked; one marked twice is placed once.
            if self.unplaced.contains(slot) {
                self.unplaced.unmark(slot);
                let info = self.slot_info[slot];
                self.move_leaf(info.leaf, info.fat);
            }
        }
        self.unplaced.give_back(unplaced);
    }

    /// [`BroadPhase::update_pairs`] without [`DynamicTree::place_unplaced`], which the caller
    /// runs when it suits (the answers are the same; only the tree's shape waits), running
    /// `beside`, when given, meanwhile on another thread of the current pool (feature `rayon`;
    /// else before):
    /// beside the serial part of the fat-partner refresh when there is one, else beside the
    /// whole refresh. `beside` must not need the tree.
    pub(crate) fn update_pairs_beside(
        &mut self,
        mut beside: Option<impl FnOnce() + Send>,
    ) -> &PairChanges {
        if self.pairs.most_moved(&self.proxies) {
            let scratch = &mut self.dense_scratch;
            if let Some(dense) =
                DensePairs::of_sampled_boxes_in(scratch, self.proxies.dense_input())
            {
                // The fat-partner lists are not needed for this: they wait, with the proxies
                // whose fat boxes changed still listed, for the next incremental update.
                let (pairs, proxies, fat_changed) =
                    (&mut self.pairs, &self.proxies, &self.fat_changed);
                join_with(
                    || {
                        pairs.refresh_from_all(proxies, &dense, fat_changed);
                    },
                    beside.take(),
                );
                self.dense_scratch.keep(dense);
                return self.pairs.changes();
            }
        }
        if self.fat_changed.len() > 0 {
            self.refresh_fat_partners(&mut beside);
        }
        let (pairs, proxies) = (&mut self.pairs, &self.proxies);
        join_with(
            || {
                pairs.refresh(proxies);
            },
            beside.take(),
        );
        self.pairs.changes()
    }

    /// Whether some leaves wait for [`DynamicTree::place_unplaced`].
    pub(crate) fn has_unplaced(&self) -> bool {
        self.unplaced.len() > 0
    }

    /// Gives leaf `leaf` the fat box `fat` where it is, growing each ancestor that does not
    /// hold `fat` yet to its union with it (every ancestor then still holds its subtree; the
    /// boxes may be looser than their children's union until the leaf is placed again).
    fn enlarge_leaf(&mut self, leaf: u32, fat: Aabb) {
        self.nodes[leaf as usize].fat = fat;
        let mut index = self.nodes[leaf as usize].parent;
        while index != NULL_NODE {
            let node = &mut self.nodes[index as usize];
            if node.fat.contains(&fat) {
                break;
            }
            node.fat = node.fat.union(&fat);
            index = node.parent;
        }
    }

    /// Gives live slot `slot`, whose exact box (already stored) left its fat box, a new fat box
    /// stretched along `displacement`, and moves its leaf `leaf` to hold it.
    fn refatten(&mut self, slot: usize, leaf: u32, displacement: Vec2) {
        let fat = self.new_fat_box(slot, displacement);
        self.move_leaf(leaf, fat);
    }

    /// Gives live slot `slot` a new fat box around its exact box, stretched along
    /// `displacement`, in its slot record, marks its fat box changed, and returns the box for
    /// its leaf to take.
    fn new_fat_box(&mut self, slot: usize, displacement: Vec2) -> Aabb {
        let fat = self.fatten(self.proxies.tight[slot], displacement);
        self.slot_info[slot].fat = fat;
        self.mark_fat_changed(slot);
        fat
    }

    /// Before a leaf of a list is placed again: asks for the nodes of the leaves after it, a
    /// level further up the further ahead (`leaf_of(stage)` is the leaf `stage ×
    /// LEAVER_READ_AHEAD` places on: its node for stage 4, its parent for stage 3, and so on),
    /// each read from the node asked for one stage before, which has arrived by then. Reads
    /// only; a node the moves before change is just asked for in vain.
    #[inline]
    fn read_leaf_ahead(&self, leaf_of: impl Fn(usize) -> Option<u32>) {
        let parent_of = |node: u32| match self.nodes.get(node as usize) {
            Some(node) => node.parent,
            None => NULL_NODE,
        };
        if let Some(leaf) = leaf_of(4) {
            prefetch(&self.nodes, leaf as usize);
        }
        if let Some(leaf) = leaf_of(3) {
            prefetch(&self.nodes, parent_of(leaf) as usize);
        }
        if let Some(leaf) = leaf_of(2) {
            let parent = parent_of(leaf);
            prefetch(&self.nodes, parent_of(parent) as usize);
            if let Some(parent_node) = self.nodes.get(parent as usize) {
                let sibling = if parent_node.child_a == leaf {
                    parent_node.child_b
                } else {
                    parent_node.child_a
                };
                prefetch(&self.nodes, sibling as usize);
            }
        }
        if let Some(leaf) = leaf_of(1) {
            prefetch(&self.nodes, parent_of(parent_of(parent_of(leaf))) as usize);
        }
    }

    /// Number of nodes in use (leaves and internal nodes).
    pub fn node_count(&self) -> usize {
        self.nodes.len() - self.free_node_count
    }
}

/// Takes each proxy of `changed` still marked in `fat_changed` out of its partners' lists
/// (its reported pairs lifted out, see [`TreePairs::unlink`]), asking for the lists a batch
/// of proxies will edit first, so that their cache misses overlap.
fn unlink_changed(pairs: &mut TreePairs, fat_changed: &MarkedSlots, changed: &[u32]) {
    for chunk in changed.chunks(query::QUERY_LANES) {
        chunk
            .iter()
            .filter(|&&slot| fat_changed.contains(slot as usize))
            .flat_map(|&slot| pairs.entries(slot as usize))
            .for_each(|&entry| pairs.prefetch_list((entry & partners::SLOT_BITS) as usize));
        for &slot in chunk {
            if fat_changed.contains(slot as usize) {
                pairs.unlink(slot);
            }
        }
    }
}

/// Runs `work`, and `beside` when given: on the two sides of a `rayon::join` with the `rayon`
/// feature, else `beside` first.
fn join_with(work: impl FnOnce() + Send, beside: Option<impl FnOnce() + Send>) {
    match beside {
        #[cfg(feature = "rayon")]
        Some(beside) => {
            rayon::join(work, beside);
        }
        #[cfg(not(feature = "rayon"))]
        Some(beside) => {
            beside();
            work();
        }
        None => work(),
    }
}

/// Whether `extra` more slots fit beside `slots`.
fn room_for(slots: usize, extra: usize) -> Result<(), BroadPhaseError> {
    if slots.saturating_add(extra) > MAX_SLOTS {
        Err(BroadPhaseError::TooManyProxies { limit: MAX_SLOTS })
    } else {
        Ok(())
    }
}

#[cfg(test)]
#[test]
fn slots_past_the_list_entry_limit_are_refused() {
    assert_eq!(room_for(MAX_SLOTS - 1, 1), Ok(()));
    assert_eq!(
        room_for(MAX_SLOTS, 1),
        Err(BroadPhaseError::TooManyProxies { limit: MAX_SLOTS })
    );
    assert!(room_for(usize::MAX, 2).is_err());
}

impl BroadPhase for DynamicTree {
    fn for_each_structure_box(&self, visit: &mut dyn FnMut(Aabb, u32)) {
        for node in &self.nodes {
            if node.height != FREE_HEIGHT {
                visit(node.fat, node.height);
            }
        }
    }

    fn insert(&mut self, aabb: Aabb, key: u64) -> Result<ProxyId, BroadPhaseError> {
        self.check_room(1)?;
        let id = self.proxies.allocate(aabb, key)?;
        self.reserve_proxy_slots();
        let slot = id.index() as usize;
        let fat = self.fatten(aabb, Vec2::ZERO);
        let leaf = self.allocate_leaf(fat, slot as u32);
        self.slot_info[slot] = SlotInfo {
            fat,
            leaf,
            generation: id.generation(),
        };
        self.insert_leaf(leaf);
        self.mark_fat_changed(slot);
        self.pairs.mark_moved(slot as u32);
        Ok(id)
    }

    fn update(&mut self, id: ProxyId, aabb: Aabb) -> Result<(), BroadPhaseError> {
        self.update_valid(id, check_aabb(aabb)?)
    }

    /// 1. The exact boxes are written in order, each move checked first (its slot record and
    ///    box asked for 16 moves before), and the proxies that left their fat boxes listed
    ///    with their displacement. A refused move undoes the ones before it, from the old
    ///    boxes kept aside, and nothing else has changed by then.
    /// 2. Each leaver gets its new fat box where its leaf stands: the ancestors that do not
    ///    hold it grow (`enlarge_leavers`; a proxy listed twice, moved twice in
    ///    the batch, only if its final box is outside its fat box by then). The leaves are
    ///    placed again (unlinked and inserted near their old place, as
    ///    [`update`](BroadPhase::update) does at once) by the next
    ///    [`update_pairs`](BroadPhase::update_pairs), last; every query meanwhile answers as
    ///    from placed leaves.
    fn update_many(&mut self, moves: &[(ProxyId, Aabb)]) -> Result<(), BroadPhaseError> {
        self.write_moves(moves)?;
        self.enlarge_leavers();
        Ok(())
    }

    fn remove(&mut self, id: ProxyId) -> Result<(), BroadPhaseError> {
        let slot = self.proxies.resolve(id)?;
        let leaf = self.slot_info[slot].leaf;
        self.remove_leaf(leaf);
        self.free_node(leaf);
        self.slot_info[slot].leaf = NULL_NODE;
        self.fat_changed.unmark(slot);
        self.unplaced.unmark(slot);
        self.pairs.proxy_removed(slot as u32, &self.proxies);
        self.proxies.release(slot as u32);
        Ok(())
    }

    proxy_table_lookups!();

    fn update_pairs(&mut self) -> &PairChanges {
        self.update_pairs_beside(None::<fn()>);
        self.place_unplaced();
        self.pairs.changes()
    }

    fn current_pairs(&self) -> Vec<Pair> {
        self.pairs.current_pairs(&self.proxies)
    }

    fn for_each_pair(&self, callback: &mut dyn FnMut(Pair)) {
        let Some(compact) = CompactTree::new(
            &self.nodes,
            &self.proxies.tight,
            self.root,
            self.proxies.len(),
        ) else {
            return;
        };
        let mut stack = Vec::with_capacity(64);
        compact.for_each_pair_below(0..compact.node_count(), &mut stack, &mut |first, second| {
            callback(Pair::new(
                self.proxies.id_of(first),
                self.proxies.id_of(second),
            ))
        });
    }

    fn overlap_aabb_each(&self, aabb: Aabb, callback: &mut dyn FnMut(ProxyId, u64) -> bool) {
        self.overlap_aabb_each(aabb, callback);
    }

    fn ray_cast_each(
        &self,
        origin: Vec2,
        direction: Vec2,
        max_distance: f32,
        callback: &mut dyn FnMut(ProxyRayHit) -> RayControl,
    ) -> Result<(), BroadPhaseError> {
        self.ray_cast_each(origin, direction, max_distance, callback)
    }
}

#[cfg(test)]
mod update_many_tests {
    use crate::broad::{BroadPhase, DynamicTree, ProxyId};
    use crate::math::Vec2;
    use crate::shape::Aabb;

    /// A small linear congruential generator: enough to scatter boxes and moves.
    fn next(state: &mut u64) -> f32 {
        *state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (*state >> 40) as f32 / (1u64 << 24) as f32
    }

    /// Random walks of 2,000 boxes, moved one at a time in one tree and in batches (each with
    /// some ids twice, and steps long enough that many leave their fat boxes) in another: the
    /// same exact boxes, the same changes every frame, and both trees valid.
    #[test]
    fn a_batch_moves_boxes_as_single_updates_do() {
        let mut state = 5u64;
        let items: Vec<(Aabb, u64)> = (0..2_000)
            .map(|key| {
                let min = Vec2::new(next(&mut state) * 60.0, next(&mut state) * 60.0);
                (
                    Aabb {
                        min,
                        max: min + Vec2::new(0.5, 0.5) + Vec2::splat(next(&mut state)),
                    },
                    key,
                )
            })
            .collect();
        let (mut single, ids) = DynamicTree::build(&items).unwrap();
        let (mut batched, _) = DynamicTree::build(&items).unwrap();
        single.update_pairs();
        batched.update_pairs();
        let mut boxes: Vec<Aabb> = items.iter().map(|(aabb, _)| *aabb).collect();
        let mut leavers = 0;
        for _ in 0..40 {
            let mut moves: Vec<(ProxyId, Aabb)> = Vec::new();
            for _ in 0..300 {
                let index = (next(&mut state) * boxes.len() as f32) as usize % boxes.len();
                let step = Vec2::new(next(&mut state) - 0.5, next(&mut state) - 0.5) * 0.6;
                boxes[index] = Aabb {
                    min: boxes[index].min + step,
                    max: boxes[index].max + step,
                };
                moves.push((ids[index], boxes[index]));
            }
            for &(id, aabb) in &moves {
                if !batched.fat_aabb(id).unwrap().contains(&aabb) {
                    leavers += 1;
                }
                single.update(id, aabb).unwrap();
            }
            batched.update_many(&moves).unwrap();
            batched.validate().unwrap();
            single.validate().unwrap();
            for (id, aabb) in ids.iter().zip(&boxes) {
                assert_eq!(batched.get_aabb(*id), Ok(*aabb));
                assert!(batched.fat_aabb(*id).unwrap().contains(aabb));
            }
            assert_eq!(single.update_pairs(), batched.update_pairs());
        }
        assert!(leavers > 1_000, "only {leavers} moves left their fat boxes");
        assert_eq!(single.current_pairs(), batched.current_pairs());
    }

    /// A batch grows the ancestors of the leaves that left their fat boxes instead of moving
    /// them; until they are placed again the tree is valid and answers every query as a tree
    /// of placed leaves would, a removed proxy is never placed, and placing them changes
    /// no answer.
    #[test]
    fn leaves_grown_in_place_answer_queries_until_placed_again() {
        let mut state = 11u64;
        let mut boxes: Vec<Aabb> = (0..3_000)
            .map(|_| {
                let min = Vec2::new(next(&mut state) * 80.0, next(&mut state) * 80.0);
                Aabb {
                    min,
                    max: min + Vec2::splat(0.3 + next(&mut state)),
                }
            })
            .collect();
        let items: Vec<(Aabb, u64)> = boxes.iter().zip(0..).map(|(b, k)| (*b, k)).collect();
        let (mut tree, ids) = DynamicTree::build(&items).unwrap();
        tree.update_pairs();
        let found = |tree: &DynamicTree, query: Aabb| {
            let mut keys = Vec::new();
            tree.overlap_aabb_each(query, &mut |_, key| {
                keys.push(key);
                true
            });
            keys.sort_unstable();
            keys
        };
        let queries: Vec<Aabb> = (0..200)
            .map(|_| {
                let min = Vec2::new(next(&mut state) * 80.0, next(&mut state) * 80.0);
                Aabb {
                    min,
                    max: min + Vec2::splat(4.0 * next(&mut state)),
                }
            })
            .collect();
        let mut removed = std::collections::BTreeSet::new();
        for round in 0..10 {
            let mut moves = Vec::new();
            for (index, (id, aabb)) in ids.iter().zip(boxes.iter_mut()).enumerate() {
                if index % 3 == round % 3 && !removed.contains(&index) {
                    let step = Vec2::new(next(&mut state) - 0.5, next(&mut state) - 0.5) * 2.0;
                    *aabb = Aabb {
                        min: aabb.min + step,
                        max: aabb.max + step,
                    };
                    moves.push((*id, *aabb));
                }
            }
            tree.update_many(&moves).unwrap();
            assert!(
                tree.has_unplaced(),
                "round {round}: no leaf left its fat box"
            );
            tree.validate().unwrap();
            // One proxy that waits to be placed is removed before it is.
            let gone = (0..ids.len())
                .find(|&index| !removed.contains(&index) && tree.unplaced.contains(index))
                .unwrap();
            tree.remove(ids[gone]).unwrap();
            removed.insert(gone);
            for &query in &queries {
                let expected: Vec<u64> = (0..boxes.len())
                    .filter(|index| !removed.contains(index) && boxes[*index].overlaps(&query))
                    .map(|index| index as u64)
                    .collect();
                assert_eq!(found(&tree, query), expected, "round {round}, waiting");
            }
            let before: Vec<Vec<u64>> = queries.iter().map(|&q| found(&tree, q)).collect();
            tree.place_unplaced();
            assert!(!tree.has_unplaced());
            tree.validate().unwrap();
            let after: Vec<Vec<u64>> = queries.iter().map(|&q| found(&tree, q)).collect();
            assert_eq!(before, after, "round {round}: placing changed an answer");
        }
    }
}
