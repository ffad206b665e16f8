//! NumPy arrays in and out.
//!
//! Input arrays may be `float32` or `float64` (handles: `uint64` or non-negative `int64`), in
//! any memory layout and byte order: they are read through their strides, so a non-contiguous
//! view is read in place and not refused. Values are converted to `f32` (the library's scalar)
//! once, while the GIL is held. Anything else (a list, a tuple) goes through `numpy.asarray`
//! first, and must give numbers there: integers are taken as floats, but strings, booleans,
//! `None` and other objects are refused rather than parsed or cast. A batch has at most
//! [`MAX_BATCH_ROWS`] rows. Output arrays are new, C-contiguous arrays owned by Python.

use collide2d::world::ColliderHandle;
use collide2d::Vec2;
use numpy::prelude::*;
use numpy::{PyArray1, PyArray2, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArray};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyFloat, PyInt, PyList, PyTuple};

use crate::convert::Real;
use crate::errors;

/// The most rows one batch call takes (2**24, as many as a chain's vertices): a larger array
/// (a broadcast view can claim billions of rows in a few bytes) raises `InvalidInput` before
/// anything is allocated for it, instead of exhausting memory. Split larger batches.
pub const MAX_BATCH_ROWS: usize = 1 << 24;

/// `obj` as a NumPy array of numbers: itself when it is an array (its dtype is checked by the
/// reader), else `numpy.asarray(obj)`, refused unless it holds integers or floats; integers
/// from a list become `float64` when `floats` is asked for.
fn as_array<'py>(
    py: Python<'py>,
    obj: &Bound<'py, PyAny>,
    what: &str,
    floats: bool,
) -> PyResult<Bound<'py, PyUntypedArray>> {
    if let Ok(array) = obj.cast::<PyUntypedArray>() {
        return native_byte_order(array.clone());
    }
    let converted = py
        .import("numpy")?
        .call_method1("asarray", (obj,))
        .map_err(|e| {
            errors::array_type(py, format!("{what} must be an array-like of numbers ({e})"))
        })?
        .cast_into::<PyUntypedArray>()
        .map_err(|_| errors::array_type(py, format!("{what} must be an array")))?;
    if holds_bool(obj, 0) {
        // NumPy reads `[1.0, True]` as `[1.0, 1.0]`; a bool is never a number here.
        return Err(errors::array_type(
            py,
            format!("{what} must hold numbers, not bools"),
        ));
    }
    match converted.dtype().kind() {
        b'f' => Ok(converted),
        b'i' | b'u' if floats => converted
            .call_method1("astype", ("float64",))?
            .cast_into::<PyUntypedArray>()
            .map_err(Into::into),
        b'i' | b'u' => Ok(converted),
        // A list holding an integer too large for any NumPy integer (`10**400`) comes as
        // objects: a number out of range, not a wrong type.
        b'O' if floats => match numbers_as_floats(&converted)? {
            Some(array) => Ok(array),
            None => Err(not_numbers(py, obj, what, &converted)),
        },
        _ => Err(not_numbers(py, obj, what, &converted)),
    }
}

/// Whether `obj`, a number or a list or tuple of them (nested as deep as a batch argument
/// goes: rows of points), holds a Python or NumPy bool.
fn holds_bool(obj: &Bound<'_, PyAny>, depth: usize) -> bool {
    if obj.is_instance_of::<PyBool>() || is_numpy_bool(obj) {
        return true;
    }
    if depth >= 2 {
        return false;
    }
    let items = if let Ok(list) = obj.cast::<PyList>() {
        list.iter().collect::<Vec<_>>()
    } else if let Ok(tuple) = obj.cast::<PyTuple>() {
        tuple.iter().collect()
    } else {
        return false;
    };
    items.iter().any(|item| holds_bool(item, depth + 1))
}

/// Whether `obj` is a NumPy bool scalar (`numpy.bool_`).
fn is_numpy_bool(obj: &Bound<'_, PyAny>) -> bool {
    let ty = obj.get_type();
    let module = ty.module().map(|m| m.to_string()).unwrap_or_default();
    let name = ty.name().map(|n| n.to_string()).unwrap_or_default();
    module == "numpy" && (name == "bool" || name == "bool_")
}

fn not_numbers(
    py: Python<'_>,
    obj: &Bound<'_, PyAny>,
    what: &str,
    converted: &Bound<'_, PyUntypedArray>,
) -> PyErr {
    errors::array_type(
        py,
        format!(
            "{what} must hold numbers, got {} (dtype {})",
            obj.get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_default(),
            dtype_name(converted)
        ),
    )
}

/// An object array of Python integers and floats (as `numpy.asarray` makes for a list holding
/// an integer too large for any NumPy integer, `10**400`) as a float64 array of the same shape,
/// integers too large for a float as the infinity of their sign (refused then as beyond
/// float32, with their row); `None` when some item is neither (booleans are not numbers here).
fn numbers_as_floats<'py>(
    array: &Bound<'py, PyUntypedArray>,
) -> PyResult<Option<Bound<'py, PyUntypedArray>>> {
    let py = array.py();
    let items = array.call_method0("ravel")?.call_method0("tolist")?;
    let mut values = Vec::new();
    for item in items.cast::<PyList>()?.iter() {
        let number = item.is_instance_of::<PyInt>() || item.is_instance_of::<PyFloat>();
        if !number || item.is_instance_of::<PyBool>() {
            return Ok(None);
        }
        let Ok(Real(value)) = item.extract::<Real>() else {
            return Ok(None);
        };
        values.push(value);
    }
    let shape = array.shape().to_vec();
    Ok(Some(
        PyArray1::from_vec(py, values)
            .reshape(shape)?
            .into_any()
            .cast_into::<PyUntypedArray>()?,
    ))
}

/// The array itself, or a copy in the machine's byte order when it is not in it (`>f8` on a
/// little-endian machine), so that the typed readers see its dtype as `float64`.
fn native_byte_order(array: Bound<'_, PyUntypedArray>) -> PyResult<Bound<'_, PyUntypedArray>> {
    let dtype = array.dtype();
    if dtype.is_native_byteorder() != Some(false) {
        return Ok(array);
    }
    let native = dtype.call_method1("newbyteorder", ("=",))?;
    array
        .call_method1("astype", (native,))?
        .cast_into::<PyUntypedArray>()
        .map_err(Into::into)
}

fn dtype_name(array: &Bound<'_, PyUntypedArray>) -> String {
    array
        .dtype()
        .str()
        .map(|s| s.to_string())
        .unwrap_or_else(|_| "?".to_string())
}

fn check_shape(
    py: Python<'_>,
    array: &Bound<'_, PyUntypedArray>,
    what: &str,
    columns: Option<usize>,
    rows: Option<usize>,
) -> PyResult<()> {
    let shape = array.shape();
    let wanted = match columns {
        Some(c) => format!("(n, {c})"),
        None => "(n,)".to_string(),
    };
    let ok_dims = match columns {
        Some(c) => shape.len() == 2 && shape[1] == c,
        None => shape.len() == 1,
    };
    if !ok_dims {
        return Err(errors::invalid(
            py,
            format!("{what} must have shape {wanted}, got {shape:?}"),
        ));
    }
    if shape[0] > MAX_BATCH_ROWS {
        return Err(errors::invalid(
            py,
            format!(
                "{what} has {} rows, more than a batch takes ({MAX_BATCH_ROWS}); split it",
                shape[0]
            ),
        ));
    }
    if let Some(n) = rows {
        if shape[0] != n {
            return Err(errors::invalid(
                py,
                format!("{what} has {} rows, expected {n}", shape[0]),
            ));
        }
    }
    Ok(())
}

/// An `(n, 2)` float array as points; `rows` is the `n` it must have, when known.
pub fn points(
    py: Python<'_>,
    obj: &Bound<'_, PyAny>,
    what: &str,
    rows: Option<usize>,
) -> PyResult<Vec<Vec2>> {
    let array = as_array(py, obj, what, true)?;
    if array.ndim() == 1 && array.len() == 0 && rows.unwrap_or(0) == 0 {
        return Ok(Vec::new()); // `[]`: no points, as numpy.asarray gives it
    }
    check_shape(py, &array, what, Some(2), rows)?;
    let out: Vec<Vec2> = if let Ok(a) = array.extract::<PyReadonlyArray2<'_, f64>>() {
        a.as_array()
            .rows()
            .into_iter()
            .map(|r| Vec2::new(r[0] as f32, r[1] as f32))
            .collect()
    } else if let Ok(a) = array.extract::<PyReadonlyArray2<'_, f32>>() {
        a.as_array()
            .rows()
            .into_iter()
            .map(|r| Vec2::new(r[0], r[1]))
            .collect()
    } else {
        return Err(errors::array_type(
            py,
            format!(
                "{what} must be a float32 or float64 array, got dtype {}",
                dtype_name(&array)
            ),
        ));
    };
    if let Some(row) = out.iter().position(|p| !p.is_finite()) {
        return Err(errors::invalid(
            py,
            format!("{what}: row {row} holds a NaN or infinite number (or one beyond float32)"),
        ));
    }
    Ok(out)
}

/// An `(n,)` float array (or one number, a Python or NumPy scalar or a 0-d array, repeated
/// `rows` times).
pub fn scalars(
    py: Python<'_>,
    obj: &Bound<'_, PyAny>,
    what: &str,
    rows: usize,
) -> PyResult<Vec<f32>> {
    if obj.cast::<PyUntypedArray>().is_err() {
        if let Ok(Real(value)) = obj.extract::<Real>() {
            return Ok(vec![value as f32; rows]);
        }
    }
    let array = as_array(py, obj, what, true)?;
    if array.ndim() == 0 {
        let one = array
            .call_method1("reshape", (1,))?
            .cast_into::<PyUntypedArray>()?;
        return Ok(vec![read_scalars(py, &one, what)?[0]; rows]);
    }
    check_shape(py, &array, what, None, Some(rows))?;
    read_scalars(py, &array, what)
}

/// The values of a 1-D float32 or float64 array, as `f32`.
fn read_scalars(
    py: Python<'_>,
    array: &Bound<'_, PyUntypedArray>,
    what: &str,
) -> PyResult<Vec<f32>> {
    if let Ok(a) = array.extract::<PyReadonlyArray1<'_, f64>>() {
        Ok(a.as_array().iter().map(|&v| v as f32).collect())
    } else if let Ok(a) = array.extract::<PyReadonlyArray1<'_, f32>>() {
        Ok(a.as_array().to_vec())
    } else {
        Err(errors::array_type(
            py,
            format!(
                "{what} must be a float32 or float64 array, got dtype {}",
                dtype_name(array)
            ),
        ))
    }
}

/// An `(n,)` array of handles (`uint64`, or `int64` without negative values).
pub fn handles(
    py: Python<'_>,
    obj: &Bound<'_, PyAny>,
    what: &str,
) -> PyResult<Vec<ColliderHandle>> {
    let array = as_array(py, obj, what, false)?;
    if array.ndim() == 1 && array.len() == 0 {
        return Ok(Vec::new()); // `[]`, which numpy.asarray makes float64
    }
    let wrong_dtype = || {
        errors::array_type(
            py,
            format!(
                "{what} must be a uint64 or int64 array, got dtype {}",
                dtype_name(&array)
            ),
        )
    };
    if !matches!(array.dtype().kind(), b'i' | b'u') {
        return Err(wrong_dtype()); // before the shape: a float is a wrong type, not a wrong shape
    }
    check_shape(py, &array, what, None, None)?;
    if let Ok(a) = array.extract::<PyReadonlyArray1<'_, u64>>() {
        Ok(a.as_array()
            .iter()
            .map(|&bits| ColliderHandle::from_bits(bits))
            .collect())
    } else if let Ok(a) = array.extract::<PyReadonlyArray1<'_, i64>>() {
        a.as_array()
            .iter()
            .enumerate()
            .map(|(row, &bits)| {
                u64::try_from(bits)
                    .map(ColliderHandle::from_bits)
                    .map_err(|_| errors::invalid(py, format!("{what}: row {row} is negative")))
            })
            .collect()
    } else {
        Err(wrong_dtype())
    }
}

/// A tile map's cells from a 2-D array of numbers or booleans (nonzero: solid), as a boolean
/// array. Its size is checked against the library's `MAX_CELLS` before anything is copied, and
/// a NaN or infinite cell is refused (it is neither clearly solid nor clearly empty).
pub fn tiles<'py>(
    py: Python<'py>,
    obj: &Bound<'py, PyAny>,
) -> PyResult<PyReadonlyArray2<'py, bool>> {
    let array = match obj.cast::<PyUntypedArray>() {
        Ok(array) => array.clone(),
        Err(_) => py
            .import("numpy")?
            .call_method1("asarray", (obj,))
            .map_err(|e| {
                errors::array_type(py, format!("tiles must be a 2-D array of numbers ({e})"))
            })?
            .cast_into::<PyUntypedArray>()
            .map_err(|_| errors::array_type(py, "tiles must be a 2-D array of numbers"))?,
    };
    if !matches!(array.dtype().kind(), b'b' | b'i' | b'u' | b'f') {
        return Err(errors::array_type(
            py,
            format!(
                "tiles must hold numbers or booleans, got dtype {}",
                dtype_name(&array)
            ),
        ));
    }
    if array.ndim() != 2 {
        return Err(errors::invalid(
            py,
            format!(
                "tiles must have 2 dimensions, got shape {:?}",
                array.shape()
            ),
        ));
    }
    let cells = (array.shape()[0] as u64).saturating_mul(array.shape()[1] as u64);
    if cells > collide2d::level::MAX_CELLS {
        return Err(errors::invalid(
            py,
            format!(
                "tiles has {cells} cells, more than a tile map holds ({})",
                collide2d::level::MAX_CELLS
            ),
        ));
    }
    let numpy = py.import("numpy")?;
    if array.dtype().kind() == b'f'
        && !numpy
            .call_method1("isfinite", (&array,))?
            .call_method0("all")?
            .is_truthy()?
    {
        return Err(errors::invalid(py, "tiles holds a NaN or infinite number"));
    }
    let solid = numpy.call_method1("not_equal", (&array, 0))?;
    solid.extract()
}

/// Points as a new `(n, 2)` float32 array.
pub fn points_out<'py>(py: Python<'py>, points: &[Vec2]) -> PyResult<Bound<'py, PyArray2<f32>>> {
    let flat: Vec<f32> = points.iter().flat_map(|p| [p.x, p.y]).collect();
    PyArray1::from_vec(py, flat).reshape([points.len(), 2])
}

/// Handle pairs as a new `(m, 2)` uint64 array.
pub fn pairs_out<'py>(
    py: Python<'py>,
    pairs: impl Iterator<Item = (ColliderHandle, ColliderHandle)>,
) -> PyResult<Bound<'py, PyArray2<u64>>> {
    let flat: Vec<u64> = pairs
        .flat_map(|(a, b)| [a.to_bits(), b.to_bits()])
        .collect();
    let rows = flat.len() / 2;
    PyArray1::from_vec(py, flat).reshape([rows, 2])
}
