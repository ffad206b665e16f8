//! bevy_collide2d: [collide2d] as the collision layer of a Bevy game.
//!
//! Games that only need to know what touches what (platformers, shooters, puzzle and top-down
//! games) get colliders on their entities, named layers with a layer matrix, started/ended
//! events, spatial queries and a character controller, with no rigid bodies or solver.
//!
//! ```
//! use bevy_app::{App, PostUpdate};
//! use bevy_ecs::prelude::*;
//! use bevy_transform::prelude::*;
//! use bevy_collide2d::prelude::*;
//!
//! let mut app = App::new();
//! app.add_plugins((
//!     bevy_transform::TransformPlugin,
//!     Collide2dPlugin::new(PostUpdate).with_layers(["Player", "Coin"]),
//! ));
//! let hero = app.world_mut().spawn((Collider::circle(0.5)?, CollisionLayer::named("Player"))).id();
//! let coin = app
//!     .world_mut()
//!     .spawn((Collider::circle(0.25)?, Sensor, CollisionLayer::named("Coin"), Transform::from_xyz(0.6, 0.0, 0.0)))
//!     .id();
//! app.update();
//! let started: Vec<_> = app.world_mut().resource_mut::<Messages<CollisionStarted>>().drain().collect();
//! assert_eq!((started[0].a, started[0].b, started[0].sensor), (hero, coin, true));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # How a step runs
//!
//! The plugin's systems run in one schedule ([`FixedPostUpdate`]
//! by default, any schedule with [`Collide2dPlugin::new`]), in the [`Collide2dSystems`] sets,
//! in this order:
//!
//! 1. [`Propagate`](Collide2dSystems::Propagate): Bevy's transform propagation, so that
//!    `GlobalTransform`s set in the fixed schedule are current: a `Transform` changed earlier in
//!    the same run (in `FixedUpdate`) counts in that run. One changed outside the schedule
//!    counts at its next run; for `FixedPostUpdate` that is the next frame's fixed step, as
//!    Bevy runs the fixed steps before `Update`.
//! 2. [`Sync`](Collide2dSystems::Sync): removed colliders leave the collision world (in
//!    entity index order; a contact they had ends with [`EndReason::Removed`], despawned or not),
//!    new colliders enter it (in entity index order), changed colliders, layers and sensors are
//!    applied (in entity index order), then the changed `GlobalTransform`s (only those) are pushed as
//!    one batch. Removals (of a `Collider`, `CollisionLayer` or `Sensor`, or by a despawn) are
//!    observed as they happen, so a schedule that runs only every few frames (a fixed step at
//!    a high frame rate) still applies every one.
//! 3. [`Move`](Collide2dSystems::Move): [`CharacterController`]s move with `move_and_slide`
//!    (in entity order); each move carries the character's descendants along at once (their
//!    `GlobalTransform`s and colliders), so the next character and the update see a child
//!    hitbox where it is on the moved character.
//! 4. [`Update`](Collide2dSystems::Update): the world's update; its begin and end events become
//!    [`CollisionStarted`] / [`CollisionEnded`] messages in the world's pair order, observer
//!    triggers on both entities, and [`CollidingEntities`] changes. A pair that changes kind
//!    while touching (a [`Sensor`] added or removed) ends as the kind it was
//!    ([`EndReason::SensorChanged`]) and starts as the other in the same step, the end first:
//!    a game that reads the two message kinds one after the other reads the ends first, or
//!    keys its pairs by their `sensor` flag too.
//!
//! Each collider's user data in the [`collide2d::World`] is its entity's
//! [`Entity::to_bits`](bevy_ecs::entity::Entity::to_bits).
//!
//! # Disabled and hidden entities
//!
//! An entity with Bevy's [`Disabled`](bevy_ecs::entity_disabling::Disabled) has its collider
//! disabled at the next step: its contacts end with [`EndReason::Disabled`] (its
//! [`CollidingEntities`] too), characters pass through it, and [`SpatialQuery`] leaves it
//! out at once (as it does an entity despawned or stripped of its `Collider`: queries between
//! steps never name an entity that has no collider now). Enabled again, its
//! collider is built afresh from its components as they are then, at its `Transform` as it is
//! then (the plugin marks it changed: Bevy's propagation skips disabled entities, and would
//! leave a move made meanwhile out of its `GlobalTransform`). Visibility plays no part:
//! a hidden entity's collider collides like any other.
//!
//! Bevy's `Disabled` is not inherited: the descendants of a disabled entity keep their
//! colliders, but its propagation stops there, so their `GlobalTransform`s, and so their
//! colliders, stay where they were until it is enabled again (then they follow their
//! `Transform`s as they are then). A [`CharacterController`] among them is frozen the same
//! way: it does not move (its `motion` is dropped, [`CharacterState::moved`] is zero), so its
//! `Transform`, `GlobalTransform` and collider stay together and it does not jump when the
//! ancestor comes back.
//!
//! # Layers
//!
//! A [`CollisionLayer`] is a name, resolved against the world's layer names at each step they
//! change ([`CollisionWorld::layers_mut`]: a layer added, renamed or reordered at run time,
//! a preset assigned or loaded later). A name that does not exist (yet) puts the collider on
//! the `"default"` layer, and records a [`CollisionError`] (`UnknownLayer`) at each step while
//! it does not exist; the step the layer appears, the collider joins it (a contact its new
//! layer filters out ends with [`EndReason::Filtered`]).
//!
//! # Tile maps
//!
//! [`spawn_tile_map`] spawns a collide2d [`TileMap`](collide2d::level::TileMap)'s merged
//! regions as collider entities, the colliders
//! [`TileMapColliders`](collide2d::world::TileMapColliders) gives a plain world: a closed
//! chain per outline (no seams for a character to catch on) or a box per merged rectangle,
//! one-way upwards for one-way tiles, on the layer named for each tile's layer id. Each entity
//! carries its [`TileRegion`] and a `Transform` at its shape's first corner (the shape is
//! built about it, so a map far from the origin keeps the queries' precision). The platformer
//! example builds its level this way.
//!
//! # Scale
//!
//! A collider's shape is scaled by its own [`scale`](Collider::with_scale) times its entity's
//! global scale, and its offset by the entity's scale. [`Collider::with_ignore_object_scale`]
//! leaves out the size of that scale but not its mirror: the collider is then its shape mapped
//! by the entity's `GlobalTransform` with the scale factors taken as ±1. That is the one
//! answer that depends on the `GlobalTransform` alone: a mirror is a half turn times the
//! mirror in the other axis (a scale of (1, -1) is a half turn times (-1, 1)), so a collider
//! that left the mirror out would have to pick a turn, upright under one spelling of the
//! same transform and upside down under another.
//!
//! Polygons, segments and chains take any scale exactly; circles, capsules and rounded
//! polygons take a non-uniform scale as the larger factor (their rounding stays round). An
//! offset that is both turned and under a non-uniform scale is scaled in the shape's own frame.
//! A one-way collider's margin (a depth) scales with the shape along its blocking side, so a
//! tile map under a parent scaled by 16 keeps its platforms' quarter-cell margin.
//! A negative scale mirrors the shape, its offset, the offset's turn and a one-way collider's
//! blocking side, as the sprite is mirrored. The entity's placement and scale are its `GlobalTransform` as a camera looking
//! down `z` sees it ([`convert::placement`]): a half turn about `x` or `y` (a sprite flipped
//! that way) is a mirror, and a skew is dropped.
//! Scale factors are read to 16 fraction bits ([`convert::read_scale`]), so a scale reads the
//! same at every turn of a parent: a collider is reshaped only when the scale it takes (or its
//! `Collider`) changes, never by a move or a turn alone, and its shape is the one a fresh
//! build would make ([`CollisionWorld::shapes_built`] counts the builds).
//! A zero or non-finite scale is refused: the collider keeps its last shape and a
//! [`CollisionError`] is recorded. A non-finite translation is refused alike: the collider
//! keeps its last placement (a new one stays out of the world) and the error is recorded at
//! each step until the transform is finite again.
//!
//! # Features
//!
//! | feature | what it adds |
//! |---|---|
//! | `debug-draw` | `debug::DebugDrawPlugin`: gizmos for shapes (green, red while touching, sensors blue), contact points and normals, toggled by the `debug::DebugDrawSettings` resource |
#![warn(missing_docs)]
#![deny(unsafe_code)]

mod character;
mod components;
pub mod convert;
#[cfg(feature = "debug-draw")]
pub mod debug;
mod events;
mod query;
mod sync;
mod tile_map;

use bevy_app::{App, FixedPostUpdate, Plugin};
use bevy_ecs::entity::{Entity, EntityHashMap, EntityHashSet};
use bevy_ecs::intern::Interned;
use bevy_ecs::prelude::*;
use bevy_ecs::schedule::ScheduleLabel;
use collide2d::world::{ColliderHandle, LayerId, LayerMask, Layers, WorldError};

pub use character::{CharacterController, CharacterState};
pub use collide2d;
pub use components::{Collider, CollidingEntities, CollisionLayer, Sensor};
pub use events::{CollisionEnded, CollisionStarted, ContactManifold};
pub use query::{RayHitData, ShapeHitData, SpatialQuery, SpatialQueryFilter};
pub use tile_map::{spawn_tile_map, tile_map_colliders, TileRegion};

pub use collide2d::world::EndReason;

/// The types a game names most.
pub mod prelude {
    pub use crate::{
        CharacterController, CharacterState, Collide2dPlugin, Collide2dSystems, Collider,
        CollidingEntities, CollisionEnded, CollisionLayer, CollisionSettings, CollisionStarted,
        CollisionWorld, ContactManifold, EndReason, Sensor, SpatialQuery, SpatialQueryFilter,
    };
}

/// Adds the collision world, its systems and its messages to an app.
///
/// ```
/// use bevy_collide2d::Collide2dPlugin;
/// // Fixed-step (the default), three layers, players and bullets never collide.
/// let plugin = Collide2dPlugin::default()
///     .with_layers(["Player", "Enemy", "Bullet"])
///     .with_layer_pair("Player", "Bullet", false)
///     .with_manifolds(true);
/// # let _ = plugin;
/// ```
pub struct Collide2dPlugin {
    schedule: Interned<dyn ScheduleLabel>,
    layers: Vec<String>,
    pairs: Vec<(String, String, bool)>,
    manifolds: bool,
}

impl Default for Collide2dPlugin {
    fn default() -> Self {
        Collide2dPlugin::new(FixedPostUpdate)
    }
}

impl Collide2dPlugin {
    /// The plugin with its systems in `schedule`.
    pub fn new(schedule: impl ScheduleLabel) -> Collide2dPlugin {
        Collide2dPlugin {
            schedule: schedule.intern(),
            layers: Vec::new(),
            pairs: Vec::new(),
            manifolds: false,
        }
    }

    /// With these named layers (beside `"default"`); every layer collides with every layer
    /// until [`with_layer_pair`](Collide2dPlugin::with_layer_pair) says otherwise.
    pub fn with_layers<S: Into<String>>(mut self, names: impl IntoIterator<Item = S>) -> Self {
        self.layers.extend(names.into_iter().map(Into::into));
        self
    }

    /// Whether the layers named `a` and `b` collide (applied in order, after the layers).
    pub fn with_layer_pair(mut self, a: &str, b: &str, collide: bool) -> Self {
        self.pairs.push((a.to_string(), b.to_string(), collide));
        self
    }

    /// Whether [`CollisionStarted`] carries the contact manifold (default `false`).
    pub fn with_manifolds(mut self, manifolds: bool) -> Self {
        self.manifolds = manifolds;
        self
    }
}

impl Plugin for Collide2dPlugin {
    fn build(&self, app: &mut App) {
        let mut world = CollisionWorld::default();
        // Started and ended events only: a game reads what stays touching from
        // `CollidingEntities` or the world's contacts.
        world.world.set_report_stay(false);
        for name in &self.layers {
            if let Err(error) = world.world.layers_mut().add(name) {
                world.errors.push(CollisionError {
                    entity: None,
                    error,
                });
            }
        }
        for (a, b, collide) in &self.pairs {
            let layers = world.world.layers_mut();
            let result = if *collide {
                layers.enable_by_name(a, b)
            } else {
                layers.disable_by_name(a, b)
            };
            if let Err(error) = result {
                world.errors.push(CollisionError {
                    entity: None,
                    error,
                });
            }
        }
        app.insert_resource(world)
            .insert_resource(CollisionSettings {
                manifolds: self.manifolds,
            })
            .add_message::<CollisionStarted>()
            .add_message::<CollisionEnded>()
            .add_observer(sync::note_gone)
            .add_observer(sync::note_back)
            .add_observer(sync::note_disabled)
            .add_observer(sync::propagate_enabled)
            .add_observer(sync::note_layer_gone)
            .add_observer(sync::note_sensor_gone)
            .configure_sets(
                self.schedule,
                Collide2dSystems::Propagate.after(bevy_transform::TransformSystems::Propagate),
            )
            .configure_sets(
                self.schedule,
                (
                    Collide2dSystems::Propagate,
                    Collide2dSystems::Sync,
                    Collide2dSystems::Move,
                    Collide2dSystems::Update,
                )
                    .chain(),
            )
            .add_systems(
                self.schedule,
                (
                    (
                        bevy_transform::systems::mark_dirty_trees,
                        bevy_transform::systems::propagate_parent_transforms,
                        bevy_transform::systems::sync_simple_transforms,
                    )
                        .chain()
                        .in_set(Collide2dSystems::Propagate),
                    sync::sync_colliders.in_set(Collide2dSystems::Sync),
                    character::move_characters.in_set(Collide2dSystems::Move),
                    events::update_world.in_set(Collide2dSystems::Update),
                ),
            );
    }
}

/// The plugin's system sets, chained in this order in its schedule.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Collide2dSystems {
    /// Transform propagation.
    Propagate,
    /// Colliders, layers, sensors and transforms into the collision world.
    Sync,
    /// Character controllers.
    Move,
    /// The world's update and its events.
    Update,
}

/// Settings read at every step.
#[derive(Resource, Clone, Copy, Debug, Default)]
pub struct CollisionSettings {
    /// Whether [`CollisionStarted`] carries the contact manifold.
    pub manifolds: bool,
}

/// Something the collision world refused: a collider's shape, scale, transform or layer.
#[derive(Clone, Debug, PartialEq)]
pub struct CollisionError {
    /// The entity whose collider was refused (`None` for the plugin's own layer setup).
    pub entity: Option<Entity>,
    /// Why.
    pub error: WorldError,
}

/// What the plugin keeps per collider entity.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Tracked {
    pub(crate) handle: ColliderHandle,
    /// The scale the world's shape was made with (collider scale × object scale).
    pub(crate) scale: collide2d::Vec2,
    /// The part of the object scale the collider takes (`sync::taken_scale`): its shape and
    /// offset were made with it.
    pub(crate) object_scale: collide2d::Vec2,
    /// Whether the entity is disabled (its collider too, until it is built again).
    pub(crate) disabled: bool,
}

/// What happened to a tracked entity between two steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pending {
    /// Its `Collider` went away, or it was despawned or disabled.
    Gone,
    /// Its layer or sensor component went away.
    Changed,
}

/// The collision world behind the plugin, with the entity of each collider.
#[derive(Resource, Default)]
pub struct CollisionWorld {
    pub(crate) world: collide2d::World,
    pub(crate) tracked: EntityHashMap<Tracked>,
    pub(crate) errors: Vec<CollisionError>,
    /// Tracked entities whose collider went away since the last step (observed as it happens,
    /// so a step that runs only every few frames still sees every one), and has not come back.
    pub(crate) gone: EntityHashSet,
    /// Tracked entities whose layer or sensor component went away since the last step.
    pub(crate) touched: Vec<Entity>,
    /// The layer names the colliders' layers were last resolved against: when the world's
    /// names differ at a step, every named layer is resolved again.
    pub(crate) layer_names: Vec<String>,
    /// Entities whose `CollisionLayer` names a layer that does not exist (yet): on the
    /// default layer, resolved again (and the error recorded again) at each step.
    pub(crate) unresolved: EntityHashSet,
    /// How many collider shapes have been built (see [`CollisionWorld::shapes_built`]).
    pub(crate) shapes_built: u64,
}

impl CollisionWorld {
    /// Keeps `what` happened to `entity` for the next step, when its collider is tracked.
    pub(crate) fn note(&mut self, entity: Entity, what: Pending) {
        if self.tracked.contains_key(&entity) {
            match what {
                Pending::Gone => {
                    self.gone.insert(entity);
                }
                Pending::Changed => self.touched.push(entity),
            }
        }
    }

    /// The library's world, to read (colliders, contacts, layers, statistics).
    pub fn world(&self) -> &collide2d::World {
        &self.world
    }

    /// The layer names and matrix, to change (takes effect at the next step).
    ///
    /// Layers added, renamed or reordered here (a whole preset assigned, loaded from a file)
    /// are resolved again at the next step: every collider's [`CollisionLayer`] name is looked
    /// up in the new names, so a collider that named a layer before it existed joins it then.
    pub fn layers_mut(&mut self) -> &mut Layers {
        self.world.layers_mut()
    }

    /// The id of the layer named `name`.
    pub fn layer(&self, name: &str) -> Result<LayerId, WorldError> {
        self.world.layers().id(name)
    }

    /// The mask of the layers named in `names`.
    pub fn layer_mask(&self, names: &[&str]) -> Result<LayerMask, WorldError> {
        names.iter().try_fold(LayerMask::NONE, |mask, name| {
            Ok(mask.with(self.world.layers().id(name)?))
        })
    }

    /// The world's handle of `entity`'s collider; `None` when the entity has no collider in
    /// the world, or it is disabled, or its collider went away since the last step (removed,
    /// despawned or disabled: the collider stays in the world until the next step, but the
    /// entity is answered at once, as [`SpatialQuery`] does).
    pub fn handle(&self, entity: Entity) -> Option<ColliderHandle> {
        if self.gone.contains(&entity) {
            return None;
        }
        self.tracked
            .get(&entity)
            .filter(|t| !t.disabled)
            .map(|t| t.handle)
    }

    /// The entity of a collider handle (from its user data); `None` for a handle that is not
    /// the collider of an entity with a collider now (see [`CollisionWorld::handle`]), so a
    /// game is never handed an entity despawned since the last step.
    pub fn entity(&self, handle: ColliderHandle) -> Option<Entity> {
        let collider = self.world.get(handle).ok()?;
        let entity = Entity::try_from_bits(collider.user_data())?;
        (self.handle(entity) == Some(handle)).then_some(entity)
    }

    /// Whether `entity`'s collider touched anything at the last step; `false` once its
    /// collider went away (see [`CollisionWorld::handle`]).
    pub fn is_touching(&self, entity: Entity) -> bool {
        self.handle(entity)
            .is_some_and(|handle| self.world.is_touching(handle))
    }

    /// How many collider shapes the plugin has built so far: one per collider put into the
    /// world, and one each time a collider is reshaped (its `Collider` changed, or the scale it
    /// takes from its entity changed). A profiling figure: moves and turns alone build none.
    pub fn shapes_built(&self) -> u64 {
        self.shapes_built
    }

    /// What the world refused: the plugin's layer setup (kept), and colliders during the last
    /// step (cleared at the start of each step).
    pub fn errors(&self) -> &[CollisionError] {
        &self.errors
    }
}

/// The order in which the plugin applies per-entity changes: by index, then generation (so
/// entities spawned earlier come first when no index was reused).
pub fn entity_order(entity: Entity) -> (u32, u32) {
    (entity.index_u32(), entity.generation().to_bits())
}

/// The entity stored in a collider's user data; `None` for data that is not an entity.
pub(crate) fn entity_of(user_data: u64) -> Option<Entity> {
    Entity::try_from_bits(user_data)
}
