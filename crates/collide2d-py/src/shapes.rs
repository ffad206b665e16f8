//! The shapes: one base class `Shape` holding the library's `Shape`, and one subclass per kind
//! whose constructors check their input like the library's.

use collide2d::shape::{Capsule, Chain, Circle, Compound, Polygon, Segment, Shape};
use collide2d::{Transform, Vec2};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::arrays;
use crate::convert::{self, local_point, pair, vec2, PyTransform, Real, Unsigned};
use crate::errors;
use crate::queries::PyRayHit;

/// A shape in its own local frame; place it with a `Transform`. The subclasses (`Circle`,
/// `Capsule`, `Segment`, `Polygon`, `Compound`, `Chain`) are how shapes are made.
#[pyclass(module = "collide2d", name = "Shape", subclass, frozen)]
pub struct PyShape {
    pub shape: Shape,
}

/// The shape behind a Python `Shape`, or a `TypeError`.
pub fn shape_of(py: Python<'_>, obj: &Bound<'_, PyAny>) -> PyResult<Shape> {
    match obj.cast::<PyShape>() {
        Ok(shape) => Ok(shape.get().shape.clone()),
        Err(_) => Err(errors::array_type(py, "expected a collide2d Shape")),
    }
}

/// A library shape as an instance of its Python subclass.
pub fn wrap(py: Python<'_>, shape: Shape) -> PyResult<Py<PyAny>> {
    let init = PyClassInitializer::from(PyShape {
        shape: shape.clone(),
    });
    Ok(match shape {
        Shape::Circle(_) => Py::new(py, init.add_subclass(PyCircle))?.into_any(),
        Shape::Capsule(_) => Py::new(py, init.add_subclass(PyCapsule))?.into_any(),
        Shape::Segment(_) => Py::new(py, init.add_subclass(PySegment))?.into_any(),
        Shape::Polygon(_) => Py::new(py, init.add_subclass(PyPolygon))?.into_any(),
        Shape::Compound(_) => Py::new(py, init.add_subclass(PyCompound))?.into_any(),
        Shape::Chain(_) => Py::new(py, init.add_subclass(PyChain))?.into_any(),
        // Kinds this binding does not know yet are still usable through the base class.
        #[allow(unreachable_patterns)]
        _ => Py::new(py, init)?.into_any(),
    })
}

#[pymethods]
impl PyShape {
    /// The bounding box `(min_x, min_y, max_x, max_y)` of the shape placed at `transform`.
    #[pyo3(signature = (transform = None))]
    fn aabb(
        &self,
        py: Python<'_>,
        transform: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<(f32, f32, f32, f32)> {
        let xf = convert::transform(py, transform, "transform")?;
        let b = self.shape.aabb(&xf);
        Ok((b.min.x, b.min.y, b.max.x, b.max.y))
    }

    /// Whether `point` lies in the shape placed at `transform` (the boundary counts as inside).
    #[pyo3(signature = (point, transform = None))]
    fn contains(
        &self,
        py: Python<'_>,
        point: &Bound<'_, PyAny>,
        transform: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<bool> {
        let xf = convert::transform(py, transform, "transform")?;
        Ok(self.shape.contains(&xf, vec2(py, point, "point")?))
    }

    /// The closest point of the placed shape's boundary to `point`, and whether `point` is
    /// inside: `((x, y), inside)`. A point beyond ±4e9 on either axis (farther than any
    /// placed shape reaches) raises `InvalidInput`: the library has no closest point for it.
    #[pyo3(signature = (point, transform = None))]
    fn project_point(
        &self,
        py: Python<'_>,
        point: &Bound<'_, PyAny>,
        transform: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<((f32, f32), bool)> {
        let xf = convert::transform(py, transform, "transform")?;
        let point = vec2(py, point, "point")?;
        // The library answers "no projection" (the origin, outside) for such a point, which
        // would read here as a closest point at (0, 0).
        let reach = 4.0 * collide2d::shape::MAX_COORDINATE;
        if point.x.abs() > reach || point.y.abs() > reach {
            return Err(errors::invalid(
                py,
                format!(
                    "point ({:e}, {:e}) is beyond ±4e9, farther than any placed shape reaches: \
                     it has no closest point float32 can give",
                    point.x, point.y
                ),
            ));
        }
        let projection = self.shape.project_point(&xf, point);
        Ok((pair(projection.point), projection.inside))
    }

    /// The first hit of the ray from `origin` along `direction` (any length, not zero) within
    /// `max_distance`, on the shape placed at `transform`; `None` for a miss.
    #[pyo3(signature = (origin, direction, max_distance = None, transform = None))]
    fn ray_cast(
        &self,
        py: Python<'_>,
        origin: &Bound<'_, PyAny>,
        direction: &Bound<'_, PyAny>,
        max_distance: Option<Real>,
        transform: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Option<PyRayHit>> {
        let xf = convert::transform(py, transform, "transform")?;
        let ray = crate::queries::make_ray(py, origin, direction, max_distance)?;
        Ok(self.shape.ray_cast(&xf, &ray).map(PyRayHit::from))
    }

    /// Which of `points` (an `(n, 2)` float32/float64 array) lie in the shape placed at
    /// `transform`: a new `(n,)` bool array.
    #[pyo3(signature = (points, transform = None))]
    fn contains_points<'py>(
        &self,
        py: Python<'py>,
        points: &Bound<'py, PyAny>,
        transform: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, numpy::PyArray1<bool>>> {
        let xf = convert::transform(py, transform, "transform")?;
        let points = arrays::points(py, points, "points", None)?;
        let inside: Vec<bool> = py.detach(|| {
            points
                .iter()
                .map(|&p| self.shape.contains(&xf, p))
                .collect()
        });
        Ok(numpy::PyArray1::from_vec(py, inside))
    }

    /// The area (zero for segments and chains).
    #[getter]
    fn area(&self) -> f32 {
        self.shape.area()
    }

    /// The centroid in the shape's local frame.
    #[getter]
    fn centroid(&self) -> (f32, f32) {
        pair(self.shape.centroid())
    }

    /// Whether the shape is convex (a `Compound` or `Chain` is not).
    #[getter]
    fn is_convex(&self) -> bool {
        self.shape.is_convex()
    }

    /// Shapes are equal when they are the same shape: the same kind, built from the same
    /// numbers (`Circle(1) == Circle(1.0)`); a shape is never equal to anything else.
    fn __eq__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> Py<PyAny> {
        match other.cast::<PyShape>() {
            Ok(other) => (other.get().shape == self.shape)
                .into_pyobject(py)
                .map(|b| b.to_owned().into_any().unbind())
                .unwrap_or_else(|never| match never {}),
            Err(_) => py.NotImplemented(),
        }
    }

    /// A hash that equal shapes share (shapes are immutable, so they can be dict keys).
    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        std::mem::discriminant(&self.shape).hash(&mut hasher);
        // Equal shapes have equal numbers, so equal areas and centroids; `+ 0.0` makes -0 and
        // 0 (equal numbers, different bits) hash alike.
        let c = self.shape.centroid();
        for value in [self.shape.area(), c.x, c.y] {
            (value + 0.0).to_bits().hash(&mut hasher);
        }
        hasher.finish()
    }

    /// Pickles and copies travel as the shape's exact numbers.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Py<PyAny>, (Bound<'py, PyBytes>,))> {
        let bytes =
            serde_json::to_vec(&self.shape).map_err(|e| errors::invalid(py, e.to_string()))?;
        let rebuild = py.get_type::<PyShape>().getattr("_from_json")?.unbind();
        Ok((rebuild, (PyBytes::new(py, &bytes),)))
    }

    /// The shape a pickle holds; `InvalidInput` for bytes that are not a valid shape (the
    /// library's constructors check it again).
    #[staticmethod]
    fn _from_json(py: Python<'_>, data: &[u8]) -> PyResult<Py<PyAny>> {
        let shape: Shape = serde_json::from_slice(data)
            .map_err(|e| errors::invalid(py, format!("not a shape: {e}")))?;
        wrap(py, shape)
    }

    fn __repr__(&self) -> String {
        match &self.shape {
            Shape::Circle(c) => format!(
                "Circle(radius={}, center={:?})",
                c.radius(),
                pair(c.center())
            ),
            Shape::Capsule(c) => format!(
                "Capsule({:?}, {:?}, radius={})",
                pair(c.a()),
                pair(c.b()),
                c.radius()
            ),
            Shape::Segment(s) => format!("Segment({:?}, {:?})", pair(s.a()), pair(s.b())),
            Shape::Polygon(p) => format!(
                "Polygon(vertices={}, radius={})",
                p.vertices().len(),
                p.radius()
            ),
            Shape::Compound(c) => format!("Compound(children={})", c.children().len()),
            Shape::Chain(c) => format!(
                "Chain(vertices={}, closed={})",
                c.vertices().len(),
                c.is_closed()
            ),
            #[allow(unreachable_patterns)]
            _ => "Shape()".to_string(),
        }
    }
}

/// A circle: `Circle(radius, center=(0, 0))`.
#[pyclass(module = "collide2d", name = "Circle", extends = PyShape, frozen)]
pub struct PyCircle;

#[pymethods]
impl PyCircle {
    /// A circle of `radius` (finite, not negative) around `center`.
    #[new]
    #[pyo3(signature = (radius, center = None))]
    fn new(
        py: Python<'_>,
        radius: Real,
        center: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyClassInitializer<Self>> {
        let center = match center {
            Some(c) => local_point(py, c, "center")?,
            None => Vec2::ZERO,
        };
        let circle = Circle::new(center, convert::radius(py, "radius", radius)?)
            .map_err(|e| errors::shape(py, e))?;
        Ok(PyClassInitializer::from(PyShape {
            shape: circle.into(),
        })
        .add_subclass(PyCircle))
    }

    /// The radius.
    #[getter]
    fn radius(slf: PyRef<'_, Self>) -> f32 {
        match &slf.as_super().shape {
            Shape::Circle(c) => c.radius(),
            _ => 0.0,
        }
    }

    /// The centre in the local frame.
    #[getter]
    fn center(slf: PyRef<'_, Self>) -> (f32, f32) {
        match &slf.as_super().shape {
            Shape::Circle(c) => pair(c.center()),
            _ => (0.0, 0.0),
        }
    }
}

/// A capsule: the segment from `a` to `b` inflated by `radius`.
#[pyclass(module = "collide2d", name = "Capsule", extends = PyShape, frozen)]
pub struct PyCapsule;

#[pymethods]
impl PyCapsule {
    /// The capsule around the segment `a`–`b` with `radius` (positive).
    #[new]
    fn new(
        py: Python<'_>,
        a: &Bound<'_, PyAny>,
        b: &Bound<'_, PyAny>,
        radius: Real,
    ) -> PyResult<PyClassInitializer<Self>> {
        let capsule = Capsule::new(
            local_point(py, a, "a")?,
            local_point(py, b, "b")?,
            convert::radius(py, "radius", radius)?,
        )
        .map_err(|e| errors::shape(py, e))?;
        Ok(PyClassInitializer::from(PyShape {
            shape: capsule.into(),
        })
        .add_subclass(PyCapsule))
    }

    /// An upright capsule centred on the origin, `height` tall in all (caps included).
    #[staticmethod]
    fn vertical(py: Python<'_>, height: Real, radius: Real) -> PyResult<Py<PyCapsule>> {
        let height = convert::size(py, "height", height)?;
        let radius = convert::radius(py, "radius", radius)?;
        if 0.5 * height < radius {
            return Err(errors::invalid(
                py,
                format!("height {height} is less than twice the radius {radius}"),
            ));
        }
        let capsule = Capsule::vertical(height, radius).map_err(|e| errors::shape(py, e))?;
        Py::new(
            py,
            PyClassInitializer::from(PyShape {
                shape: capsule.into(),
            })
            .add_subclass(PyCapsule),
        )
    }

    /// The radius.
    #[getter]
    fn radius(slf: PyRef<'_, Self>) -> f32 {
        match &slf.as_super().shape {
            Shape::Capsule(c) => c.radius(),
            _ => 0.0,
        }
    }

    /// The two end points of the core segment, `((ax, ay), (bx, by))`.
    #[getter]
    fn points(slf: PyRef<'_, Self>) -> ((f32, f32), (f32, f32)) {
        match &slf.as_super().shape {
            Shape::Capsule(c) => (pair(c.a()), pair(c.b())),
            _ => ((0.0, 0.0), (0.0, 0.0)),
        }
    }
}

/// A line segment from `a` to `b` (two-sided, no area).
#[pyclass(module = "collide2d", name = "Segment", extends = PyShape, frozen)]
pub struct PySegment;

#[pymethods]
impl PySegment {
    /// The segment from `a` to `b` (distinct points).
    #[new]
    fn new(
        py: Python<'_>,
        a: &Bound<'_, PyAny>,
        b: &Bound<'_, PyAny>,
    ) -> PyResult<PyClassInitializer<Self>> {
        let segment = Segment::new(local_point(py, a, "a")?, local_point(py, b, "b")?)
            .map_err(|e| errors::shape(py, e))?;
        Ok(PyClassInitializer::from(PyShape {
            shape: segment.into(),
        })
        .add_subclass(PySegment))
    }

    /// The two end points, `((ax, ay), (bx, by))`.
    #[getter]
    fn points(slf: PyRef<'_, Self>) -> ((f32, f32), (f32, f32)) {
        match &slf.as_super().shape {
            Shape::Segment(s) => (pair(s.a()), pair(s.b())),
            _ => ((0.0, 0.0), (0.0, 0.0)),
        }
    }
}

fn polygon_py(py: Python<'_>, polygon: Polygon) -> PyResult<Py<PyPolygon>> {
    Py::new(
        py,
        PyClassInitializer::from(PyShape {
            shape: polygon.into(),
        })
        .add_subclass(PyPolygon),
    )
}

fn rounded(py: Python<'_>, polygon: Polygon, radius: Real) -> PyResult<Polygon> {
    let radius = convert::radius(py, "radius", radius)?;
    if radius == 0.0 {
        return Ok(polygon);
    }
    polygon
        .with_radius(radius)
        .map_err(|e| errors::shape(py, e))
}

/// A convex polygon (counter-clockwise once built; either winding accepted), optionally rounded
/// by `radius`.
#[pyclass(module = "collide2d", name = "Polygon", extends = PyShape, frozen)]
pub struct PyPolygon;

#[pymethods]
impl PyPolygon {
    /// The convex polygon with this outline (an `(n, 2)` array or a list of points); refuses a
    /// non-convex or degenerate outline. `radius` rounds it.
    #[new]
    #[pyo3(signature = (outline, radius = Real(0.0)), text_signature = "(outline, radius=0.0)")]
    fn new(
        py: Python<'_>,
        outline: &Bound<'_, PyAny>,
        radius: Real,
    ) -> PyResult<PyClassInitializer<Self>> {
        let points = arrays::points(py, outline, "outline", None)?;
        let polygon = Polygon::new(&points).map_err(|e| errors::shape_arg(py, "outline", e))?;
        Ok(PyClassInitializer::from(PyShape {
            shape: rounded(py, polygon, radius)?.into(),
        })
        .add_subclass(PyPolygon))
    }

    /// The convex hull of `points`.
    #[staticmethod]
    #[pyo3(signature = (points, radius = Real(0.0)), text_signature = "(points, radius=0.0)")]
    fn hull(py: Python<'_>, points: &Bound<'_, PyAny>, radius: Real) -> PyResult<Py<PyPolygon>> {
        let points = arrays::points(py, points, "points", None)?;
        let polygon = Polygon::hull(&points).map_err(|e| errors::shape_arg(py, "points", e))?;
        polygon_py(py, rounded(py, polygon, radius)?)
    }

    /// A `width × height` rectangle centred on the origin, rounded by `radius` (which adds to
    /// its size).
    #[staticmethod]
    #[pyo3(signature = (width, height, radius = Real(0.0)), text_signature = "(width, height, radius=0.0)")]
    fn rect(py: Python<'_>, width: Real, height: Real, radius: Real) -> PyResult<Py<PyPolygon>> {
        let polygon = Polygon::rect(
            convert::size(py, "width", width)?,
            convert::size(py, "height", height)?,
        )
        .map_err(|e| errors::shape(py, e))?;
        polygon_py(py, rounded(py, polygon, radius)?)
    }

    /// The regular polygon with `sides` corners on a circle of `circumradius`.
    #[staticmethod]
    #[pyo3(signature = (sides, circumradius, radius = Real(0.0)), text_signature = "(sides, circumradius, radius=0.0)")]
    fn regular(
        py: Python<'_>,
        sides: Unsigned<usize>,
        circumradius: Real,
        radius: Real,
    ) -> PyResult<Py<PyPolygon>> {
        let sides = sides.0;
        let max = collide2d::shape::MAX_POLYGON_VERTICES;
        if !(3..=max).contains(&sides) {
            return Err(errors::invalid(
                py,
                format!("sides {sides} is out of range (from 3 to {max})"),
            ));
        }
        let circumradius = convert::size(py, "circumradius", circumradius)?;
        let polygon = Polygon::regular(sides, circumradius).map_err(|e| errors::shape(py, e))?;
        polygon_py(py, rounded(py, polygon, radius)?)
    }

    /// This polygon rounded by `radius` (replacing any rounding it had).
    fn rounded(slf: PyRef<'_, Self>, py: Python<'_>, radius: Real) -> PyResult<Py<PyPolygon>> {
        match &slf.as_super().shape {
            Shape::Polygon(p) => polygon_py(
                py,
                p.clone()
                    .with_radius(convert::radius(py, "radius", radius)?)
                    .map_err(|e| errors::shape(py, e))?,
            ),
            _ => Err(errors::invalid(py, "not a polygon")),
        }
    }

    /// The corners, counter-clockwise, as a list of `(x, y)`.
    #[getter]
    fn vertices(slf: PyRef<'_, Self>) -> Vec<(f32, f32)> {
        match &slf.as_super().shape {
            Shape::Polygon(p) => p.vertices().iter().map(|&v| pair(v)).collect(),
            _ => Vec::new(),
        }
    }

    /// The rounding radius (0 for a sharp polygon).
    #[getter]
    fn radius(slf: PyRef<'_, Self>) -> f32 {
        match &slf.as_super().shape {
            Shape::Polygon(p) => p.radius(),
            _ => 0.0,
        }
    }
}

/// Several convex children, each placed in the compound's frame.
#[pyclass(module = "collide2d", name = "Compound", extends = PyShape, frozen)]
pub struct PyCompound;

#[pymethods]
impl PyCompound {
    /// A compound of `children`, a list (or other sequence) of `(transform, shape)` pairs
    /// (convex shapes only).
    #[new]
    fn new(py: Python<'_>, children: &Bound<'_, PyAny>) -> PyResult<PyClassInitializer<Self>> {
        let children: Vec<Bound<'_, PyAny>> = children.extract().map_err(|_| {
            errors::array_type(py, "children must be a list of (transform, shape) pairs")
        })?;
        let mut parts = Vec::with_capacity(children.len());
        for child in children {
            let (xf, shape): (Bound<'_, PyAny>, Bound<'_, PyAny>) = child
                .extract()
                .map_err(|_| errors::array_type(py, "children must be (transform, shape) pairs"))?;
            let xf = convert::transform(py, Some(&xf), "children")?;
            parts.push((xf, shape_of(py, &shape)?));
        }
        let compound = Compound::new(parts).map_err(|e| errors::shape_arg(py, "children", e))?;
        Ok(PyClassInitializer::from(PyShape {
            shape: compound.into(),
        })
        .add_subclass(PyCompound))
    }

    /// A concave simple polygon (an outline that does not cross itself) split into convex
    /// pieces.
    #[staticmethod]
    fn from_concave(py: Python<'_>, outline: &Bound<'_, PyAny>) -> PyResult<Py<PyCompound>> {
        let points = arrays::points(py, outline, "outline", None)?;
        let compound =
            Compound::from_concave(&points).map_err(|e| errors::shape_arg(py, "outline", e))?;
        Py::new(
            py,
            PyClassInitializer::from(PyShape {
                shape: compound.into(),
            })
            .add_subclass(PyCompound),
        )
    }

    /// The children as a list of `(Transform, Shape)`.
    #[getter]
    fn children(slf: PyRef<'_, Self>, py: Python<'_>) -> PyResult<Vec<(PyTransform, Py<PyAny>)>> {
        match &slf.as_super().shape {
            Shape::Compound(c) => c
                .children()
                .iter()
                .map(|(xf, shape): &(Transform, Shape)| {
                    Ok((PyTransform { xf: *xf }, wrap(py, shape.clone())?))
                })
                .collect(),
            _ => Ok(Vec::new()),
        }
    }
}

/// A one-sided polyline for level geometry (solid side to the right of travel), open or
/// closed, without ghost collisions at its joints.
#[pyclass(module = "collide2d", name = "Chain", extends = PyShape, frozen)]
pub struct PyChain;

fn chain_py(py: Python<'_>, chain: Chain) -> PyResult<Py<PyChain>> {
    Py::new(
        py,
        PyClassInitializer::from(PyShape {
            shape: chain.into(),
        })
        .add_subclass(PyChain),
    )
}

#[pymethods]
impl PyChain {
    /// The open chain through `points` (at least two).
    #[staticmethod]
    fn open(py: Python<'_>, points: &Bound<'_, PyAny>) -> PyResult<Py<PyChain>> {
        let points = arrays::points(py, points, "points", None)?;
        chain_py(
            py,
            Chain::open(&points).map_err(|e| errors::shape_arg(py, "points", e))?,
        )
    }

    /// The closed loop through `points` (at least three).
    #[staticmethod]
    fn closed(py: Python<'_>, points: &Bound<'_, PyAny>) -> PyResult<Py<PyChain>> {
        let points = arrays::points(py, points, "points", None)?;
        chain_py(
            py,
            Chain::closed(&points).map_err(|e| errors::shape_arg(py, "points", e))?,
        )
    }

    /// The vertices as a list of `(x, y)`.
    #[getter]
    fn vertices(slf: PyRef<'_, Self>) -> Vec<(f32, f32)> {
        match &slf.as_super().shape {
            Shape::Chain(c) => c.vertices().iter().map(|&v| pair(v)).collect(),
            _ => Vec::new(),
        }
    }

    /// Whether the chain is a closed loop.
    #[getter]
    fn is_closed(slf: PyRef<'_, Self>) -> bool {
        match &slf.as_super().shape {
            Shape::Chain(c) => c.is_closed(),
            _ => false,
        }
    }
}
