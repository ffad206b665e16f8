//! Whole-world snapshots: save a world's state and rebuild it exactly.

use super::continuous::Track;
use super::layers::matrix_is_symmetric;
use super::touching::PendingEnd;
use super::update::PairAnswer;
use super::{
    BroadPhaseKind, Collider, ColliderHandle, Contact, EndReason, Entry, Layers, Slot, Touching,
    TouchingPair, World, WorldError, MAX_LAYERS,
};

/// Everything a [`World`] knows, as plain data: colliders with their handles, layers and the
/// matrix, and which pairs touch. With the `serde` feature it serialises; restoring it and
/// continuing gives the same events as never having stopped.
///
/// [`World::restore`] accepts exactly the snapshots a world can take: anything else (a hand
/// edit, a damaged file) is refused with the reason, never turned into a world that reports
/// events no update would.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct WorldSnapshot {
    broad_phase: BroadPhaseKind,
    layers: Layers,
    /// The layer matrix the last update filtered with.
    seen_layer_matrix: [u32; MAX_LAYERS],
    /// Each slot's generation and its collider, if live, with whether it changed since the
    /// last update.
    slots: Vec<(u32, Option<(Collider, bool)>)>,
    free: Vec<u32>,
    contacts: Vec<Contact>,
    pending_ends: Vec<(ColliderHandle, ColliderHandle)>,
    /// What each pending `End` says, beside `pending_ends` (old snapshots without it end those
    /// pairs as removed or disabled, with the live colliders' data).
    #[cfg_attr(feature = "serde", serde(default))]
    pending_end_details: Vec<(EndReason, bool, [u64; 2])>,
    report_stay: bool,
    /// The continuous colliders' placements at the last update, by slot (old snapshots without
    /// them sweep from where the colliders are).
    #[cfg_attr(feature = "serde", serde(default))]
    continuous_tracks: Vec<(u32, Track)>,
    /// Pairs a sweep made touch that were apart at the end of the last update.
    #[cfg_attr(feature = "serde", serde(default))]
    passed_pairs: Vec<(ColliderHandle, ColliderHandle)>,
}

/// Why [`World::restore`] refused a snapshot: the part of it that no world could have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SnapshotError {
    /// The free list names a live slot or one slot twice, or leaves out an empty slot that is
    /// not retired (at the last generation).
    FreeList,
    /// A contact is out of order or repeated, is not `a < b`, or names a collider that is not
    /// live and enabled.
    ContactHandles,
    /// Two colliders unchanged since the last update disagree with their contact: a fresh test
    /// finds them touching without one, apart with one, or with another manifold.
    ContactState,
    /// A pending end is out of order or repeated, is not `a < b`, is also a contact, or names
    /// a collider that never existed.
    PendingEndHandles,
    /// A pending end between two live colliders unchanged since the last update: nothing
    /// removed or changed either of them, so their pair cannot have ended.
    PendingEndCause,
    /// A pending end's user data disagrees with a live collider's (an `End` carries a live
    /// collider's user data as of the update that writes it).
    PendingEndData,
    /// The layer matrix of the last update is not symmetric.
    SeenLayerMatrix,
}

impl std::fmt::Display for SnapshotError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            SnapshotError::FreeList => "the free list does not match the empty slots",
            SnapshotError::ContactHandles => "a contact names a pair out of order or not live",
            SnapshotError::ContactState => "a contact disagrees with its unchanged colliders",
            SnapshotError::PendingEndHandles => {
                "a pending end names a pair out of order, touching, or never created"
            }
            SnapshotError::PendingEndCause => {
                "a pending end names two colliders unchanged since the last update"
            }
            SnapshotError::PendingEndData => {
                "a pending end's user data disagrees with its live collider's"
            }
            SnapshotError::SeenLayerMatrix => "the last update's layer matrix is not symmetric",
        })
    }
}

impl From<SnapshotError> for WorldError {
    fn from(reason: SnapshotError) -> Self {
        WorldError::CorruptSnapshot(reason)
    }
}

impl World {
    /// A copy of the world's whole state (see [`WorldSnapshot`]).
    ///
    /// A collider with a pair waiting for the re-test the next update gives it anyway (after
    /// [`World::shift_origin`], a restore or a continuous hit) is saved as changed since the
    /// last update, so a snapshot taken at any moment restores.
    pub fn snapshot(&self) -> WorldSnapshot {
        let pending = self.touching.pending(|h| self.collider_now(h));
        // A pair waiting for its re-test (after an origin shift or a continuous hit) holds a
        // manifold the next update replaces, and its colliders' other box pairs may have
        // tipped with the shift's rounding: their colliders are saved as changed, so the
        // restored world re-tests their pairs instead of holding them to the stored answers.
        let mut retest = vec![false; self.slots.len()];
        for &(a, b) in self.retest_pending.iter() {
            for handle in [a, b] {
                if let Some(flag) = retest.get_mut(handle.index as usize) {
                    *flag = true;
                }
            }
        }
        WorldSnapshot {
            broad_phase: self.broad_kind,
            layers: self.layers.clone(),
            seen_layer_matrix: self.seen_layer_matrix,
            slots: self
                .slots
                .iter()
                .enumerate()
                .map(|(index, slot)| {
                    let dirty = self.is_dirty(index as u32) || retest[index];
                    (
                        slot.generation,
                        slot.entry.as_ref().map(|e| (e.collider.clone(), dirty)),
                    )
                })
                .collect(),
            free: self.free.clone(),
            contacts: self
                .touching
                .live()
                .map(|(a, b, manifold)| Contact {
                    a,
                    b,
                    manifold: manifold.copied(),
                })
                .collect(),
            pending_ends: pending.iter().map(|&(pair, _)| pair).collect(),
            pending_end_details: pending
                .iter()
                .map(|(_, end)| (end.reason, end.sensor, end.user_data))
                .collect(),
            report_stay: self.report_stay,
            continuous_tracks: self.continuous.saved_tracks(),
            passed_pairs: self.continuous.passed().to_vec(),
        }
    }

    /// Rebuilds a world from a snapshot, refusing any snapshot that no world could have taken.
    ///
    /// Checked: every collider (numbers, layer), the layers (1 to 32 distinct non-empty names,
    /// `"default"` first, a symmetric matrix, also for the last update's matrix), the free list
    /// (exactly the empty slots, once each), contacts (sorted pairs `a < b` of live, enabled
    /// colliders) and pending ends (sorted pairs `a < b`, not contacts, of colliders that
    /// existed, one of them removed or changed since the last update). Every pair of
    /// colliders unchanged since the last update is tested afresh, and must agree with the
    /// contacts: touching exactly when listed, with the same manifold. That costs one narrow
    /// phase over the unchanged colliders' box pairs.
    ///
    /// Errors: [`WorldError::CorruptSnapshot`] with the part refused, the layer errors
    /// ([`WorldError::TooManyLayers`], [`WorldError::EmptyLayerName`],
    /// [`WorldError::DuplicateLayer`], [`WorldError::AsymmetricLayerMatrix`]), or the error
    /// inserting the collider would give.
    pub fn restore(snapshot: WorldSnapshot) -> Result<World, WorldError> {
        let mut world = World::with_broad_phase(snapshot.broad_phase)?;
        snapshot.layers.validate()?;
        if !matrix_is_symmetric(&snapshot.seen_layer_matrix) {
            return Err(SnapshotError::SeenLayerMatrix.into());
        }
        world.layers = snapshot.layers;
        world.seen_layer_matrix = snapshot.seen_layer_matrix;
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
                        world.mark_dirty(handle);
                    }
                    Some(Entry::new(collider, proxy))
                }
                None => None,
            };
            world.slots.push(Slot { generation, entry });
        }
        let mut free_seen = std::collections::BTreeSet::new();
        for &index in &snapshot.free {
            let slot = world.slots.get(index as usize);
            if slot.is_none_or(|s| s.entry.is_some()) || !free_seen.insert(index) {
                return Err(SnapshotError::FreeList.into());
            }
        }
        // An empty slot left out of the free list is retired, which only a slot at the last
        // generation can be.
        let retired = world
            .slots
            .iter()
            .enumerate()
            .filter(|(index, s)| s.entry.is_none() && !free_seen.contains(&(*index as u32)));
        for (_, slot) in retired {
            if slot.generation != u32::MAX {
                return Err(SnapshotError::FreeList.into());
            }
        }
        world.free = snapshot.free;
        world.check_contact_handles(&snapshot.contacts)?;
        world.check_pending_ends(&snapshot.pending_ends, &snapshot.contacts)?;
        world.restore_continuous(snapshot.continuous_tracks, snapshot.passed_pairs)?;
        let mut touching =
            Vec::with_capacity(snapshot.contacts.len() + snapshot.pending_ends.len());
        for contact in &snapshot.contacts {
            touching.push(TouchingPair {
                a: contact.a,
                b: contact.b,
                manifold: contact.manifold,
                detached: None,
            });
            // The rebuilt broad phase cannot say which of these pairs' boxes came apart since
            // the last update: re-test them all at the next one.
            world.retest_pending.push((contact.a, contact.b));
        }
        // Pending ends are kept as detached pairs (disjoint from the contacts, checked above).
        let details_match = snapshot.pending_end_details.len() == snapshot.pending_ends.len();
        for (index, &(a, b)) in snapshot.pending_ends.iter().enumerate() {
            let end = match snapshot.pending_end_details.get(index) {
                Some(&(reason, sensor, user_data)) if details_match => PendingEnd {
                    reason,
                    sensor,
                    user_data,
                },
                _ => world.guess_pending_end(a, b),
            };
            for (side, handle) in [a, b].into_iter().enumerate() {
                if let Ok(entry) = world.entry(handle) {
                    if entry.collider.user_data != end.user_data[side] {
                        return Err(SnapshotError::PendingEndData.into());
                    }
                }
            }
            touching.push(TouchingPair {
                a,
                b,
                manifold: None,
                detached: Some(end),
            });
        }
        touching.sort_by_key(TouchingPair::pair);
        world.touching = Touching::from_sorted(touching);
        // Partner lists come back from the rebuilt broad phase, where every pair begins now.
        let began = world.broad.get_mut().update_pairs().began.clone();
        let mut unchanged_pairs = Vec::new();
        for pair in began {
            let broad = world.broad.get();
            let (Ok(a), Ok(b)) = (broad.key(pair.lower()), broad.key(pair.higher())) else {
                continue;
            };
            let (a, b) = super::ordered(ColliderHandle::from_key(a), ColliderHandle::from_key(b));
            if let Ok(entry) = world.entry_mut(a) {
                entry.partners.push(b);
            }
            if let Ok(entry) = world.entry_mut(b) {
                entry.partners.push(a);
            }
            world.box_pairs += 1;
            if !world.is_dirty(a.index) && !world.is_dirty(b.index) {
                unchanged_pairs.push((a, b));
            }
        }
        world.check_contact_states(&snapshot.contacts, &unchanged_pairs)?;
        Ok(world)
    }

    /// Contacts are sorted pairs `a < b`, each once, of live enabled colliders.
    fn check_contact_handles(&self, contacts: &[Contact]) -> Result<(), SnapshotError> {
        let sorted = contacts
            .windows(2)
            .all(|w| (w[0].a, w[0].b) < (w[1].a, w[1].b));
        let enabled = |handle| self.get(handle).is_ok_and(|collider| collider.enabled);
        if !sorted
            || contacts
                .iter()
                .any(|c| c.a >= c.b || !enabled(c.a) || !enabled(c.b))
        {
            return Err(SnapshotError::ContactHandles);
        }
        Ok(())
    }

    /// Pending ends are sorted pairs `a < b`, each once and not a contact, of colliders that
    /// existed (an older generation of their slot, or the live collider), one of them removed
    /// or changed since the last update (only that detaches a pair).
    fn check_pending_ends(
        &self,
        pending_ends: &[(ColliderHandle, ColliderHandle)],
        contacts: &[Contact],
    ) -> Result<(), SnapshotError> {
        let sorted = pending_ends.windows(2).all(|w| w[0] < w[1]);
        let existed = |handle: ColliderHandle| {
            self.slots.get(handle.index as usize).is_some_and(|slot| {
                handle.generation < slot.generation
                    || (handle.generation == slot.generation && slot.entry.is_some())
            })
        };
        let is_contact = |pair: (ColliderHandle, ColliderHandle)| {
            contacts
                .binary_search_by(|contact| (contact.a, contact.b).cmp(&pair))
                .is_ok()
        };
        if !sorted
            || pending_ends
                .iter()
                .any(|&(a, b)| a >= b || !existed(a) || !existed(b) || is_contact((a, b)))
        {
            return Err(SnapshotError::PendingEndHandles);
        }
        let unchanged =
            |handle: ColliderHandle| self.contains(handle) && !self.is_dirty(handle.index);
        if pending_ends
            .iter()
            .any(|&(a, b)| unchanged(a) && unchanged(b))
        {
            return Err(SnapshotError::PendingEndCause);
        }
        Ok(())
    }

    /// Tests every box pair of colliders unchanged since the last update under the last
    /// update's layer matrix: each must touch exactly when it is a contact, with the contact's
    /// manifold, and every contact of two unchanged colliders must be among those pairs.
    fn check_contact_states(
        &mut self,
        contacts: &[Contact],
        unchanged_pairs: &[(ColliderHandle, ColliderHandle)],
    ) -> Result<(), SnapshotError> {
        let current = std::mem::replace(
            &mut self.layers,
            Layers::with_matrix(self.seen_layer_matrix),
        );
        // A pair with a continuous collider may hold the contact its sweep found at the time
        // of impact (or one that ended during the step), which a test at the end of the step
        // does not give again: only its handles are checked (above).
        let swept = |world: &World, handle: ColliderHandle| {
            world
                .get(handle)
                .is_ok_and(|collider| collider.is_continuous())
        };
        let mut checked = 0;
        let mut agree = true;
        for &(a, b) in unchanged_pairs {
            if swept(self, a) || swept(self, b) {
                continue;
            }
            let fresh = self.narrow_pair(a, b);
            let stored = contacts
                .binary_search_by(|contact| (contact.a, contact.b).cmp(&(a, b)))
                .ok()
                .map_or(PairAnswer::Apart, |position| {
                    PairAnswer::touching_with(contacts[position].manifold)
                });
            checked += usize::from(stored.is_touching());
            agree &= fresh == stored;
        }
        self.layers = current;
        let unchanged = |handle: ColliderHandle| !self.is_dirty(handle.index);
        let unchanged_contacts = contacts
            .iter()
            .filter(|contact| unchanged(contact.a) && unchanged(contact.b))
            .filter(|contact| !swept(self, contact.a) && !swept(self, contact.b))
            .count();
        if !agree || checked != unchanged_contacts {
            return Err(SnapshotError::ContactState);
        }
        Ok(())
    }
}

impl World {
    /// Rebuilds the continuous colliders' tracks: from the snapshot where it has one for a
    /// continuous collider, else from where the collider is.
    fn restore_continuous(
        &mut self,
        tracks: Vec<(u32, Track)>,
        mut passed: Vec<(ColliderHandle, ColliderHandle)>,
    ) -> Result<(), WorldError> {
        for (index, slot) in self.slots.iter().enumerate() {
            if let Some(entry) = slot.entry.as_ref().filter(|e| e.collider.continuous) {
                self.continuous.track(index as u32, entry.placement);
            }
        }
        for (index, track) in tracks {
            let continuous = self
                .slots
                .get(index as usize)
                .and_then(|slot| slot.entry.as_ref())
                .is_some_and(|entry| entry.collider.continuous);
            if !continuous
                || super::collider::check_transform(&track.previous).is_err()
                || track.turn.is_some_and(|turn| !turn.is_finite())
            {
                return Err(WorldError::InvalidInput("snapshot continuous tracks"));
            }
            self.continuous.track(index, track.previous);
            self.continuous.set_turn(index, track.turn);
        }
        passed.sort_unstable();
        passed.dedup();
        self.continuous.set_passed(passed);
        Ok(())
    }
}

impl World {
    /// The `End` of a pending pair restored without its details: removed when a collider is
    /// gone, else disabled, with the live colliders' data.
    fn guess_pending_end(&self, a: ColliderHandle, b: ColliderHandle) -> PendingEnd {
        let (entry_a, entry_b) = (self.entry(a).ok(), self.entry(b).ok());
        let reason = if entry_a.is_some() && entry_b.is_some() {
            EndReason::Disabled
        } else {
            EndReason::Removed
        };
        let data = |entry: Option<&super::Entry>| entry.map_or(0, |e| e.collider.user_data);
        let sensor = [entry_a, entry_b]
            .iter()
            .any(|entry| entry.is_some_and(|e| e.collider.sensor));
        PendingEnd {
            reason,
            sensor,
            user_data: [data(entry_a), data(entry_b)],
        }
    }
}
