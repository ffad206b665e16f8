//! Plain values between Python and the library: points, transforms, handles and counts.
//!
//! Every number an argument carries is checked here, once, in the library's scalar: a value
//! that is finite as a Python float but not as a float32 (`1e300`) is refused like NaN, and
//! an integer outside its type's range raises one of the package's exceptions, not
//! `OverflowError`.

use collide2d::math::Rot;
use collide2d::world::ColliderHandle;
use collide2d::{Transform, Vec2};
use pyo3::exceptions::PyOverflowError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyByteArray, PyBytes, PyInt, PyString};

use crate::errors;

/// What a pickled `Transform` holds: `(x, y, cos, sin)`.
type TransformParts = (f32, f32, f32, f32);

/// A placement: rotate by `angle` (radians, counter-clockwise), then move to `(x, y)`.
#[pyclass(module = "collide2d", name = "Transform", frozen, eq, from_py_object)]
#[derive(Clone, Copy, PartialEq)]
pub struct PyTransform {
    pub xf: Transform,
}

#[pymethods]
impl PyTransform {
    /// A transform at `(x, y)` turned by `angle` radians; refuses NaN, infinities and positions
    /// beyond ±1e9 with `InvalidInput`.
    #[new]
    #[pyo3(signature = (x = Real(0.0), y = Real(0.0), angle = Real(0.0)), text_signature = "(x=0.0, y=0.0, angle=0.0)")]
    fn new(py: Python<'_>, x: Real, y: Real, angle: Real) -> PyResult<PyTransform> {
        make_transform(py, x.0, y.0, angle.0)
    }

    /// The x coordinate of the position.
    #[getter]
    fn x(&self) -> f32 {
        self.xf.p.x
    }

    /// The y coordinate of the position.
    #[getter]
    fn y(&self) -> f32 {
        self.xf.p.y
    }

    /// The position as `(x, y)`.
    #[getter]
    fn position(&self) -> (f32, f32) {
        (self.xf.p.x, self.xf.p.y)
    }

    /// The rotation angle in radians, in `(-pi, pi]`.
    #[getter]
    fn angle(&self) -> f32 {
        self.xf.q.angle()
    }

    /// Where the local point `point` lands in the world; `InvalidInput` when it lands beyond
    /// float32 (a point near 3.4e38 turned or moved further out).
    fn apply(&self, py: Python<'_>, point: &Bound<'_, PyAny>) -> PyResult<(f32, f32)> {
        let local = vec2(py, point, "point")?;
        let p = self.xf.apply(local);
        if !p.is_finite() {
            return Err(errors::invalid(
                py,
                format!(
                    "point ({:e}, {:e}) lands beyond float32 (an infinite coordinate)",
                    local.x, local.y
                ),
            ));
        }
        Ok((p.x, p.y))
    }

    /// `Transform(x=…, y=…, angle=…)` with an angle that gives this rotation to the bit, or,
    /// for a rotation no float32 angle gives (one composed of others),
    /// `Transform.from_cos_sin(…)`: either way, `eval(repr(t)) == t`.
    fn __repr__(&self) -> String {
        let Transform { p, q } = self.xf;
        match exact_angle(q) {
            Some(angle) => format!("Transform(x={}, y={}, angle={angle})", p.x, p.y),
            None => format!(
                "Transform.from_cos_sin(x={}, y={}, cos={}, sin={})",
                p.x, p.y, q.c, q.s
            ),
        }
    }

    /// The transform at `(x, y)` whose rotation has the cosine `cos` and sine `sin`: kept to
    /// the bit when the pair is unit length within float32 rounding, else scaled to unit
    /// length; `InvalidInput` for a pair that is not finite or is `(0, 0)`, or a position
    /// beyond ±1e9.
    #[staticmethod]
    #[pyo3(signature = (x, y, cos, sin))]
    fn from_cos_sin(
        py: Python<'_>,
        x: Real,
        y: Real,
        cos: Real,
        sin: Real,
    ) -> PyResult<PyTransform> {
        let p = Vec2::new(coordinate(py, "x", x.0)?, coordinate(py, "y", y.0)?);
        let (c, s) = (finite(py, "cos", cos.0)?, finite(py, "sin", sin.0)?);
        let exact = Transform { p, q: Rot { c, s } };
        if exact.is_valid() {
            return Ok(PyTransform { xf: exact });
        }
        let q = Rot::try_from_cos_sin(c, s)
            .ok_or_else(|| errors::invalid(py, "cos and sin are both zero: no rotation"))?;
        Ok(PyTransform {
            xf: Transform { p, q },
        })
    }

    /// The transform at `(x, y)` whose rotation has exactly the cosine `c` and sine `s` (how
    /// a pickled transform comes back: through its angle, the rotation could differ in the
    /// last bit, and the copy would not equal the original); `InvalidInput` unless it is a
    /// transform `Transform(...)` could have made.
    #[staticmethod]
    fn _from_parts(py: Python<'_>, x: f32, y: f32, c: f32, s: f32) -> PyResult<PyTransform> {
        let xf = Transform {
            p: Vec2::new(x, y),
            q: Rot { c, s },
        };
        if !xf.is_valid() {
            return Err(errors::invalid(
                py,
                "not a transform: a position beyond ±1e9, a number that is not finite, or a \
                 rotation that is not unit length",
            ));
        }
        Ok(PyTransform { xf })
    }

    fn __reduce__(&self, py: Python<'_>) -> PyResult<(Py<PyAny>, TransformParts)> {
        let rebuild = py
            .get_type::<PyTransform>()
            .getattr("_from_parts")?
            .unbind();
        let Transform { p, q } = self.xf;
        Ok((rebuild, (p.x, p.y, q.c, q.s)))
    }
}

/// A float32 angle whose rotation is `q` to the bit, searched among the few angles next to
/// `q`'s own (its `atan2` rounds, so the angle a transform was made with is one of them).
fn exact_angle(q: Rot) -> Option<f32> {
    // Neighbouring floats of one sign are neighbouring bit patterns.
    let start = q.angle().to_bits();
    (0..=16u32)
        .flat_map(|k| [start.checked_sub(k), start.checked_add(k)])
        .flatten()
        .map(f32::from_bits)
        .find(|&candidate| candidate.is_finite() && Rot::from_angle(candidate) == q)
}

/// A checked transform; a refusal names the argument that is wrong (`x`, `y` or `angle`).
pub fn make_transform(py: Python<'_>, x: f64, y: f64, angle: f64) -> PyResult<PyTransform> {
    let x = coordinate(py, "x", x)?;
    let y = coordinate(py, "y", y)?;
    let angle = finite(py, "angle", angle)?;
    let xf = Transform::new(Vec2::new(x, y), angle);
    if !xf.is_valid() {
        return Err(errors::invalid(py, "transform is not valid"));
    }
    Ok(PyTransform { xf })
}

/// `value` as a float32 when it is finite there; else `InvalidInput` naming `what`.
pub fn finite(py: Python<'_>, what: &str, value: f64) -> PyResult<f32> {
    let narrowed = value as f32;
    if narrowed.is_finite() {
        Ok(narrowed)
    } else {
        Err(errors::invalid(
            py,
            format!("{what} is NaN or infinite (or beyond float32): {value}"),
        ))
    }
}

/// A coordinate: finite and within ±1e9 (`MAX_COORDINATE`); else `InvalidInput` naming `what`.
pub fn coordinate(py: Python<'_>, what: &str, value: f64) -> PyResult<f32> {
    let value = finite(py, what, value)?;
    if value.abs() > collide2d::shape::MAX_COORDINATE {
        return Err(errors::invalid(
            py,
            format!("{what} {value:e} is beyond ±1e9 (MAX_COORDINATE)"),
        ));
    }
    Ok(value)
}

/// A size (a width, a height, a circumradius): a coordinate greater than zero; else
/// `InvalidInput` naming `what`.
pub fn size(py: Python<'_>, what: &str, value: Real) -> PyResult<f32> {
    let value = coordinate(py, what, value.0)?;
    if value > 0.0 {
        Ok(value)
    } else {
        Err(errors::invalid(
            py,
            format!("{what} {value} must be greater than zero"),
        ))
    }
}

/// A radius: a coordinate that is not negative; else `InvalidInput` naming `what`.
pub fn radius(py: Python<'_>, what: &str, value: Real) -> PyResult<f32> {
    let value = coordinate(py, what, value.0)?;
    if value < 0.0 {
        return Err(errors::invalid(py, format!("{what} {value} is negative")));
    }
    Ok(value)
}

/// A point of a shape's local frame: a pair of coordinates within ±1e9; a refusal names
/// `what`.
pub fn local_point(py: Python<'_>, obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec2> {
    let point = vec2(py, obj, what)?;
    for value in [point.x, point.y] {
        if value.abs() > collide2d::shape::MAX_COORDINATE {
            return Err(errors::invalid(
                py,
                format!("{what} holds {value:e}, beyond ±1e9 (MAX_COORDINATE)"),
            ));
        }
    }
    Ok(point)
}

/// A point from any sequence of two numbers; NaN, infinities and numbers beyond float32 are
/// refused.
pub fn vec2(py: Python<'_>, obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec2> {
    let [x, y] = numbers::<2>(obj).ok_or_else(|| {
        errors::array_type(py, format!("{what} must be a pair of numbers (x, y)"))
    })?;
    let point = Vec2::new(x as f32, y as f32);
    if !point.is_finite() {
        return Err(errors::invalid(
            py,
            format!("{what} holds a NaN or infinite number (or one beyond float32)"),
        ));
    }
    Ok(point)
}

/// A transform from a `Transform`, an `(x, y)` or `(x, y, angle)` sequence, or `None` (the
/// identity); a refusal is led by `what`, the argument's name (`transform: x is NaN ...`).
pub fn transform(
    py: Python<'_>,
    obj: Option<&Bound<'_, PyAny>>,
    what: &str,
) -> PyResult<Transform> {
    let named = |error: PyErr| errors::invalid(py, format!("{what}: {}", error.value(py)));
    let Some(obj) = obj else {
        return Ok(Transform::IDENTITY);
    };
    if obj.is_none() {
        return Ok(Transform::IDENTITY);
    }
    if let Ok(xf) = obj.extract::<PyTransform>() {
        return Ok(xf.xf);
    }
    if let Some([x, y]) = numbers::<2>(obj) {
        return Ok(make_transform(py, x, y, 0.0).map_err(named)?.xf);
    }
    if let Some([x, y, angle]) = numbers::<3>(obj) {
        return Ok(make_transform(py, x, y, angle).map_err(named)?.xf);
    }
    Err(errors::array_type(
        py,
        format!("{what} must be a Transform, (x, y), (x, y, angle) or None"),
    ))
}

/// A vector as a Python tuple.
pub fn pair(v: Vec2) -> (f32, f32) {
    (v.x, v.y)
}

/// A collider handle argument: any Python integer but a bool (`ArrayTypeError`). One outside `0..2**64` cannot be a handle
/// of any world, so it raises `StaleHandle` like a removed one; a non-integer is a `TypeError`.
pub struct HandleArg(pub ColliderHandle);

impl<'a, 'py> FromPyObject<'a, 'py> for HandleArg {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        refuse_bool(&obj, "a collider handle (an integer)")?;
        match obj.extract::<u64>() {
            Ok(bits) => Ok(HandleArg(ColliderHandle::from_bits(bits))),
            Err(error) => match integer_text(&obj) {
                Some(value) => Err(errors::raise(
                    obj.py(),
                    "StaleHandle",
                    format!("{value} is not a collider handle (handles are from 0 to 2**64 - 1)"),
                )),
                None => Err(error),
            },
        }
    }
}

/// A float argument: any Python number that converts to a float, except a bool (`True` is an
/// `int` to Python, but `angle=True` is a mistake, not 1 radian: `ArrayTypeError`). A number too large for a
/// float (the integer `10**400`, where `float()` raises `OverflowError`) is taken as the
/// infinity of its sign, as a float beyond float32 (`1e300`) is: refused as `InvalidInput`
/// wherever a finite number is needed, a reach without end as a `max_distance`. A non-number
/// is a `TypeError`.
#[derive(Clone, Copy)]
pub struct Real(pub f64);

impl<'a, 'py> FromPyObject<'a, 'py> for Real {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        refuse_bool(&obj, "a number")?;
        match obj.extract::<f64>() {
            Ok(value) => Ok(Real(value)),
            Err(error) if error.is_instance_of::<PyOverflowError>(obj.py()) => match obj.lt(0) {
                Ok(true) => Ok(Real(f64::NEG_INFINITY)),
                Ok(false) => Ok(Real(f64::INFINITY)),
                Err(_) => Err(error),
            },
            Err(error) => Err(error),
        }
    }
}

/// The `N` numbers of `obj` when it is a sequence of `N` numbers, `None` when it is not (not a
/// sequence, another length, or an item that is not a number).
fn numbers<const N: usize>(obj: &Bound<'_, PyAny>) -> Option<[f64; N]> {
    if obj.is_instance_of::<PyBytes>() || obj.is_instance_of::<PyByteArray>() {
        return None; // a sequence of integers to Python, but text, not a point
    }
    let items = obj.extract::<[Bound<'_, PyAny>; N]>().ok()?;
    let mut out = [0.0; N];
    for (slot, item) in out.iter_mut().zip(items.iter()) {
        *slot = item.extract::<Real>().ok()?.0;
    }
    Some(out)
}

/// An unsigned integer argument (a count, an index, bits): any Python integer in the range of
/// `T` except a bool (`ArrayTypeError`); one outside it raises `InvalidInput` naming the range, a non-integer is a `TypeError`.
pub struct Unsigned<T>(pub T);

impl<'a, 'py, T> FromPyObject<'a, 'py> for Unsigned<T>
where
    T: FromPyObject<'a, 'py> + Bounded,
{
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        refuse_bool(&obj, "an integer")?;
        match obj.extract::<T>() {
            Ok(value) => Ok(Unsigned(value)),
            Err(error) => match integer_text(&obj) {
                Some(value) => Err(errors::invalid(
                    obj.py(),
                    format!(
                        "integer {value} is out of range (from 0 to {})",
                        T::MAX_TEXT
                    ),
                )),
                None => Err(error.into()),
            },
        }
    }
}

/// The largest value of an unsigned integer type, for messages.
pub trait Bounded {
    /// The largest value, as text.
    const MAX_TEXT: &'static str;
}

impl Bounded for u32 {
    const MAX_TEXT: &'static str = "2**32 - 1";
}

impl Bounded for u64 {
    const MAX_TEXT: &'static str = "2**64 - 1";
}

impl Bounded for usize {
    const MAX_TEXT: &'static str = "2**64 - 1";
}

/// The text of `obj` when it is an integer (a Python `int`, or anything with `__index__`, as a
/// NumPy integer), else `None`.
fn integer_text(obj: &Borrowed<'_, '_, PyAny>) -> Option<String> {
    let index = obj.call_method0("__index__").ok()?;
    let integer = index.cast::<PyInt>().ok()?;
    Some(integer.to_string())
}

/// `ArrayTypeError` when `obj` is a bool (Python's `True`/`False` or NumPy's `bool_`) where
/// `expected` is wanted: a bool is an integer to Python, but never a meaningful number here.
fn refuse_bool(obj: &Borrowed<'_, '_, PyAny>, expected: &str) -> PyResult<()> {
    let ty = obj.get_type();
    let module = ty.module().map(|m| m.to_string()).unwrap_or_default();
    let name = ty.name().map(|n| n.to_string()).unwrap_or_default();
    let numpy_bool = module == "numpy" && (name == "bool" || name == "bool_");
    if obj.is_instance_of::<PyBool>() || numpy_bool {
        return Err(errors::array_type(
            obj.py(),
            format!("expected {expected}, got a bool"),
        ));
    }
    Ok(())
}

/// The items of a sequence argument (a list, a tuple, a NumPy array, any sequence), refusing a
/// plain `str`, `bytes` or `bytearray` (a sequence to Python, but surely one name or handle
/// where several were meant) and anything that is not a sequence with `ArrayTypeError`.
fn sequence_items<'py>(
    obj: &Borrowed<'_, 'py, PyAny>,
    expected: &str,
) -> PyResult<Vec<Bound<'py, PyAny>>> {
    let py = obj.py();
    if obj.is_instance_of::<PyString>() {
        return Err(errors::array_type(
            py,
            format!("expected {expected}, got the single string {obj:?}: write [{obj:?}]"),
        ));
    }
    if obj.is_instance_of::<PyBytes>() || obj.is_instance_of::<PyByteArray>() {
        return Err(errors::array_type(
            py,
            format!("expected {expected}, got bytes"),
        ));
    }
    obj.extract::<Vec<Bound<'py, PyAny>>>().map_err(|_| {
        let kind = obj
            .get_type()
            .name()
            .map_or_else(|_| "?".to_string(), |n| n.to_string());
        errors::array_type(
            py,
            format!("expected {expected}, got {obj:?} (of type {kind})"),
        )
    })
}

/// The `ArrayTypeError` for a sequence argument holding `item`, which is not what it should
/// hold.
fn wrong_item(item: &Bound<'_, PyAny>, expected: &str) -> PyErr {
    let shown = item
        .repr()
        .map_or_else(|_| "?".to_string(), |r| r.to_string());
    errors::array_type(
        item.py(),
        format!("expected {expected}, but it holds {shown}"),
    )
}

/// A sequence of layer names (`layers=["walls", "props"]`); a single string, a non-sequence or
/// an item that is not a string is `ArrayTypeError`.
pub struct Names(pub Vec<String>);

impl<'a, 'py> FromPyObject<'a, 'py> for Names {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        const EXPECTED: &str = "a sequence of layer names (a list of str)";
        let items = sequence_items(&obj, EXPECTED)?;
        let mut names = Vec::with_capacity(items.len());
        for item in items {
            let name = item
                .extract::<String>()
                .map_err(|_| wrong_item(&item, EXPECTED))?;
            names.push(name);
        }
        Ok(Names(names))
    }
}

/// A sequence of collider handles (`exclude=[h1, h2]`, or a uint64/int64 array); a single
/// string, a non-sequence (a lone handle) or an item that is not an integer is
/// `ArrayTypeError`; an integer that cannot be a handle is `StaleHandle`.
pub struct Handles(pub Vec<ColliderHandle>);

impl<'a, 'py> FromPyObject<'a, 'py> for Handles {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        const EXPECTED: &str = "a sequence of collider handles (a list of int)";
        let items = sequence_items(&obj, EXPECTED)?;
        let mut handles = Vec::with_capacity(items.len());
        for item in items {
            if integer_text(&item.as_borrowed()).is_none() || item.is_instance_of::<PyBool>() {
                return Err(wrong_item(&item, EXPECTED));
            }
            handles.push(item.extract::<HandleArg>()?.0);
        }
        Ok(Handles(handles))
    }
}
