//! Tile maps in a world: each merged region becomes a few colliders, kept current by edits.

use super::{Collider, ColliderHandle, World, WorldError};
use crate::level::{Region, RegionChange, RegionId, TileMap};
use crate::math::Vec2;
use crate::shape::{Chain, Polygon, Shape, ShapeError};
use crate::Transform;
use std::collections::BTreeMap;

/// Which merged geometry a tile map's regions become.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum TileGeometry {
    /// One closed [`Chain`] per outline (outer boundary and each hole): no ghost collisions
    /// anywhere along a region's surface. The default.
    #[default]
    Outlines,
    /// One box collider per greedy-merged rectangle: solid interiors (a shape deep inside is
    /// still pushed out), but shapes sliding across the seams between rectangles can catch on
    /// them as on separate tiles.
    Rectangles,
}

impl TileGeometry {
    /// The shapes a region becomes in this geometry, in world coordinates: a closed chain per
    /// outline or a box per merged rectangle. A map's corners lie within the coordinate range
    /// ([`TileMap`] checks it), so every shape can be built; were one refused, the error says
    /// why, and the region should be refused with it rather than left without colliders.
    ///
    /// For colliders, use [`anchored_region_shapes`](Self::anchored_region_shapes): a shape in
    /// world coordinates placed at the identity makes every query against it compute in
    /// coordinates as large as the map's place, losing precision far from the origin.
    pub fn region_shapes(self, region: &Region) -> Result<Vec<Shape>, ShapeError> {
        match self {
            TileGeometry::Outlines => region
                .outlines()
                .map(|outline| Chain::closed(outline).map(Shape::from))
                .collect(),
            TileGeometry::Rectangles => region
                .rectangles()
                .map(|rectangle| rectangle.to_polygon().map(Shape::from))
                .collect(),
        }
    }

    /// The shapes of [`region_shapes`](Self::region_shapes), each about its first corner, with
    /// that corner (the anchor): a collider of the shape placed at the anchor (translation
    /// only) covers the same ground, and queries against it work in coordinates the size of
    /// the shape, keeping their precision however far from the origin the map lies (tile
    /// corners far out are `f32` values close together, so the subtraction is exact there).
    /// An outline's chain is anchored at its first vertex, a rectangle's box at its min corner.
    /// These are the shapes and placements [`TileMapColliders`] inserts.
    pub fn anchored_region_shapes(self, region: &Region) -> Result<Vec<(Vec2, Shape)>, ShapeError> {
        match self {
            TileGeometry::Outlines => region
                .outlines()
                .map(|outline| {
                    // An empty outline (never built by a tile map) is refused by `Chain::closed`.
                    let anchor = outline.first().copied().unwrap_or(Vec2::ZERO);
                    let local: Vec<Vec2> = outline.iter().map(|p| *p - anchor).collect();
                    Ok((anchor, Shape::from(Chain::closed(&local)?)))
                })
                .collect(),
            TileGeometry::Rectangles => region
                .rectangles()
                .map(|rectangle| {
                    let half = 0.5 * (rectangle.max - rectangle.min);
                    let local = Polygon::box_at(half, half, 0.0)?;
                    Ok((rectangle.min, Shape::from(local)))
                })
                .collect(),
        }
    }
}

/// The colliders standing for a [`TileMap`] in a [`World`], region by region.
///
/// Each shape is built about its first corner and its collider placed there (so queries keep
/// the shapes' own precision however far out the map lies). Every collider of a region is
/// static, on the layer whose index is the region's
/// [`Tile::layer`](crate::level::Tile::layer), one-way upwards (margin: a quarter of a cell)
/// when the region's tiles are one-way; [`region_of`](Self::region_of) names the region a
/// collider stands for, and its user data is left to the game. After
/// [`TileMap::set_tile`], pass the returned [`RegionChange`] to [`TileMapColliders::apply`]: only
/// the colliders of the regions the edit touched are replaced.
///
/// ```
/// use collide2d::level::{Tile, TileMap};
/// use collide2d::world::{TileGeometry, TileMapColliders, World};
/// use collide2d::Vec2;
/// let mut world = World::new();
/// // A floor 100 tiles long, one tile thick: one region, one four-vertex outline.
/// let mut map = TileMap::from_fn(100, 3, 1.0, Vec2::ZERO, |_, y| if y == 0 { Tile::SOLID } else { Tile::EMPTY })?;
/// let mut colliders = TileMapColliders::insert(&mut world, &map, TileGeometry::Outlines)?;
/// assert_eq!(colliders.len(), 1);
/// // Dig a hole in the floor: the one region becomes two.
/// let change = map.set_tile(50, 0, Tile::EMPTY)?;
/// colliders.apply(&mut world, &map, &change)?;
/// assert_eq!(colliders.len(), 2);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct TileMapColliders {
    geometry: TileGeometry,
    by_region: BTreeMap<RegionId, Vec<ColliderHandle>>,
    region_of: BTreeMap<ColliderHandle, RegionId>,
}

impl TileMapColliders {
    /// Inserts colliders for every region of `map`. On error (a tile layer the world does not
    /// have) nothing stays inserted.
    pub fn insert(
        world: &mut World,
        map: &TileMap,
        geometry: TileGeometry,
    ) -> Result<TileMapColliders, WorldError> {
        let mut colliders = TileMapColliders {
            geometry,
            by_region: BTreeMap::new(),
            region_of: BTreeMap::new(),
        };
        for (id, region) in map.regions() {
            if let Err(e) = colliders.insert_region(world, map, id, region) {
                colliders.remove_all(world);
                return Err(e);
            }
        }
        Ok(colliders)
    }

    /// Replaces the colliders of the regions an edit removed and added.
    pub fn apply(
        &mut self,
        world: &mut World,
        map: &TileMap,
        change: &RegionChange,
    ) -> Result<(), WorldError> {
        for id in &change.removed {
            for handle in self.by_region.remove(id).unwrap_or_default() {
                self.region_of.remove(&handle);
                // A handle the game removed itself is simply gone already.
                let _ = world.remove(handle);
            }
        }
        for &id in &change.added {
            if let Some(region) = map.region(id) {
                self.insert_region(world, map, id, region)?;
            }
        }
        Ok(())
    }

    /// Removes every collider of the map from the world.
    pub fn remove_all(&mut self, world: &mut World) {
        self.region_of.clear();
        for (_, handles) in std::mem::take(&mut self.by_region) {
            for handle in handles {
                let _ = world.remove(handle);
            }
        }
    }

    /// How many colliders stand for the map.
    pub fn len(&self) -> usize {
        self.by_region.values().map(Vec::len).sum()
    }

    /// Whether the map has no colliders (no solid tiles).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The colliders of one region (empty for an unknown or stale id).
    pub fn region_colliders(&self, id: RegionId) -> &[ColliderHandle] {
        self.by_region.get(&id).map_or(&[], Vec::as_slice)
    }

    /// The region a collider stands for (`None` for a collider not of this map), e.g. to find
    /// the tile under a contact: `map.region(id)` then `Region::tile`.
    pub fn region_of(&self, handle: ColliderHandle) -> Option<RegionId> {
        self.region_of.get(&handle).copied()
    }

    /// Every collider, region by region.
    pub fn handles(&self) -> impl Iterator<Item = ColliderHandle> + '_ {
        self.by_region.values().flatten().copied()
    }

    /// Which geometry the regions become.
    pub fn geometry(&self) -> TileGeometry {
        self.geometry
    }

    fn insert_region(
        &mut self,
        world: &mut World,
        map: &TileMap,
        id: RegionId,
        region: &Region,
    ) -> Result<(), WorldError> {
        let tile = region.tile();
        let layer = tile.layer;
        if !world.layers().contains(layer) {
            return Err(WorldError::InvalidLayer(layer));
        }
        let shapes = self.geometry.anchored_region_shapes(region)?;
        let mut handles = Vec::with_capacity(shapes.len());
        for (anchor, shape) in shapes {
            let mut collider = Collider::new(shape)
                .with_layer(layer)
                .with_transform(Transform::new(anchor, 0.0));
            if tile.one_way {
                collider = collider.with_one_way(Vec2::Y, 0.25 * map.cell_size());
            }
            match world.insert(collider) {
                Ok(handle) => handles.push(handle),
                Err(e) => {
                    for handle in handles {
                        let _ = world.remove(handle);
                    }
                    return Err(e);
                }
            }
        }
        for &handle in &handles {
            self.region_of.insert(handle, id);
        }
        self.by_region.insert(id, handles);
        Ok(())
    }
}
