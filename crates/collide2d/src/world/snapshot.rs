//! Whole-world snapshots: save a world's state and rebuild it exactly.

use super::continuous::Track;
use super::{
    BroadPhaseKind, Collider, ColliderHandle, Contact, Entry, Layers, Slot, Touching, TouchingPair,
    World, WorldError,
};

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
    /// The continuous colliders' placements at the last update, by slot (old snapshots without
    /// them sweep from where the colliders are).
    #[cfg_attr(feature = "serde", serde(default))]
    continuous_tracks: Vec<(u32, Track)>,
    /// Pairs a sweep made touch that were apart at the end of the last update.
    #[cfg_attr(feature = "serde", serde(default))]
    passed_pairs: Vec<(ColliderHandle, ColliderHandle)>,
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
                .enumerate()
                .map(|(index, slot)| {
                    let dirty = self.is_dirty(index as u32);
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
            pending_ends: self.touching.detached().to_vec(),
            report_stay: self.report_stay,
            continuous_tracks: self.continuous.saved_tracks(),
            passed_pairs: self.continuous.passed().to_vec(),
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
                return Err(WorldError::InvalidInput("snapshot free list"));
            }
        }
        if world.slots.iter().filter(|s| s.entry.is_none()).count() != snapshot.free.len() {
            return Err(WorldError::InvalidInput("snapshot free list"));
        }
        world.free = snapshot.free;
        world.restore_continuous(snapshot.continuous_tracks, snapshot.passed_pairs)?;
        let sorted = snapshot
            .contacts
            .windows(2)
            .all(|w| (w[0].a, w[0].b) < (w[1].a, w[1].b));
        if !sorted || snapshot.contacts.iter().any(|c| c.a >= c.b) {
            return Err(WorldError::InvalidInput("snapshot contacts"));
        }
        let mut touching =
            Vec::with_capacity(snapshot.contacts.len() + snapshot.pending_ends.len());
        for contact in snapshot.contacts {
            if !world.contains(contact.a) || !world.contains(contact.b) {
                return Err(WorldError::InvalidInput("snapshot contacts"));
            }
            touching.push(TouchingPair {
                a: contact.a,
                b: contact.b,
                manifold: contact.manifold,
                detached: false,
            });
            // The rebuilt broad phase cannot say which of these pairs' boxes came apart since
            // the last update: re-test them all at the next one.
            world.retest_pending.push((contact.a, contact.b));
        }
        // Pending ends are kept as detached pairs; a pair listed as both touching and pending
        // is re-tested like any touching pair, which decides between `Stay` and `End`.
        touching.extend(
            snapshot
                .pending_ends
                .into_iter()
                .map(|(a, b)| TouchingPair {
                    a,
                    b,
                    manifold: None,
                    detached: true,
                }),
        );
        touching.sort_by_key(|pair| (pair.pair(), pair.detached));
        touching.dedup_by_key(|pair| pair.pair());
        world.touching = Touching::from_sorted(touching);
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
            world.box_pairs += 1;
        }
        Ok(world)
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
