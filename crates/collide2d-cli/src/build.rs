//! Building a [`Sim`] from a [`SceneFile`]: the world and its layers, then every block of
//! colliders in the file's order (arena, tiles, colliders, grids, scatters, character,
//! bullets), which fixes the collider indices reported in event output. Running the built
//! scene is [`crate::sim`]'s part.

use crate::defaults::SCENE;
use crate::memory;
use crate::progress::Progress;
use crate::rng::Rng;
use crate::scene::{vec2, BodyKind, BroadSpec, SceneError, SceneFile, SceneShape};
use crate::sim::{Body, Motion, Sim};
use collide2d::level::{Tile, TileMap};
use collide2d::shape::{Aabb, Chain, Circle, Polygon, Shape};
use collide2d::world::{BroadPhaseKind, Collider, ColliderHandle, LayerId, World};
use collide2d::{Transform, Vec2};
use std::path::Path;

/// Colliders added between two progress updates while building.
const PROGRESS_STEP: usize = 1 << 14;

/// Where a piece of the scene is, for messages.
fn at(path: &Path, location: &str, message: impl std::fmt::Display) -> SceneError {
    SceneError::new(path, format!("{location}: {message}"))
}

/// Default motion: dynamic when moving, static otherwise.
fn motion_of(body: Option<BodyKind>, moving: bool) -> Option<Motion> {
    match body.unwrap_or(if moving {
        BodyKind::Dynamic
    } else {
        BodyKind::Static
    }) {
        BodyKind::Static => None,
        BodyKind::Kinematic => Some(Motion::Kinematic),
        BodyKind::Dynamic => Some(Motion::Dynamic),
    }
}

/// Everything needed to add one collider.
struct NewCollider {
    shape: Shape,
    position: Vec2,
    angle: f32,
    layer: LayerId,
    sensor: bool,
    velocity: Vec2,
    angular_velocity: f32,
    motion: Option<Motion>,
    one_way: Option<(Vec2, f32)>,
    name: String,
}

impl NewCollider {
    /// A still, unnamed, solid collider at `position`, unrotated: scene entries set the other
    /// fields they have with struct-update syntax.
    fn still(shape: Shape, position: Vec2, layer: LayerId) -> NewCollider {
        NewCollider {
            shape,
            position,
            angle: 0.0,
            layer,
            sensor: false,
            velocity: Vec2::ZERO,
            angular_velocity: 0.0,
            motion: None,
            one_way: None,
            name: String::new(),
        }
    }
}

impl Sim {
    /// Builds the world of a scene; `path` is only used in messages.
    pub fn build(scene: &SceneFile, path: &Path) -> Result<Sim, SceneError> {
        Sim::build_with_progress(scene, path, None)
    }

    /// Builds the world of a scene, showing `progress` (counted in colliders) as it goes.
    ///
    /// The world's and the simulation's per-collider arrays are sized once from the scene's
    /// collider count, so a huge scene is not copied into a twice-as-large buffer at the end.
    pub fn build_with_progress(
        scene: &SceneFile,
        path: &Path,
        progress: Option<Progress>,
    ) -> Result<Sim, SceneError> {
        let broad = match scene.broad_phase {
            BroadSpec::Tree => BroadPhaseKind::Tree,
            BroadSpec::Grid => BroadPhaseKind::Grid {
                cell_size: scene.grid_cell.map_or(SCENE.grid_cell, |n| n.0),
            },
            BroadSpec::Sap => BroadPhaseKind::SweepAndPrune,
        };
        let mut world = World::with_broad_phase(broad).map_err(|e| at(path, "grid_cell", e))?;
        for (i, name) in scene.layers.iter().enumerate() {
            world
                .layers_mut()
                .add(name)
                .map_err(|e| at(path, &format!("layers[{i}]"), e))?;
        }
        for (i, [a, b]) in scene.ignore.iter().enumerate() {
            world
                .layers_mut()
                .disable_by_name(a, b)
                .map_err(|e| at(path, &format!("ignore[{i}]"), e))?;
        }
        let dt = scene.dt.map_or(SCENE.dt, |n| n.0);
        if dt <= 0.0 {
            return Err(at(path, "dt", "must be greater than zero"));
        }
        let view = match scene.view {
            None => None,
            Some([x0, y0, x1, y1]) => Some(
                Aabb::new(Vec2::new(x0.0, y0.0), Vec2::new(x1.0, y1.0))
                    .ok()
                    .filter(|v| v.extents().x > 0.0 && v.extents().y > 0.0)
                    .ok_or_else(|| at(path, "view", "min must be below max on both axes"))?,
            ),
        };
        let mut sim = Sim {
            world,
            bodies: Vec::new(),
            body_of: Vec::new(),
            names: Vec::new(),
            dt,
            default_frames: scene.frames.unwrap_or(SCENE.frames),
            view,
            title: scene.name.clone().unwrap_or_default(),
            frame: 0,
            building: progress,
        };
        let blocks = memory::blocks(scene);
        let count = |n: u64| usize::try_from(n).unwrap_or(usize::MAX);
        let colliders = count(blocks.iter().map(|b| b.colliders).sum());
        sim.world.reserve(colliders);
        sim.bodies
            .reserve(count(blocks.iter().map(|b| b.moving).sum()));
        sim.body_of.reserve(colliders);
        sim.names.reserve(colliders);
        sim.add_arena(scene, path)?;
        sim.add_tiles(scene, path)?;
        sim.add_colliders(scene, path)?;
        sim.add_grids(scene, path)?;
        sim.add_scatters(scene, path)?;
        sim.add_character(scene, path)?;
        sim.add_bullets(scene, path)?;
        if let Some(progress) = sim.building.take() {
            progress.set(sim.world.len() as u64);
            progress.finish();
        }
        Ok(sim)
    }

    fn layer(
        &self,
        path: &Path,
        location: &str,
        name: &Option<String>,
    ) -> Result<LayerId, SceneError> {
        self.world
            .layers()
            .id(SceneFile::layer_name(name))
            .map_err(|e| at(path, location, e))
    }

    fn add(
        &mut self,
        new: NewCollider,
        path: &Path,
        location: &str,
    ) -> Result<ColliderHandle, SceneError> {
        let mut collider = Collider::new(new.shape)
            .with_transform(Transform::new(new.position, new.angle))
            .with_layer(new.layer)
            .with_sensor(new.sensor);
        if let Some((direction, margin)) = new.one_way {
            collider = collider.with_one_way(direction, margin);
        }
        let handle = self
            .world
            .insert(collider)
            .map_err(|e| at(path, location, e))?;
        let index = handle.index() as usize;
        if self.body_of.len() <= index {
            self.body_of.resize(index + 1, u32::MAX);
            self.names.resize(index + 1, String::new());
        }
        self.names[index] = new.name;
        if let Some(progress) = &self.building {
            if index % PROGRESS_STEP == 0 {
                progress.set(index as u64);
            }
        }
        if let Some(motion) = new.motion {
            self.body_of[index] = self.bodies.len() as u32;
            self.bodies.push(Body {
                handle,
                position: new.position,
                angle: new.angle,
                velocity: new.velocity,
                angular_velocity: new.angular_velocity,
                motion,
                correction: Vec2::ZERO,
            });
        }
        Ok(handle)
    }

    fn add_arena(&mut self, scene: &SceneFile, path: &Path) -> Result<(), SceneError> {
        let Some(arena) = &scene.arena else {
            return Ok(());
        };
        let layer = self.layer(path, "arena.layer", &arena.layer)?;
        let (min, max) = (vec2(arena.min), vec2(arena.max));
        let thickness = arena.thickness.map_or(SCENE.arena_thickness, |n| n.0);
        let size = max - min;
        if size.x <= 0.0 || size.y <= 0.0 || thickness <= 0.0 {
            return Err(at(
                path,
                "arena",
                "min must be below max and thickness positive",
            ));
        }
        let walls = [
            (
                Vec2::new(min.x + size.x / 2.0, min.y - thickness / 2.0),
                Vec2::new(size.x + 2.0 * thickness, thickness),
            ),
            (
                Vec2::new(min.x + size.x / 2.0, max.y + thickness / 2.0),
                Vec2::new(size.x + 2.0 * thickness, thickness),
            ),
            (
                Vec2::new(min.x - thickness / 2.0, min.y + size.y / 2.0),
                Vec2::new(thickness, size.y),
            ),
            (
                Vec2::new(max.x + thickness / 2.0, min.y + size.y / 2.0),
                Vec2::new(thickness, size.y),
            ),
        ];
        for (i, (center, extents)) in walls.into_iter().enumerate() {
            let shape = Polygon::rect(extents.x, extents.y).map_err(|e| at(path, "arena", e))?;
            self.add(
                NewCollider {
                    name: format!("wall {i}"),
                    ..NewCollider::still(Shape::from(shape), center, layer)
                },
                path,
                "arena",
            )?;
        }
        if self.view.is_none() {
            let margin = Vec2::splat(thickness * 2.0);
            self.view = Aabb::new(min - margin, max + margin).ok();
        }
        Ok(())
    }

    fn add_tiles(&mut self, scene: &SceneFile, path: &Path) -> Result<(), SceneError> {
        let Some(tiles) = &scene.tiles else {
            return Ok(());
        };
        let layer = self.layer(path, "tiles.layer", &tiles.layer)?;
        let size = tiles.size.0;
        let platform = Shape::from(
            Polygon::box_at(
                Vec2::new(0.0, size * 0.4),
                Vec2::new(size / 2.0, size * 0.1),
                0.0,
            )
            .map_err(|e| at(path, "tiles.size", e))?,
        );
        check_tile_rows(&tiles.rows).map_err(|e| SceneError::new(path, e))?;
        let origin = vec2(tiles.origin);
        let count = tiles.rows.len();
        // Solid tiles are merged into regions whose outlines become closed chains: no seams for
        // the character or the crates to catch on.
        let width = tiles
            .rows
            .iter()
            .map(|row| row.chars().count())
            .max()
            .unwrap_or(0);
        if width > 0 && tiles.rows.iter().any(|row| row.contains('#')) {
            let cells: Vec<Vec<bool>> = tiles
                .rows
                .iter()
                .rev()
                .map(|row| row.chars().map(|c| c == '#').collect())
                .collect();
            let map = TileMap::from_fn(width as u32, count as u32, size, origin, |x, y| {
                let solid = cells[y as usize].get(x as usize).copied().unwrap_or(false);
                if solid {
                    Tile::SOLID
                } else {
                    Tile::EMPTY
                }
            })
            .map_err(|e| at(path, "tiles", e))?;
            for (id, region) in map.regions() {
                for (index, outline) in region.outlines().enumerate() {
                    let chain = Chain::closed(outline).map_err(|e| at(path, "tiles", e))?;
                    self.add(
                        NewCollider::still(Shape::from(chain), Vec2::ZERO, layer),
                        path,
                        &format!("tiles ({id}, outline {index})"),
                    )?;
                }
            }
        }
        for (row_index, row) in tiles.rows.iter().enumerate() {
            let y = origin.y + (count - 1 - row_index) as f32 * size + size / 2.0;
            for (column, cell) in row.chars().enumerate() {
                if cell != '=' {
                    continue;
                }
                let location = format!("tiles.rows[{row_index}][{column}]");
                self.add(
                    NewCollider {
                        one_way: Some((Vec2::Y, size * 0.2)),
                        ..NewCollider::still(
                            platform.clone(),
                            Vec2::new(origin.x + column as f32 * size + size / 2.0, y),
                            layer,
                        )
                    },
                    path,
                    &location,
                )?;
            }
        }
        Ok(())
    }

    fn add_colliders(&mut self, scene: &SceneFile, path: &Path) -> Result<(), SceneError> {
        for (i, spec) in scene.colliders.iter().enumerate() {
            let location = format!("colliders[{i}]");
            let layer = self.layer(path, &format!("{location}.layer"), &spec.layer)?;
            let velocity = vec2(spec.velocity);
            let moving = velocity != Vec2::ZERO || spec.angular_velocity.0 != 0.0;
            let one_way = spec
                .one_way
                .as_ref()
                .map(|w| (vec2(w.direction), w.margin.0));
            let handle = self.add(
                NewCollider {
                    angle: spec.angle.0,
                    sensor: spec.sensor,
                    velocity,
                    angular_velocity: spec.angular_velocity.0,
                    motion: motion_of(spec.body, moving),
                    one_way,
                    name: spec.name.clone().unwrap_or_default(),
                    ..NewCollider::still(spec.shape.0.clone(), vec2(spec.position), layer)
                },
                path,
                &location,
            )?;
            self.set_continuous(handle, spec.continuous, path, &location)?;
        }
        Ok(())
    }

    fn add_grids(&mut self, scene: &SceneFile, path: &Path) -> Result<(), SceneError> {
        for (i, grid) in scene.grids.iter().enumerate() {
            let location = format!("grids[{i}]");
            let layer = self.layer(path, &format!("{location}.layer"), &grid.layer)?;
            let total = u64::from(grid.rows) * u64::from(grid.cols);
            if total > 20_000_000 {
                return Err(at(
                    path,
                    &location,
                    format!("{total} copies is too many (at most 20,000,000)"),
                ));
            }
            let mut rng = Rng::new(grid.seed);
            let origin = vec2(grid.origin);
            let spacing = vec2(grid.spacing);
            let motion = motion_of(grid.body, grid.speed.is_some());
            for row in 0..grid.rows {
                for column in 0..grid.cols {
                    let jitter = Vec2::new(rng.signed(), rng.signed()) * grid.jitter.0;
                    let position = origin
                        + Vec2::new(column as f32 * spacing.x, row as f32 * spacing.y)
                        + jitter;
                    let velocity = random_velocity(&mut rng, grid.speed.map(|[a, b]| (a.0, b.0)));
                    self.add(
                        NewCollider {
                            sensor: grid.sensor,
                            velocity,
                            motion: motion.clone(),
                            ..NewCollider::still(grid.shape.0.clone(), position, layer)
                        },
                        path,
                        &location,
                    )?;
                }
            }
        }
        Ok(())
    }

    fn add_scatters(&mut self, scene: &SceneFile, path: &Path) -> Result<(), SceneError> {
        for (i, scatter) in scene.scatter.iter().enumerate() {
            let location = format!("scatter[{i}]");
            let layer = self.layer(path, &format!("{location}.layer"), &scatter.layer)?;
            if scatter.shapes.is_empty() {
                return Err(at(
                    path,
                    &format!("{location}.shapes"),
                    "needs at least one shape",
                ));
            }
            if scatter.count > 20_000_000 {
                return Err(at(
                    path,
                    &location,
                    "count is too large (at most 20,000,000)",
                ));
            }
            let [x0, y0, x1, y1] = scatter.area.map(|n| n.0);
            if x1 < x0 || y1 < y0 {
                return Err(at(
                    path,
                    &format!("{location}.area"),
                    "min must not exceed max",
                ));
            }
            let mut rng = Rng::new(scatter.seed);
            let motion = motion_of(
                scatter.body,
                scatter.speed.is_some() || scatter.spin.0 != 0.0,
            );
            for _ in 0..scatter.count {
                let SceneShape(shape) = &scatter.shapes[rng.below(scatter.shapes.len())];
                let position = Vec2::new(rng.range(x0, x1), rng.range(y0, y1));
                let angle = rng.range(0.0, std::f32::consts::TAU);
                let velocity = random_velocity(&mut rng, scatter.speed.map(|[a, b]| (a.0, b.0)));
                let angular_velocity = rng.signed() * scatter.spin.0;
                self.add(
                    NewCollider {
                        angle,
                        sensor: scatter.sensor,
                        velocity,
                        angular_velocity,
                        motion: motion.clone(),
                        ..NewCollider::still(shape.clone(), position, layer)
                    },
                    path,
                    &location,
                )?;
            }
        }
        Ok(())
    }

    fn add_character(&mut self, scene: &SceneFile, path: &Path) -> Result<(), SceneError> {
        let Some(character) = &scene.character else {
            return Ok(());
        };
        let layer = self.layer(path, "character.layer", &character.layer)?;
        self.add(
            NewCollider {
                motion: Some(Motion::Character {
                    walk_speed: character.walk_speed.0,
                    gravity: vec2(character.gravity),
                    jump_speed: character.jump_speed.0,
                    jump_every: character.jump_every,
                    floor_frames: 0,
                }),
                name: "character".to_string(),
                ..NewCollider::still(character.shape.0.clone(), vec2(character.position), layer)
            },
            path,
            "character",
        )?;
        Ok(())
    }

    fn add_bullets(&mut self, scene: &SceneFile, path: &Path) -> Result<(), SceneError> {
        for (i, bullet) in scene.bullets.iter().enumerate() {
            let location = format!("bullets[{i}]");
            let layer = self.layer(path, &format!("{location}.layer"), &bullet.layer)?;
            let shape = match &bullet.shape {
                Some(shape) => shape.0.clone(),
                None => Shape::from(
                    Circle::with_radius(SCENE.bullet_radius).map_err(|e| at(path, &location, e))?,
                ),
            };
            let count = bullet.count.unwrap_or(1);
            if count > 1_000_000 {
                return Err(at(path, &format!("{location}.count"), "at most 1,000,000"));
            }
            let velocity = vec2(bullet.velocity);
            for k in 0..count {
                let turn = if count > 1 {
                    bullet.spread.0 * (k as f32 / (count - 1) as f32 - 0.5)
                } else {
                    0.0
                };
                let handle = self.add(
                    NewCollider {
                        velocity: Vec2::from_angle(turn).rotate(velocity),
                        motion: Some(Motion::Bullet {
                            bounces_left: bullet.bounces.unwrap_or(SCENE.bullet_bounces),
                        }),
                        name: format!("bullet {i}.{k}"),
                        ..NewCollider::still(shape.clone(), vec2(bullet.position), layer)
                    },
                    path,
                    &location,
                )?;
                self.set_continuous(handle, bullet.continuous, path, &location)?;
            }
        }
        Ok(())
    }

    /// Applies a scene's `continuous` setting to a collider just added.
    fn set_continuous(
        &mut self,
        handle: ColliderHandle,
        continuous: bool,
        path: &Path,
        location: &str,
    ) -> Result<(), SceneError> {
        self.world
            .set_continuous(handle, continuous)
            .map_err(|e| at(path, location, e))
    }
}

/// Every tile row must be as long as the first: a short row would silently leave holes (in a
/// wall, say) where the map's author meant tiles.
pub fn check_tile_rows(rows: &[String]) -> Result<(), String> {
    let Some(first) = rows.first() else {
        return Ok(());
    };
    let width = first.chars().count();
    for (index, row) in rows.iter().enumerate().skip(1) {
        let length = row.chars().count();
        if length != width {
            return Err(format!(
                "tiles.rows[{index}]: {length} characters, but row 0 has {width}; every row must be \
                 as long as the first (use `.` for empty tiles)"
            ));
        }
    }
    Ok(())
}

fn random_velocity(rng: &mut Rng, speed: Option<(f32, f32)>) -> Vec2 {
    match speed {
        None => Vec2::ZERO,
        Some((low, high)) => {
            Vec2::from_angle(rng.range(0.0, std::f32::consts::TAU)) * rng.range(low, high)
        }
    }
}
