//! The collision `World`: colliders behind integer handles, layers, events, queries, character
//! movement, tile maps, snapshots, and the NumPy batch calls.

use collide2d::level::{Tile, TileMap};
use collide2d::shape::{Aabb, Ray};
use collide2d::world::{
    Collider, ColliderHandle, CollisionGroups, LayerMask, MoveOptions, QueryFilter, TileGeometry,
    TileMapColliders, World, WorldSnapshot,
};
use collide2d::{CastOptions, Transform, Vec2};
use numpy::{PyArray1, PyArray2};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::arrays;
use crate::convert::{self, pair, vec2, HandleArg, Handles, Names, PyTransform, Real, Unsigned};
use crate::errors;
use crate::parallel;
use crate::queries::{PyCastHit, PyManifold, PyRayHit};
use crate::results::{PyEvents, PyMoveResult, PyRayHits};
use crate::shapes::{self, shape_of};

/// A batch query's answer: the row each found handle belongs to, and the handles.
type RowsAndHandles<'py> = (Bound<'py, PyArray1<i64>>, Bound<'py, PyArray1<u64>>);

/// The handle value batch results give where there is no collider (a ray that missed).
pub const NO_HANDLE: u64 = u64::MAX;

/// The box from `min` to `max`, or why not: the axis where `min` is above `max`, in the names
/// of the arguments that gave them.
fn make_aabb(min: Vec2, max: Vec2, names: (&str, &str)) -> Result<Aabb, String> {
    for (axis, lo, hi) in [("x", min.x, max.x), ("y", min.y, max.y)] {
        if lo > hi {
            let (min_name, max_name) = names;
            return Err(format!(
                "{min_name} {axis} ({lo}) is greater than {max_name} {axis} ({hi})"
            ));
        }
    }
    Ok(Aabb { min, max })
}

/// What a query keeps: layer mask, whether sensors count, handles left out. Owned, so a
/// batch can build its `QueryFilter` on the thread that runs without the GIL.
struct FilterSpec {
    mask: LayerMask,
    sensors: bool,
    exclude: Vec<ColliderHandle>,
}

impl FilterSpec {
    fn filter(&self) -> QueryFilter<'_> {
        let filter = QueryFilter::new()
            .layers(self.mask)
            .excluding(&self.exclude);
        if self.sensors {
            filter.with_sensors()
        } else {
            filter
        }
    }
}

/// The shapes of `insert_many`: one for every row, or one per row.
enum ShapePerRow {
    One(collide2d::Shape),
    Each(Vec<collide2d::Shape>),
}

impl ShapePerRow {
    fn row(&self, i: usize) -> collide2d::Shape {
        match self {
            ShapePerRow::One(shape) => shape.clone(),
            ShapePerRow::Each(list) => list[i].clone(),
        }
    }
}

/// Every collider of a scene, which layers collide, and who touches whom.
///
/// Handles are integers; after `remove` a handle is stale and every call with it raises
/// `StaleHandle` (as does any integer no world gives out, such as -1). Call `update()` once per
/// step after moving colliders; it returns the step's `Events`. Batch calls take NumPy arrays
/// (float32 or float64, converted to float32 once; any memory layout; at most 2**24 rows) and
/// run with the GIL released. A world serves one call at a time: a call made from another
/// thread while one runs (a batch releases the GIL) raises `RuntimeError` ("Already
/// borrowed") and changes nothing. A world pickles (through its snapshot); the editable tile
/// maps of `insert_tile_map` do not travel with it, their colliders do.
#[pyclass(module = "collide2d", name = "World")]
pub struct PyWorld {
    world: World,
    tile_maps: Vec<(TileMap, TileMapColliders)>,
}

impl PyWorld {
    fn filter_spec(
        &self,
        py: Python<'_>,
        layers: Option<Names>,
        sensors: bool,
        exclude: Option<Handles>,
    ) -> PyResult<FilterSpec> {
        let mask = match layers {
            None => LayerMask::ALL,
            Some(Names(names)) => {
                let mut mask = LayerMask::NONE;
                for name in names {
                    let id = self
                        .world
                        .layers()
                        .id(&name)
                        .map_err(|e| errors::world(py, e))?;
                    mask = mask.with(id);
                }
                mask
            }
        };
        Ok(FilterSpec {
            mask,
            sensors,
            exclude: exclude.map(|Handles(handles)| handles).unwrap_or_default(),
        })
    }

    #[allow(clippy::too_many_arguments)]
    fn collider(
        &self,
        py: Python<'_>,
        shape: &Bound<'_, PyAny>,
        transform: Transform,
        offset: Option<&Bound<'_, PyAny>>,
        layer: Option<&str>,
        sensor: bool,
        enabled: bool,
        user_data: u64,
        continuous: bool,
        one_way: Option<(Bound<'_, PyAny>, Real)>,
    ) -> PyResult<Collider> {
        let mut collider = Collider::new(shape_of(py, shape)?)
            .with_transform(transform)
            .with_sensor(sensor)
            .with_enabled(enabled)
            .with_user_data(user_data)
            .with_continuous(continuous);
        if let Some(offset) = offset {
            collider = collider.with_offset(convert::transform(py, Some(offset), "offset")?);
        }
        if let Some(name) = layer {
            let id = self
                .world
                .layers()
                .id(name)
                .map_err(|e| errors::world(py, e))?;
            collider = collider.with_layer(id);
        }
        if let Some((direction, margin)) = one_way {
            let direction = vec2(py, &direction, "one_way direction")?;
            if direction == Vec2::ZERO {
                return Err(errors::invalid(py, "one_way direction is zero"));
            }
            let margin = convert::finite(py, "one_way margin", margin.0)?;
            if margin < 0.0 {
                return Err(errors::invalid(
                    py,
                    format!("one_way margin {margin} is negative"),
                ));
            }
            collider = collider.with_one_way(direction, margin);
        }
        Ok(collider)
    }
}

#[pymethods]
impl PyWorld {
    /// An empty world with one layer, `"default"`, that collides with every layer.
    #[new]
    fn new() -> PyWorld {
        PyWorld {
            world: World::new(),
            tile_maps: Vec::new(),
        }
    }

    fn __len__(&self) -> usize {
        self.world.len()
    }

    /// Whether `handle` (an integer) is a live collider of this world; any other integer,
    /// a removed collider's or one never given out, is not.
    /// Anything else (a string, a float, a bool, `None`) is not one either: `False`, as for any
    /// Python container, never an exception.
    fn __contains__(&self, handle: &Bound<'_, PyAny>) -> bool {
        match handle.extract::<HandleArg>() {
            Ok(handle) => self.world.contains(handle.0),
            Err(_) => false,
        }
    }

    fn __repr__(&self) -> String {
        format!("World(colliders={})", self.world.len())
    }

    // ---- layers ----

    /// Adds a layer named `name` (colliding with every layer) and returns its index.
    fn add_layer(&mut self, py: Python<'_>, name: &str) -> PyResult<usize> {
        let id = self
            .world
            .layers_mut()
            .add(name)
            .map_err(|e| errors::world(py, e))?;
        Ok(id.index())
    }

    /// The layer names, in index order.
    #[getter]
    fn layer_names(&self) -> Vec<String> {
        self.world
            .layers()
            .iter()
            .map(|(_, name)| name.to_string())
            .collect()
    }

    /// Sets whether layers `a` and `b` (names) collide; the matrix stays symmetric.
    fn set_layers_collide(
        &mut self,
        py: Python<'_>,
        a: &str,
        b: &str,
        collide: bool,
    ) -> PyResult<()> {
        let layers = self.world.layers_mut();
        let done = if collide {
            layers.enable_by_name(a, b)
        } else {
            layers.disable_by_name(a, b)
        };
        done.map_err(|e| errors::world(py, e))
    }

    /// Whether layers `a` and `b` (names) collide.
    fn layers_collide(&self, py: Python<'_>, a: &str, b: &str) -> PyResult<bool> {
        let layers = self.world.layers();
        let ia = layers.id(a).map_err(|e| errors::world(py, e))?;
        let ib = layers.id(b).map_err(|e| errors::world(py, e))?;
        Ok(layers.collides(ia, ib))
    }

    /// Makes layer `layer` collide with the layers `others` only.
    fn collide_only(&mut self, py: Python<'_>, layer: &str, others: Names) -> PyResult<()> {
        let layers = self.world.layers_mut();
        let id = layers.id(layer).map_err(|e| errors::world(py, e))?;
        let ids = others
            .0
            .iter()
            .map(|name| layers.id(name))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| errors::world(py, e))?;
        layers.collide_only(id, &ids);
        Ok(())
    }

    // ---- colliders ----

    /// Inserts a collider of `shape` placed at `transform` and returns its handle. Keywords
    /// (the library's `with_*` builders): `offset` (the shape's placement relative to the
    /// object), `layer` (a name), `sensor` (detects without a manifold), `enabled`,
    /// `user_data` (an unsigned 64-bit integer), `continuous` (swept between updates),
    /// `one_way` (`(direction, margin)`: blocks only what comes against `direction`),
    /// `groups` (`(category, mask)` bits: two colliders touch when each one's mask meets the
    /// other's category).
    #[pyo3(signature = (shape, transform = None, *, offset = None, layer = None, sensor = false, enabled = true, user_data = Unsigned(0), continuous = false, one_way = None, groups = None))]
    #[allow(clippy::too_many_arguments)]
    fn insert(
        &mut self,
        py: Python<'_>,
        shape: &Bound<'_, PyAny>,
        transform: Option<&Bound<'_, PyAny>>,
        offset: Option<&Bound<'_, PyAny>>,
        layer: Option<&str>,
        sensor: bool,
        enabled: bool,
        user_data: Unsigned<u64>,
        continuous: bool,
        one_way: Option<(Bound<'_, PyAny>, Real)>,
        groups: Option<(Unsigned<u32>, Unsigned<u32>)>,
    ) -> PyResult<u64> {
        let xf = convert::transform(py, transform, "transform")?;
        let mut collider = self.collider(
            py,
            shape,
            xf,
            offset,
            layer,
            sensor,
            enabled,
            user_data.0,
            continuous,
            one_way,
        )?;
        if let Some((category, mask)) = groups {
            collider = collider.with_groups(CollisionGroups::new(category.0, mask.0));
        }
        let h = self
            .world
            .insert(collider)
            .map_err(|e| errors::world(py, e))?;
        Ok(h.to_bits())
    }

    /// Inserts one collider per row of `positions` (`(n, 2)`), turned by `angles` (`(n,)`,
    /// radians; default 0): of `shape` for all, or of `shape[i]` when it is a sequence of `n`
    /// shapes. Keywords as in `insert` (a `user_data` here is an `(n,)` integer array or one
    /// integer for all). Returns the new handles, a uint64 array. All or nothing; the world's
    /// tree is built in one pass, which also makes later queries faster than after `n`
    /// single inserts.
    #[pyo3(signature = (shape, positions, angles = None, *, layer = None, sensor = false, enabled = true, user_data = None, continuous = false))]
    #[allow(clippy::too_many_arguments)]
    fn insert_many<'py>(
        &mut self,
        py: Python<'py>,
        shape: &Bound<'py, PyAny>,
        positions: &Bound<'py, PyAny>,
        angles: Option<&Bound<'py, PyAny>>,
        layer: Option<&str>,
        sensor: bool,
        enabled: bool,
        user_data: Option<&Bound<'py, PyAny>>,
        continuous: bool,
    ) -> PyResult<Bound<'py, PyArray1<u64>>> {
        let positions = arrays::points(py, positions, "positions", None)?;
        let n = positions.len();
        let angles = match angles {
            Some(a) => arrays::scalars(py, a, "angles", n)?,
            None => vec![0.0; n],
        };
        if let Some(row) = angles.iter().position(|a| !a.is_finite()) {
            return Err(errors::invalid(
                py,
                format!("angles: row {row} is NaN or infinite"),
            ));
        }
        let data: Vec<u64> = match user_data {
            None => vec![0; n],
            Some(obj) => match obj.extract::<Unsigned<u64>>() {
                Ok(Unsigned(value)) => vec![value; n],
                // An integer out of range: refused as it is, not read as an array.
                Err(error) if error.is_instance_of::<pyo3::exceptions::PyValueError>(py) => {
                    return Err(error)
                }
                Err(_) => {
                    let values = arrays::handles(py, obj, "user_data")?;
                    if values.len() != n {
                        return Err(errors::invalid(
                            py,
                            format!("user_data has {} rows, expected {n}", values.len()),
                        ));
                    }
                    values.into_iter().map(|h| h.to_bits()).collect()
                }
            },
        };
        let shapes: Option<Vec<collide2d::Shape>> = if shape.cast::<shapes::PyShape>().is_ok() {
            None
        } else {
            let list: Vec<Bound<'py, PyAny>> = shape.extract().map_err(|_| {
                errors::array_type(py, "shape must be a Shape or a sequence of Shapes")
            })?;
            if list.len() != n {
                return Err(errors::invalid(
                    py,
                    format!("{} shapes for {n} positions", list.len()),
                ));
            }
            Some(
                list.iter()
                    .map(|s| shape_of(py, s))
                    .collect::<PyResult<Vec<_>>>()?,
            )
        };
        let layer = match layer {
            Some(name) => Some(
                self.world
                    .layers()
                    .id(name)
                    .map_err(|e| errors::world(py, e))?,
            ),
            None => None,
        };
        let shapes = match shapes {
            Some(list) => ShapePerRow::Each(list),
            None => ShapePerRow::One(shape_of(py, shape)?),
        };
        let world = &mut self.world;
        let inserted = py.detach(|| {
            world.insert_many((0..n).map(|i| {
                let collider = Collider::new(shapes.row(i))
                    .with_transform(Transform::new(positions[i], angles[i]))
                    .with_sensor(sensor)
                    .with_enabled(enabled)
                    .with_continuous(continuous)
                    .with_user_data(data[i]);
                match layer {
                    Some(id) => collider.with_layer(id),
                    None => collider,
                }
            }))
        });
        let handles = inserted.map_err(|e| errors::world(py, e))?;
        Ok(PyArray1::from_vec(
            py,
            handles.into_iter().map(|h| h.to_bits()).collect(),
        ))
    }

    /// Removes a collider; its contacts end at the next `update()`.
    fn remove(&mut self, py: Python<'_>, handle: HandleArg) -> PyResult<()> {
        self.world
            .remove(handle.0)
            .map(|_| ())
            .map_err(|e| errors::world(py, e))
    }

    /// Removes the colliders of `handles` (an integer array); all or nothing: a stale handle,
    /// or one named twice, raises `StaleHandle` and removes nothing. The GIL is released
    /// while the world removes them.
    fn remove_many(&mut self, py: Python<'_>, handles: &Bound<'_, PyAny>) -> PyResult<()> {
        let handles = arrays::handles(py, handles, "handles")?;
        let world = &mut self.world;
        py.detach(|| world.remove_many(&handles).map(|_| ()))
            .map_err(|e| errors::world(py, e))
    }

    /// Every live handle, a new uint64 array in slot order.
    fn handles<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u64>> {
        PyArray1::from_vec(py, self.world.iter().map(|(h, _)| h.to_bits()).collect())
    }

    /// A collider's placement.
    fn transform(&self, py: Python<'_>, handle: HandleArg) -> PyResult<PyTransform> {
        let collider = self.get(py, handle.0)?;
        Ok(PyTransform {
            xf: collider.transform(),
        })
    }

    /// A collider's shape.
    fn shape(&self, py: Python<'_>, handle: HandleArg) -> PyResult<Py<PyAny>> {
        let shape = self.get(py, handle.0)?.shape().clone();
        shapes::wrap(py, shape)
    }

    /// A collider's bounding box `(min_x, min_y, max_x, max_y)` as placed now.
    fn aabb(&self, py: Python<'_>, handle: HandleArg) -> PyResult<(f32, f32, f32, f32)> {
        let b = self.get(py, handle.0)?.aabb();
        Ok((b.min.x, b.min.y, b.max.x, b.max.y))
    }

    /// A collider's user data.
    fn user_data(&self, py: Python<'_>, handle: HandleArg) -> PyResult<u64> {
        Ok(self.get(py, handle.0)?.user_data())
    }

    /// A collider's layer name.
    fn layer(&self, py: Python<'_>, handle: HandleArg) -> PyResult<String> {
        let layer = self.get(py, handle.0)?.layer();
        Ok(self
            .world
            .layers()
            .name(layer)
            .unwrap_or_default()
            .to_string())
    }

    /// Whether a collider is a sensor.
    fn is_sensor(&self, py: Python<'_>, handle: HandleArg) -> PyResult<bool> {
        Ok(self.get(py, handle.0)?.is_sensor())
    }

    /// Whether a collider is enabled.
    fn is_enabled(&self, py: Python<'_>, handle: HandleArg) -> PyResult<bool> {
        Ok(self.get(py, handle.0)?.is_enabled())
    }

    /// Moves a collider to `transform` (a `Transform`, `(x, y)` or `(x, y, angle)`).
    fn set_transform(
        &mut self,
        py: Python<'_>,
        handle: HandleArg,
        transform: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let xf = convert::transform(py, Some(transform), "transform")?;
        self.world
            .set_transform(handle.0, xf)
            .map_err(|e| errors::world(py, e))
    }

    /// Moves many colliders at once: row `i` of `positions` (`(n, 2)`) and `angles` (`(n,)`,
    /// default 0) places `handles[i]`. Float32 or float64; the GIL is released while the world
    /// moves them. All or nothing: a stale handle or a bad row raises and moves nothing. A
    /// handle named twice is moved by each of its rows in order (the last one stays).
    #[pyo3(signature = (handles, positions, angles = None))]
    fn set_transforms(
        &mut self,
        py: Python<'_>,
        handles: &Bound<'_, PyAny>,
        positions: &Bound<'_, PyAny>,
        angles: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let handles = arrays::handles(py, handles, "handles")?;
        let n = handles.len();
        let positions = arrays::points(py, positions, "positions", Some(n))?;
        let angles = match angles {
            Some(a) => arrays::scalars(py, a, "angles", n)?,
            None => vec![0.0; n],
        };
        for (row, angle) in angles.iter().enumerate() {
            if !angle.is_finite() {
                return Err(errors::invalid(
                    py,
                    format!("angles: row {row} is NaN or infinite"),
                ));
            }
        }
        let world = &mut self.world;
        py.detach(|| {
            let moves: Vec<(ColliderHandle, Transform)> = (0..n)
                .map(|i| (handles[i], Transform::new(positions[i], angles[i])))
                .collect();
            world.set_transforms(&moves)
        })
        .map_err(|e| errors::world(py, e))
    }

    /// Makes a collider a sensor or not.
    fn set_sensor(&mut self, py: Python<'_>, handle: HandleArg, sensor: bool) -> PyResult<()> {
        self.world
            .set_sensor(handle.0, sensor)
            .map_err(|e| errors::world(py, e))
    }

    /// Enables or disables a collider (a disabled one touches nothing).
    fn set_enabled(&mut self, py: Python<'_>, handle: HandleArg, enabled: bool) -> PyResult<()> {
        self.world
            .set_enabled(handle.0, enabled)
            .map_err(|e| errors::world(py, e))
    }

    /// Sets a collider's user data.
    fn set_user_data(
        &mut self,
        py: Python<'_>,
        handle: HandleArg,
        user_data: Unsigned<u64>,
    ) -> PyResult<()> {
        self.world
            .set_user_data(handle.0, user_data.0)
            .map_err(|e| errors::world(py, e))
    }

    /// Sets a collider's collision groups, `(category, mask)` bits.
    fn set_groups(
        &mut self,
        py: Python<'_>,
        handle: HandleArg,
        category: Unsigned<u32>,
        mask: Unsigned<u32>,
    ) -> PyResult<()> {
        self.world
            .set_groups(handle.0, CollisionGroups::new(category.0, mask.0))
            .map_err(|e| errors::world(py, e))
    }

    /// A collider's collision groups, `(category, mask)`.
    fn groups(&self, py: Python<'_>, handle: HandleArg) -> PyResult<(u32, u32)> {
        let groups = self.get(py, handle.0)?.groups();
        Ok((groups.category, groups.mask))
    }

    /// Moves a collider's shape on its object (`offset`: a `Transform`, `(x, y)` or
    /// `(x, y, angle)`).
    fn set_offset(
        &mut self,
        py: Python<'_>,
        handle: HandleArg,
        offset: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let offset = convert::transform(py, Some(offset), "offset")?;
        self.world
            .set_offset(handle.0, offset)
            .map_err(|e| errors::world(py, e))
    }

    /// Moves a collider to the layer named `layer`.
    fn set_layer(&mut self, py: Python<'_>, handle: HandleArg, layer: &str) -> PyResult<()> {
        let id = self
            .world
            .layers()
            .id(layer)
            .map_err(|e| errors::world(py, e))?;
        self.world
            .set_layer(handle.0, id)
            .map_err(|e| errors::world(py, e))
    }

    /// Replaces a collider's shape.
    fn set_shape(
        &mut self,
        py: Python<'_>,
        handle: HandleArg,
        shape: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let shape = shape_of(py, shape)?;
        self.world
            .set_shape(handle.0, shape)
            .map_err(|e| errors::world(py, e))
    }

    // ---- the step ----

    /// Finds who touches whom after this step's moves and returns the step's `Events`
    /// (begins and ends, in handle-pair order). Runs with the GIL released.
    fn update(&mut self, py: Python<'_>) -> PyEvents {
        let world = &mut self.world;
        py.detach(|| {
            world.update();
            PyEvents {
                began: world.began().to_vec(),
                ended: world.ended().to_vec(),
            }
        })
    }

    /// The last update's events again.
    fn events(&self) -> PyEvents {
        PyEvents {
            began: self.world.began().to_vec(),
            ended: self.world.ended().to_vec(),
        }
    }

    /// Every pair touching as of the last update: a list of `(a, b, manifold)` with `a < b`
    /// (`manifold` is `None` for sensor pairs).
    fn contacts(&self) -> Vec<(u64, u64, Option<PyManifold>)> {
        self.world
            .contacts()
            .map(|(a, b, m)| {
                (
                    a.to_bits(),
                    b.to_bits(),
                    m.map(|&manifold| PyManifold { manifold }),
                )
            })
            .collect()
    }

    /// Every pair touching as of the last update, a new `(m, 2)` uint64 array, `a < b` in
    /// each row, rows in pair order.
    fn contact_pairs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<u64>>> {
        arrays::pairs_out(py, self.world.contacts().map(|(a, b, _)| (a, b)))
    }

    /// The pairs `handle` touches as of the last update, as `contacts()` gives them.
    fn contacts_of(
        &self,
        py: Python<'_>,
        handle: HandleArg,
    ) -> PyResult<Vec<(u64, u64, Option<PyManifold>)>> {
        self.get(py, handle.0)?;
        Ok(self
            .world
            .contacts_of(handle.0)
            .map(|(a, b, m)| {
                (
                    a.to_bits(),
                    b.to_bits(),
                    m.map(|&manifold| PyManifold { manifold }),
                )
            })
            .collect())
    }

    /// Whether a collider touches anything as of the last update.
    fn is_touching(&self, py: Python<'_>, handle: HandleArg) -> PyResult<bool> {
        self.get(py, handle.0)?;
        Ok(self.world.is_touching(handle.0))
    }

    // ---- queries (keywords: layers = list of names, sensors = include sensors, exclude = handles) ----

    /// The colliders containing `point`, sorted by handle.
    #[pyo3(signature = (point, *, layers = None, sensors = false, exclude = None))]
    fn overlap_point(
        &self,
        py: Python<'_>,
        point: &Bound<'_, PyAny>,
        layers: Option<Names>,
        sensors: bool,
        exclude: Option<Handles>,
    ) -> PyResult<Vec<u64>> {
        let spec = self.filter_spec(py, layers, sensors, exclude)?;
        let found = self
            .world
            .overlap_point(vec2(py, point, "point")?, &spec.filter())
            .map_err(|e| errors::world(py, e))?;
        Ok(found.into_iter().map(|h| h.to_bits()).collect())
    }

    /// The colliders whose bounding box overlaps the box from `min` to `max`, sorted by handle.
    #[pyo3(signature = (min, max, *, layers = None, sensors = false, exclude = None))]
    fn overlap_aabb(
        &self,
        py: Python<'_>,
        min: &Bound<'_, PyAny>,
        max: &Bound<'_, PyAny>,
        layers: Option<Names>,
        sensors: bool,
        exclude: Option<Handles>,
    ) -> PyResult<Vec<u64>> {
        let spec = self.filter_spec(py, layers, sensors, exclude)?;
        let aabb = make_aabb(vec2(py, min, "min")?, vec2(py, max, "max")?, ("min", "max"))
            .map_err(|message| errors::invalid(py, message))?;
        let found = self
            .world
            .overlap_aabb(aabb, &spec.filter())
            .map_err(|e| errors::world(py, e))?;
        Ok(found.into_iter().map(|h| h.to_bits()).collect())
    }

    /// The colliders that `shape` placed at `transform` overlaps, sorted by handle.
    #[pyo3(signature = (shape, transform = None, *, layers = None, sensors = false, exclude = None))]
    fn overlap_shape(
        &self,
        py: Python<'_>,
        shape: &Bound<'_, PyAny>,
        transform: Option<&Bound<'_, PyAny>>,
        layers: Option<Names>,
        sensors: bool,
        exclude: Option<Handles>,
    ) -> PyResult<Vec<u64>> {
        let spec = self.filter_spec(py, layers, sensors, exclude)?;
        let shape = shape_of(py, shape)?;
        let xf = convert::transform(py, transform, "transform")?;
        let found = self
            .world
            .overlap_shape(&shape, &xf, &spec.filter())
            .map_err(|e| errors::world(py, e))?;
        Ok(found.into_iter().map(|h| h.to_bits()).collect())
    }

    /// The nearest collider the ray from `origin` along `direction` hits within
    /// `max_distance`, as a `RayHit` with its `handle`; `None` for a miss.
    #[pyo3(signature = (origin, direction, max_distance = None, *, layers = None, sensors = false, exclude = None))]
    #[allow(clippy::too_many_arguments)]
    fn ray_cast(
        &self,
        py: Python<'_>,
        origin: &Bound<'_, PyAny>,
        direction: &Bound<'_, PyAny>,
        max_distance: Option<Real>,
        layers: Option<Names>,
        sensors: bool,
        exclude: Option<Handles>,
    ) -> PyResult<Option<PyRayHit>> {
        let spec = self.filter_spec(py, layers, sensors, exclude)?;
        let ray = crate::queries::make_ray(py, origin, direction, max_distance)?;
        let hit = self
            .world
            .ray_cast(&ray, &spec.filter())
            .map_err(|e| errors::world(py, e))?;
        Ok(hit.map(|h| PyRayHit {
            distance: h.distance,
            point: pair(h.point),
            normal: pair(h.normal),
            handle: Some(h.collider.to_bits()),
        }))
    }

    /// The first collider that `shape`, moving from `transform` by `motion` (no rotation),
    /// would hit, as a `CastHit` with its `handle`; `None` if nothing is in the way. A motion
    /// ending beyond ±1e9 raises `InvalidInput`.
    #[pyo3(signature = (shape, transform, motion, *, layers = None, sensors = false, exclude = None))]
    #[allow(clippy::too_many_arguments)]
    fn shape_cast(
        &self,
        py: Python<'_>,
        shape: &Bound<'_, PyAny>,
        transform: &Bound<'_, PyAny>,
        motion: &Bound<'_, PyAny>,
        layers: Option<Names>,
        sensors: bool,
        exclude: Option<Handles>,
    ) -> PyResult<Option<PyCastHit>> {
        let spec = self.filter_spec(py, layers, sensors, exclude)?;
        let shape = shape_of(py, shape)?;
        let xf = convert::transform(py, Some(transform), "transform")?;
        let delta = vec2(py, motion, "motion")?;
        let hit = self
            .world
            .shape_cast(&shape, &xf, delta, &spec.filter(), CastOptions::default())
            .map_err(|e| errors::world(py, e))?;
        Ok(hit.map(|h| PyCastHit {
            fraction: h.fraction,
            point: pair(h.point),
            normal: pair(h.normal),
            handle: Some(h.collider.to_bits()),
        }))
    }

    /// Moves a character collider by `delta`, sliding along what it hits, stepping up small
    /// ledges and snapping down to floors. Keywords are the library's `MoveOptions` (`up`,
    /// `max_slope` in radians, `skin`, `max_iterations`, `step_height`, `snap_distance`,
    /// `stop_on_slope`, `max_recovery`); unset ones keep the library's defaults, or with
    /// `size` (the character's height along up) the defaults scaled to that size, as
    /// `MoveOptions::for_size` gives them. A `delta` that would carry the collider beyond
    /// ±1e9 raises `InvalidInput` and moves nothing.
    #[pyo3(signature = (handle, delta, *, size = None, up = None, max_slope = None, skin = None, max_iterations = None, step_height = None, snap_distance = None, stop_on_slope = None, max_recovery = None, layers = None, sensors = false, exclude = None))]
    #[allow(clippy::too_many_arguments)]
    fn move_and_slide(
        &mut self,
        py: Python<'_>,
        handle: HandleArg,
        delta: &Bound<'_, PyAny>,
        size: Option<Real>,
        up: Option<&Bound<'_, PyAny>>,
        max_slope: Option<Real>,
        skin: Option<Real>,
        max_iterations: Option<Unsigned<u32>>,
        step_height: Option<Real>,
        snap_distance: Option<Real>,
        stop_on_slope: Option<bool>,
        max_recovery: Option<Real>,
        layers: Option<Names>,
        sensors: bool,
        exclude: Option<Handles>,
    ) -> PyResult<PyMoveResult> {
        let spec = self.filter_spec(py, layers, sensors, exclude)?;
        let delta = vec2(py, delta, "delta")?;
        // Each option is checked here, so that a refusal names the keyword that is wrong.
        let length = |name: &str, value: Option<Real>| -> PyResult<Option<f32>> {
            match value {
                None => Ok(None),
                Some(Real(v)) => {
                    let v = convert::finite(py, name, v)?;
                    if v < 0.0 {
                        return Err(errors::invalid(
                            py,
                            format!("{name} must not be negative, got {v}"),
                        ));
                    }
                    Ok(Some(v))
                }
            }
        };
        let (skin, step_height) = (length("skin", skin)?, length("step_height", step_height)?);
        let snap_distance = length("snap_distance", snap_distance)?;
        let max_recovery = length("max_recovery", max_recovery)?;
        let max_slope = match max_slope {
            Some(Real(v)) => Some(convert::finite(py, "max_slope", v)?),
            None => None,
        };
        let defaults = match length("size", size)? {
            None => MoveOptions::default(),
            Some(size) if size > 0.0 => MoveOptions::for_size(size),
            Some(size) => {
                return Err(errors::invalid(
                    py,
                    format!("size must be positive, got {size}"),
                ))
            }
        };
        let mut opts = MoveOptions {
            filter: spec.filter(),
            ..defaults
        };
        if let Some(up) = up {
            opts.up = vec2(py, up, "up")?;
            if opts.up == Vec2::ZERO {
                return Err(errors::invalid(py, "up must be a direction, not (0, 0)"));
            }
        }
        if let Some(v) = max_slope {
            opts.max_slope = v;
        }
        if let Some(v) = skin {
            opts.skin = v;
        }
        if let Some(Unsigned(v)) = max_iterations {
            opts.max_iterations = v;
        }
        if let Some(v) = step_height {
            opts.step_height = v;
        }
        if let Some(v) = snap_distance {
            opts.snap_distance = v;
        }
        if let Some(v) = stop_on_slope {
            opts.stop_on_slope = v;
        }
        if let Some(v) = max_recovery {
            opts.max_recovery = v;
        }
        let result = self
            .world
            .move_and_slide(handle.0, delta, opts)
            .map_err(|e| errors::world(py, e))?;
        Ok(PyMoveResult {
            moved: pair(result.moved),
            hits: result
                .hits
                .iter()
                .map(|h| (h.collider.to_bits(), pair(h.point), pair(h.normal)))
                .collect(),
            on_floor: result.on_floor,
            on_ceiling: result.on_ceiling,
            on_wall: result.on_wall,
            floor_normal: result.floor_normal.map(pair),
            floor_collider: result.floor_collider.map(|h| h.to_bits()),
            recovery: pair(result.recovery),
            step: result.step,
            snap: result.snap,
            absorbed: pair(result.absorbed),
        })
    }

    // ---- batch queries ----

    /// For each row of `points` (`(n, 2)`, float32 or float64), the colliders containing it:
    /// returns `(rows, handles)`, two new arrays of equal length (int64 row indices in
    /// increasing order, uint64 handles sorted within a row), the same answers as
    /// `overlap_point` on each row. The GIL is released while it runs, spread over `threads`
    /// threads (default 1; `None` for every core; never more than the cores; batches of up to
    /// 1,024 rows run on one).
    #[pyo3(signature = (points, *, layers = None, sensors = false, exclude = None, threads = Some(Unsigned(1))))]
    fn overlap_points<'py>(
        &self,
        py: Python<'py>,
        points: &Bound<'py, PyAny>,
        layers: Option<Names>,
        sensors: bool,
        exclude: Option<Handles>,
        threads: Option<Unsigned<usize>>,
    ) -> PyResult<RowsAndHandles<'py>> {
        let spec = self.filter_spec(py, layers, sensors, exclude)?;
        let threads = parallel::thread_count(py, threads.map(|t| t.0))?;
        let points = arrays::points(py, points, "points", None)?;
        let world = &self.world;
        // One library batch a thread: each builds its own grid when its rows are many enough.
        let chunks = py.detach(|| {
            parallel::map_chunks(points.len(), threads, |range| {
                let first = range.start;
                let mut rows = Vec::new();
                let mut found = Vec::new();
                world
                    .overlap_points_each(&points[range], &spec.filter(), |row, handle| {
                        rows.push((first + row) as i64);
                        found.push(handle.to_bits());
                    })
                    .map(|()| (rows, found))
            })
        });
        let mut rows = Vec::new();
        let mut found = Vec::new();
        for chunk in chunks {
            let (chunk_rows, chunk_found) = chunk.map_err(|e| {
                let row = points.iter().position(|p| !p.is_finite()).unwrap_or(0);
                errors::world_at(py, row, e)
            })?;
            rows.extend(chunk_rows);
            found.extend(chunk_found);
        }
        Ok((PyArray1::from_vec(py, rows), PyArray1::from_vec(py, found)))
    }

    /// For each box (rows of `mins` and `maxs`, both `(n, 2)`), the colliders whose bounding
    /// box overlaps it: `(rows, handles)` as in `overlap_points`. The GIL is released, and the
    /// rows spread over `threads` threads as there.
    #[pyo3(signature = (mins, maxs, *, layers = None, sensors = false, exclude = None, threads = Some(Unsigned(1))))]
    #[allow(clippy::too_many_arguments)]
    fn overlap_aabbs<'py>(
        &self,
        py: Python<'py>,
        mins: &Bound<'py, PyAny>,
        maxs: &Bound<'py, PyAny>,
        layers: Option<Names>,
        sensors: bool,
        exclude: Option<Handles>,
        threads: Option<Unsigned<usize>>,
    ) -> PyResult<RowsAndHandles<'py>> {
        let spec = self.filter_spec(py, layers, sensors, exclude)?;
        let threads = parallel::thread_count(py, threads.map(|t| t.0))?;
        let mins = arrays::points(py, mins, "mins", None)?;
        let maxs = arrays::points(py, maxs, "maxs", Some(mins.len()))?;
        for (row, (&min, &max)) in mins.iter().zip(maxs.iter()).enumerate() {
            make_aabb(min, max, ("mins", "maxs"))
                .map_err(|message| errors::invalid(py, format!("row {row}: {message}")))?;
        }
        let world = &self.world;
        let answers = py.detach(|| {
            parallel::map_rows(mins.len(), threads, |row| {
                let aabb = Aabb {
                    min: mins[row],
                    max: maxs[row],
                };
                world.overlap_aabb(aabb, &spec.filter())
            })
        });
        rows_and_handles(py, answers)
    }

    /// Casts one ray per row of `origins` and `directions` (`(n, 2)` each; directions of any
    /// non-zero length) within `max_distance` (one number or an `(n,)` array): the nearest
    /// hit of each, as a `RayHits` of arrays, the same answers as `ray_cast` on each row. The
    /// GIL is released while the rays run, on `threads` threads (default `None`: one a core;
    /// 1: on the calling thread; never more than the cores; batches under 512 rows run on
    /// one). The world keeps the grid
    /// the batch reads until a collider is added, removed, moved or changed, so the first
    /// batch after a change also builds it.
    #[pyo3(signature = (origins, directions, max_distance = None, *, layers = None, sensors = false, exclude = None, threads = None))]
    #[allow(clippy::too_many_arguments)]
    fn ray_cast_many(
        &self,
        py: Python<'_>,
        origins: &Bound<'_, PyAny>,
        directions: &Bound<'_, PyAny>,
        max_distance: Option<&Bound<'_, PyAny>>,
        layers: Option<Names>,
        sensors: bool,
        exclude: Option<Handles>,
        threads: Option<Unsigned<usize>>,
    ) -> PyResult<PyRayHits> {
        let spec = self.filter_spec(py, layers, sensors, exclude)?;
        let pool = parallel::pool(py, threads.map(|t| t.0))?;
        let origins = arrays::points(py, origins, "origins", None)?;
        let n = origins.len();
        let directions = arrays::points(py, directions, "directions", Some(n))?;
        let max_distance = match max_distance {
            Some(m) => arrays::scalars(py, m, "max_distance", n)?,
            None => vec![f32::INFINITY; n],
        };
        let rays = (0..n)
            .map(|i| {
                Ray::new(origins[i], directions[i], max_distance[i]).map_err(|e| {
                    let message = crate::queries::ray_message(e);
                    errors::invalid(py, format!("row {i}: {message}"))
                })
            })
            .collect::<PyResult<Vec<Ray>>>()?;
        let world = &self.world;
        let found = py
            .detach(|| {
                parallel::install(pool.as_deref(), || {
                    world.ray_cast_many(&rays, &spec.filter())
                })
            })
            .map_err(|e| errors::world(py, e))?;
        let mut hit = Vec::with_capacity(n);
        let mut distance = Vec::with_capacity(n);
        let mut point = Vec::with_capacity(n);
        let mut normal = Vec::with_capacity(n);
        let mut handle = Vec::with_capacity(n);
        for answer in found {
            match answer {
                Some(h) => {
                    hit.push(true);
                    distance.push(h.distance);
                    point.push(h.point);
                    normal.push(h.normal);
                    handle.push(h.collider.to_bits());
                }
                None => {
                    hit.push(false);
                    distance.push(f32::INFINITY);
                    point.push(Vec2::ZERO);
                    normal.push(Vec2::ZERO);
                    handle.push(NO_HANDLE);
                }
            }
        }
        Ok(PyRayHits {
            hit: PyArray1::from_vec(py, hit).unbind(),
            distance: PyArray1::from_vec(py, distance).unbind(),
            point: arrays::points_out(py, &point)?.unbind(),
            normal: arrays::points_out(py, &normal)?.unbind(),
            handle: PyArray1::from_vec(py, handle).unbind(),
        })
    }

    // ---- tile maps ----

    /// Adds a tile map: `tiles` is a 2-D array (row 0 at the bottom, `tiles[y, x]`), nonzero
    /// for a solid cell, of cells `cell_size` wide, cell (0, 0)'s corner at `origin`. Its
    /// regions become colliders (closed outlines, or merged rectangles when `rectangles`).
    /// Returns the map's index for `set_tile` and `tile_map_handles`.
    #[pyo3(signature = (tiles, cell_size, origin = None, *, rectangles = false))]
    fn insert_tile_map(
        &mut self,
        py: Python<'_>,
        tiles: &Bound<'_, PyAny>,
        cell_size: Real,
        origin: Option<&Bound<'_, PyAny>>,
        rectangles: bool,
    ) -> PyResult<usize> {
        let solid = arrays::tiles(py, tiles)?;
        let grid = solid.as_array();
        let (height, width) = grid.dim();
        let origin = match origin {
            Some(o) => vec2(py, o, "origin")?,
            None => Vec2::ZERO,
        };
        let map = TileMap::from_fn(
            u32::try_from(width).unwrap_or(u32::MAX),
            u32::try_from(height).unwrap_or(u32::MAX),
            cell_size.0 as f32,
            origin,
            |x, y| {
                if grid[[y as usize, x as usize]] {
                    Tile::SOLID
                } else {
                    Tile::EMPTY
                }
            },
        )
        .map_err(|e| errors::invalid(py, e.to_string()))?;
        let geometry = if rectangles {
            TileGeometry::Rectangles
        } else {
            TileGeometry::Outlines
        };
        let colliders = TileMapColliders::insert(&mut self.world, &map, geometry)
            .map_err(|e| errors::world(py, e))?;
        self.tile_maps.push((map, colliders));
        Ok(self.tile_maps.len() - 1)
    }

    /// Sets cell `(x, y)` of tile map `map` solid or empty; only the colliders of the regions
    /// the edit touched are replaced.
    fn set_tile(
        &mut self,
        py: Python<'_>,
        map: Unsigned<usize>,
        x: Unsigned<u32>,
        y: Unsigned<u32>,
        solid: bool,
    ) -> PyResult<()> {
        let (Unsigned(map), Unsigned(x), Unsigned(y)) = (map, x, y);
        let (tile_map, colliders) = self
            .tile_maps
            .get_mut(map)
            .ok_or_else(|| errors::invalid(py, format!("no tile map {map}")))?;
        let tile = if solid { Tile::SOLID } else { Tile::EMPTY };
        let change = tile_map
            .set_tile(x, y, tile)
            .map_err(|e| errors::invalid(py, e.to_string()))?;
        colliders
            .apply(&mut self.world, tile_map, &change)
            .map_err(|e| errors::world(py, e))
    }

    /// The handles of tile map `map`'s colliders, a new uint64 array.
    fn tile_map_handles<'py>(
        &self,
        py: Python<'py>,
        map: Unsigned<usize>,
    ) -> PyResult<Bound<'py, PyArray1<u64>>> {
        let Unsigned(map) = map;
        let (_, colliders) = self
            .tile_maps
            .get(map)
            .ok_or_else(|| errors::invalid(py, format!("no tile map {map}")))?;
        Ok(PyArray1::from_vec(
            py,
            colliders.handles().map(|h| h.to_bits()).collect(),
        ))
    }

    // ---- snapshots and pickle ----

    /// The whole world (colliders, layers, contacts, the ends the next update reports) as bytes
    /// (the library's snapshot, as JSON); `World.restore` gives the world back. The last
    /// update's events are that update's answer, not the world's state: a restored (or
    /// unpickled) world's `events()` is empty until its next update.
    fn snapshot<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let bytes = serde_json::to_vec(&self.world.snapshot())
            .map_err(|e| errors::invalid(py, e.to_string()))?;
        Ok(PyBytes::new(py, &bytes))
    }

    /// The world that `snapshot()` saved; `InvalidInput` for bytes that are not one.
    #[staticmethod]
    fn restore(py: Python<'_>, data: &[u8]) -> PyResult<PyWorld> {
        let snapshot: WorldSnapshot = serde_json::from_slice(data)
            .map_err(|e| errors::invalid(py, format!("not a world snapshot: {e}")))?;
        let world = World::restore(snapshot).map_err(|e| errors::world(py, e))?;
        Ok(PyWorld {
            world,
            tile_maps: Vec::new(),
        })
    }

    fn __getstate__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        self.snapshot(py)
    }

    fn __setstate__(&mut self, py: Python<'_>, state: &[u8]) -> PyResult<()> {
        *self = PyWorld::restore(py, state)?;
        Ok(())
    }
}

/// A batch's per-row answers as `(rows, handles)` arrays; the first refused row raises.
fn rows_and_handles<'py>(
    py: Python<'py>,
    answers: Vec<Result<Vec<ColliderHandle>, collide2d::world::WorldError>>,
) -> PyResult<RowsAndHandles<'py>> {
    let mut rows = Vec::new();
    let mut found = Vec::new();
    for (row, answer) in answers.into_iter().enumerate() {
        let hits = answer.map_err(|e| errors::world_at(py, row, e))?;
        rows.extend(std::iter::repeat_n(row as i64, hits.len()));
        found.extend(hits.into_iter().map(|h| h.to_bits()));
    }
    Ok((PyArray1::from_vec(py, rows), PyArray1::from_vec(py, found)))
}

impl PyWorld {
    fn get(&self, py: Python<'_>, handle: ColliderHandle) -> PyResult<&Collider> {
        self.world.get(handle).map_err(|e| errors::world(py, e))
    }
}
