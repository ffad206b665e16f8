//! Pair queries on placed shapes and their result types.

use collide2d::query::{
    CastHit, ContactPoint, DistanceOutput, Feature, FeatureId, Manifold, RayHit, Sweep,
};
use collide2d::shape::{Ray, RayError};
use collide2d::{CastOptions, Vec2};
use pyo3::prelude::*;

use crate::convert::{self, pair, vec2, Real};
use crate::errors;
use crate::shapes::shape_of;
use crate::values;

/// What a pickled `ContactPoint` holds: `(point, penetration)`.
type ContactParts = ((f32, f32), f32);
/// A feature as it travels in a pickle: `("vertex" or "edge", index)`.
type FeatureParts = (&'static str, u8);
/// One point of a pickled `Manifold`: `(point, penetration, feature_a, feature_b)`.
type ManifoldPointParts = ((f32, f32), f32, FeatureParts, FeatureParts);
/// What a pickled `Manifold` holds: `(normal, points, child_a, child_b)`.
pub type ManifoldParts = ((f32, f32), Vec<ManifoldPointParts>, u32, u32);
/// What a pickled `Distance` holds: `(distance, point_a, point_b, normal)`.
type DistanceParts = (f32, (f32, f32), (f32, f32), (f32, f32));
/// What a pickled `RayHit` (`distance, ...`) or `CastHit` (`fraction, ...`) holds:
/// `(number, point, normal, handle)`.
type HitParts = (f32, (f32, f32), (f32, f32), Option<u64>);
/// [`HitParts`] as read back, before they are checked.
type HitPartsIn = (f64, (f64, f64), (f64, f64), Option<u64>);

/// A checked ray (the direction need not be unit length, only not zero); no `max_distance`
/// (`None`) reaches without end.
pub fn make_ray(
    py: Python<'_>,
    origin: &Bound<'_, PyAny>,
    direction: &Bound<'_, PyAny>,
    max_distance: Option<Real>,
) -> PyResult<Ray> {
    let origin = vec2(py, origin, "origin")?;
    let direction = vec2(py, direction, "direction")?;
    let max_distance = max_distance.map_or(f32::INFINITY, |d| d.0 as f32);
    if max_distance.is_nan() {
        return Err(errors::invalid(py, "max_distance is NaN"));
    }
    if max_distance < 0.0 {
        return Err(errors::invalid(
            py,
            format!("max_distance {max_distance} is negative"),
        ));
    }
    Ray::new(origin, direction, max_distance).map_err(|e| errors::invalid(py, ray_message(e)))
}

/// A ray's refusal in the words of the arguments (`origin`, `direction`, `max_distance`); the
/// points are checked finite before, so a non-finite number left is the max distance.
pub fn ray_message(error: RayError) -> String {
    match error {
        RayError::ZeroDirection => "direction has zero length".to_string(),
        RayError::NegativeMaxDistance => "max_distance is negative".to_string(),
        RayError::NonFinite => "max_distance is NaN".to_string(),
        #[allow(unreachable_patterns)]
        other => other.to_string(),
    }
}

/// One contact point: `point` midway between the surfaces, `penetration` their depth along
/// the normal (positive when overlapping).
#[pyclass(module = "collide2d", name = "ContactPoint", frozen, eq, get_all)]
#[derive(Clone, PartialEq)]
pub struct PyContactPoint {
    /// The point `(x, y)` in world coordinates.
    pub point: (f32, f32),
    /// The depth along the normal.
    pub penetration: f32,
}

impl From<&ContactPoint> for PyContactPoint {
    fn from(c: &ContactPoint) -> Self {
        PyContactPoint {
            point: pair(c.point),
            penetration: c.penetration,
        }
    }
}

#[pymethods]
impl PyContactPoint {
    /// Pickles and copies travel as `(point, penetration)`.
    fn __reduce__(&self, py: Python<'_>) -> PyResult<(Py<PyAny>, (ContactParts,))> {
        let rebuild = py.get_type::<Self>().getattr("_from_parts")?.unbind();
        Ok((rebuild, ((self.point, self.penetration),)))
    }

    /// The contact point a pickle holds; `InvalidInput` for anything else.
    #[staticmethod]
    fn _from_parts(py: Python<'_>, parts: &Bound<'_, PyAny>) -> PyResult<Self> {
        const CLASS: &str = "ContactPoint";
        let (p, penetration): ((f64, f64), f64) = values::parts(py, CLASS, parts)?;
        Ok(PyContactPoint {
            point: pair(values::point(py, CLASS, "point", p)?),
            penetration: values::number(py, CLASS, "penetration", penetration)?,
        })
    }

    fn __repr__(&self) -> String {
        format!(
            "ContactPoint(point={:?}, penetration={})",
            self.point, self.penetration
        )
    }
}

/// The contact between two shapes: a unit `normal` from A to B and up to two `points`. An
/// empty manifold (no contact) is falsy.
#[pyclass(module = "collide2d", name = "Manifold", frozen, eq)]
#[derive(Clone)]
pub struct PyManifold {
    pub manifold: Manifold,
}

/// Manifolds are equal when their contacts are: the normal, the points in use (with the
/// features that made them) and the children. The storage of an unused point is no part of
/// the value.
impl PartialEq for PyManifold {
    fn eq(&self, other: &Self) -> bool {
        let (a, b) = (&self.manifold, &other.manifold);
        a.normal == b.normal
            && a.points() == b.points()
            && (a.child_a, a.child_b) == (b.child_a, b.child_b)
    }
}

/// A feature as it travels in a pickle.
fn feature_parts(feature: Feature) -> FeatureParts {
    match feature {
        Feature::Vertex(i) => ("vertex", i),
        Feature::Edge(i) => ("edge", i),
    }
}

/// The feature a pickle holds.
fn feature_from(py: Python<'_>, (kind, index): (String, u8)) -> PyResult<Feature> {
    match kind.as_str() {
        "vertex" => Ok(Feature::Vertex(index)),
        "edge" => Ok(Feature::Edge(index)),
        _ => Err(values::forged(
            py,
            "Manifold",
            format!("feature kind {kind:?} is neither \"vertex\" nor \"edge\""),
        )),
    }
}

impl PyManifold {
    /// The manifold as it travels in a pickle (an `Event`'s holds one too).
    pub fn parts(&self) -> ManifoldParts {
        let m = &self.manifold;
        let points = m
            .points()
            .iter()
            .map(|c| {
                (
                    pair(c.point),
                    c.penetration,
                    feature_parts(c.id.a),
                    feature_parts(c.id.b),
                )
            })
            .collect();
        (pair(m.normal), points, m.child_a, m.child_b)
    }

    /// The manifold that `parts` describe; `InvalidInput` unless it is one the library could
    /// give: at most two points of finite numbers, a unit normal (zero when there are none).
    pub fn from_parts(py: Python<'_>, parts: &Bound<'_, PyAny>) -> PyResult<PyManifold> {
        const CLASS: &str = "Manifold";
        type Point = ((f64, f64), f64, (String, u8), (String, u8));
        let (normal, points, child_a, child_b): ((f64, f64), Vec<Point>, u32, u32) =
            values::parts(py, CLASS, parts)?;
        if points.len() > 2 {
            return Err(values::forged(
                py,
                CLASS,
                format!("{} points (at most 2)", points.len()),
            ));
        }
        let mut manifold = Manifold::EMPTY;
        manifold.normal = values::normal(py, CLASS, "normal", normal, points.is_empty())?;
        if points.is_empty() && manifold.normal != Vec2::ZERO {
            return Err(values::forged(py, CLASS, "an empty manifold has a normal"));
        }
        for (slot, (p, penetration, a, b)) in manifold.points.iter_mut().zip(points.iter()) {
            *slot = ContactPoint {
                point: values::point(py, CLASS, "point", *p)?,
                penetration: values::number(py, CLASS, "penetration", *penetration)?,
                id: FeatureId {
                    a: feature_from(py, a.clone())?,
                    b: feature_from(py, b.clone())?,
                },
            };
        }
        manifold.count = points.len();
        manifold.child_a = child_a;
        manifold.child_b = child_b;
        Ok(PyManifold { manifold })
    }
}

#[pymethods]
impl PyManifold {
    /// The unit normal from A to B (zero when empty).
    #[getter]
    fn normal(&self) -> (f32, f32) {
        pair(self.manifold.normal)
    }

    /// The contact points (none, one or two).
    #[getter]
    fn points(&self) -> Vec<PyContactPoint> {
        self.manifold
            .points()
            .iter()
            .map(PyContactPoint::from)
            .collect()
    }

    /// The deepest point's penetration (0 when empty).
    #[getter]
    fn penetration(&self) -> f32 {
        if self.manifold.is_empty() {
            0.0
        } else {
            self.manifold.max_penetration()
        }
    }

    fn __len__(&self) -> usize {
        self.manifold.points().len()
    }

    /// Pickles and copies travel as `(normal, points, child_a, child_b)`, each point as
    /// `(point, penetration, feature_a, feature_b)`.
    fn __reduce__(&self, py: Python<'_>) -> PyResult<(Py<PyAny>, (ManifoldParts,))> {
        let rebuild = py.get_type::<Self>().getattr("_from_parts")?.unbind();
        Ok((rebuild, (self.parts(),)))
    }

    /// The manifold a pickle holds; `InvalidInput` for anything else.
    #[staticmethod]
    fn _from_parts(py: Python<'_>, parts: &Bound<'_, PyAny>) -> PyResult<PyManifold> {
        PyManifold::from_parts(py, parts)
    }

    fn __bool__(&self) -> bool {
        !self.manifold.is_empty()
    }

    fn __repr__(&self) -> String {
        format!(
            "Manifold(normal={:?}, points={})",
            pair(self.manifold.normal),
            self.manifold.points().len()
        )
    }
}

/// The closest points of two shapes: `distance` (0 when they overlap), `point_a`, `point_b`
/// and the unit `normal` from A to B.
#[pyclass(module = "collide2d", name = "Distance", frozen, eq, get_all)]
#[derive(PartialEq)]
pub struct PyDistance {
    /// The gap between the shapes (0 when they overlap).
    pub distance: f32,
    /// The closest point on A.
    pub point_a: (f32, f32),
    /// The closest point on B.
    pub point_b: (f32, f32),
    /// The unit direction from A to B.
    pub normal: (f32, f32),
}

impl From<DistanceOutput> for PyDistance {
    fn from(d: DistanceOutput) -> Self {
        PyDistance {
            distance: d.distance,
            point_a: pair(d.point_a),
            point_b: pair(d.point_b),
            normal: pair(d.normal),
        }
    }
}

#[pymethods]
impl PyDistance {
    /// Pickles and copies travel as `(distance, point_a, point_b, normal)`.
    fn __reduce__(&self, py: Python<'_>) -> PyResult<(Py<PyAny>, (DistanceParts,))> {
        let rebuild = py.get_type::<Self>().getattr("_from_parts")?.unbind();
        Ok((
            rebuild,
            ((self.distance, self.point_a, self.point_b, self.normal),),
        ))
    }

    /// The distance a pickle holds; `InvalidInput` for anything else.
    #[staticmethod]
    fn _from_parts(py: Python<'_>, parts: &Bound<'_, PyAny>) -> PyResult<Self> {
        const CLASS: &str = "Distance";
        type Parts = (f64, (f64, f64), (f64, f64), (f64, f64));
        let (distance, a, b, normal): Parts = values::parts(py, CLASS, parts)?;
        Ok(PyDistance {
            distance: values::non_negative(py, CLASS, "distance", distance)?,
            point_a: pair(values::point(py, CLASS, "point_a", a)?),
            point_b: pair(values::point(py, CLASS, "point_b", b)?),
            normal: pair(values::normal(py, CLASS, "normal", normal, true)?),
        })
    }

    fn __repr__(&self) -> String {
        format!(
            "Distance(distance={}, normal={:?})",
            self.distance, self.normal
        )
    }
}

/// Where a ray hit a shape: `distance` along the (unit) ray, `point`, the surface `normal`.
#[pyclass(module = "collide2d", name = "RayHit", frozen, eq, get_all)]
#[derive(PartialEq)]
pub struct PyRayHit {
    /// Distance from the origin along the normalised direction.
    pub distance: f32,
    /// The hit point.
    pub point: (f32, f32),
    /// The unit surface normal at the hit.
    pub normal: (f32, f32),
    /// The handle of the collider hit (world ray casts), else `None`.
    pub handle: Option<u64>,
}

impl From<RayHit> for PyRayHit {
    fn from(h: RayHit) -> Self {
        PyRayHit {
            distance: h.distance,
            point: pair(h.point),
            normal: pair(h.normal),
            handle: None,
        }
    }
}

/// The parts of a `RayHit` or `CastHit` pickle, checked: `(number, point, normal, handle)`.
fn hit_from_parts(
    py: Python<'_>,
    class: &str,
    what: &str,
    parts: &Bound<'_, PyAny>,
) -> PyResult<HitParts> {
    let (number, point, normal, handle): HitPartsIn = values::parts(py, class, parts)?;
    Ok((
        values::non_negative(py, class, what, number)?,
        pair(values::point(py, class, "point", point)?),
        pair(values::normal(py, class, "normal", normal, true)?),
        handle,
    ))
}

#[pymethods]
impl PyRayHit {
    /// Pickles and copies travel as `(distance, point, normal, handle)`.
    fn __reduce__(&self, py: Python<'_>) -> PyResult<(Py<PyAny>, (HitParts,))> {
        let rebuild = py.get_type::<Self>().getattr("_from_parts")?.unbind();
        Ok((
            rebuild,
            ((self.distance, self.point, self.normal, self.handle),),
        ))
    }

    /// The hit a pickle holds; `InvalidInput` for anything else.
    #[staticmethod]
    fn _from_parts(py: Python<'_>, parts: &Bound<'_, PyAny>) -> PyResult<Self> {
        let (distance, point, normal, handle) = hit_from_parts(py, "RayHit", "distance", parts)?;
        Ok(PyRayHit {
            distance,
            point,
            normal,
            handle,
        })
    }

    fn __repr__(&self) -> String {
        format!(
            "RayHit(distance={}, point={:?}, normal={:?}, handle={})",
            self.distance,
            self.point,
            self.normal,
            optional_handle(self.handle)
        )
    }
}

/// The first touch of a moving shape: `fraction` of the motion in `[0, 1]`, `point`, `normal`
/// (from the mover into what it hits).
#[pyclass(module = "collide2d", name = "CastHit", frozen, eq, get_all)]
#[derive(PartialEq)]
pub struct PyCastHit {
    /// The time of impact as a fraction of the motion.
    pub fraction: f32,
    /// The contact point at that time.
    pub point: (f32, f32),
    /// The unit normal from the mover to the other shape.
    pub normal: (f32, f32),
    /// The handle of the collider hit (world casts), else `None`.
    pub handle: Option<u64>,
}

impl From<CastHit> for PyCastHit {
    fn from(h: CastHit) -> Self {
        PyCastHit {
            fraction: h.t,
            point: pair(h.point),
            normal: pair(h.normal),
            handle: None,
        }
    }
}

#[pymethods]
impl PyCastHit {
    /// Pickles and copies travel as `(fraction, point, normal, handle)`.
    fn __reduce__(&self, py: Python<'_>) -> PyResult<(Py<PyAny>, (HitParts,))> {
        let rebuild = py.get_type::<Self>().getattr("_from_parts")?.unbind();
        Ok((
            rebuild,
            ((self.fraction, self.point, self.normal, self.handle),),
        ))
    }

    /// The hit a pickle holds; `InvalidInput` for anything else (a fraction outside
    /// `[0, 1]` too).
    #[staticmethod]
    fn _from_parts(py: Python<'_>, parts: &Bound<'_, PyAny>) -> PyResult<Self> {
        let (fraction, point, normal, handle) = hit_from_parts(py, "CastHit", "fraction", parts)?;
        if fraction > 1.0 {
            return Err(values::forged(
                py,
                "CastHit",
                format!("fraction {fraction} is beyond 1"),
            ));
        }
        Ok(PyCastHit {
            fraction,
            point,
            normal,
            handle,
        })
    }

    fn __repr__(&self) -> String {
        format!(
            "CastHit(fraction={}, point={:?}, normal={:?}, handle={})",
            self.fraction,
            self.point,
            self.normal,
            optional_handle(self.handle)
        )
    }
}

/// A handle as Python writes it: the number, or `None`.
fn optional_handle(handle: Option<u64>) -> String {
    handle.map_or_else(|| "None".to_string(), |h| h.to_string())
}

/// The contact manifold of shape `a` at `transform_a` and `b` at `transform_b` (normal from A
/// to B); an empty, falsy `Manifold` when they do not touch.
#[pyfunction]
#[pyo3(signature = (a, transform_a, b, transform_b))]
pub fn collide(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    transform_a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    transform_b: &Bound<'_, PyAny>,
) -> PyResult<PyManifold> {
    let (sa, sb) = (shape_of(py, a)?, shape_of(py, b)?);
    let xa = convert::transform(py, Some(transform_a), "transform_a")?;
    let xb = convert::transform(py, Some(transform_b), "transform_b")?;
    Ok(PyManifold {
        manifold: collide2d::collide(&sa, &xa, &sb, &xb),
    })
}

/// Whether the two placed shapes overlap (touching counts).
#[pyfunction]
#[pyo3(signature = (a, transform_a, b, transform_b))]
pub fn overlaps(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    transform_a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    transform_b: &Bound<'_, PyAny>,
) -> PyResult<bool> {
    let (sa, sb) = (shape_of(py, a)?, shape_of(py, b)?);
    let xa = convert::transform(py, Some(transform_a), "transform_a")?;
    let xb = convert::transform(py, Some(transform_b), "transform_b")?;
    Ok(collide2d::overlaps(&sa, &xa, &sb, &xb))
}

/// The closest points and the gap between two placed shapes.
#[pyfunction]
#[pyo3(signature = (a, transform_a, b, transform_b))]
pub fn distance(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    transform_a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    transform_b: &Bound<'_, PyAny>,
) -> PyResult<PyDistance> {
    let (sa, sb) = (shape_of(py, a)?, shape_of(py, b)?);
    let xa = convert::transform(py, Some(transform_a), "transform_a")?;
    let xb = convert::transform(py, Some(transform_b), "transform_b")?;
    Ok(collide2d::distance(&sa, &xa, &sb, &xb).into())
}

/// When `a`, moving from `transform_a` by `motion_a`, first touches `b` moving from
/// `transform_b` by `motion_b` (no rotation); `None` if they never touch during the motion.
/// A motion whose end lies beyond ±1e9 raises `InvalidInput`.
#[pyfunction]
#[pyo3(signature = (a, transform_a, motion_a, b, transform_b, motion_b = None))]
pub fn shape_cast(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    transform_a: &Bound<'_, PyAny>,
    motion_a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    transform_b: &Bound<'_, PyAny>,
    motion_b: Option<&Bound<'_, PyAny>>,
) -> PyResult<Option<PyCastHit>> {
    let (sa, sb) = (shape_of(py, a)?, shape_of(py, b)?);
    let xa = convert::transform(py, Some(transform_a), "transform_a")?;
    let xb = convert::transform(py, Some(transform_b), "transform_b")?;
    let da = vec2(py, motion_a, "motion_a")?;
    let db = match motion_b {
        Some(m) => vec2(py, m, "motion_b")?,
        None => Vec2::ZERO,
    };
    let (sweep_a, sweep_b) = (Sweep::linear(&xa, da), Sweep::linear(&xb, db));
    // The library answers `None` for a sweep it cannot run (one ending beyond ±1e9): here that
    // would read as "never touch", so it is refused instead.
    if !(sweep_a.is_valid() && sweep_b.is_valid()) {
        return Err(errors::invalid(
            py,
            "a motion ends beyond ±1e9 (MAX_COORDINATE)",
        ));
    }
    let hit = collide2d::shape_cast(&sa, &sweep_a, &sb, &sweep_b, CastOptions::default());
    Ok(hit.map(PyCastHit::from))
}

/// The first hit of a ray on `shape` placed at `transform`; `None` for a miss.
#[pyfunction]
#[pyo3(signature = (shape, transform, origin, direction, max_distance = None))]
pub fn ray_cast(
    py: Python<'_>,
    shape: &Bound<'_, PyAny>,
    transform: &Bound<'_, PyAny>,
    origin: &Bound<'_, PyAny>,
    direction: &Bound<'_, PyAny>,
    max_distance: Option<Real>,
) -> PyResult<Option<PyRayHit>> {
    let s = shape_of(py, shape)?;
    let xf = convert::transform(py, Some(transform), "transform")?;
    let ray = make_ray(py, origin, direction, max_distance)?;
    Ok(s.ray_cast(&xf, &ray).map(PyRayHit::from))
}
