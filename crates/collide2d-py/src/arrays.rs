//! NumPy arrays in and out.
//!
//! Input arrays may be `float32` or `float64` (handles: `uint64` or non-negative `int64`), in
//! any memory layout: they are read through their strides, so a non-contiguous view is read in
//! place and not refused. Values are converted to `f32` (the library's scalar) once, while the
//! GIL is held; anything else (a list, a tuple) goes through `numpy.asarray` first. Output
//! arrays are new, C-contiguous arrays owned by Python.

use collide2d::world::ColliderHandle;
use collide2d::Vec2;
use numpy::prelude::*;
use numpy::{PyArray1, PyArray2, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArray};
use pyo3::prelude::*;

use crate::errors;

/// `obj` as a NumPy array: itself when it is one, else `numpy.asarray(obj, dtype)`.
fn as_array<'py>(
    py: Python<'py>,
    obj: &Bound<'py, PyAny>,
    what: &str,
    dtype: &str,
) -> PyResult<Bound<'py, PyUntypedArray>> {
    if let Ok(array) = obj.cast::<PyUntypedArray>() {
        return Ok(array.clone());
    }
    let converted = py
        .import("numpy")?
        .call_method1("asarray", (obj, dtype))
        .map_err(|e| {
            errors::array_type(py, format!("{what} must be an array-like of numbers ({e})"))
        })?;
    converted
        .cast_into::<PyUntypedArray>()
        .map_err(|_| errors::array_type(py, format!("{what} must be an array")))
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
    let array = as_array(py, obj, what, "float64")?;
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

/// An `(n,)` float array (or one number, repeated `rows` times).
pub fn scalars(
    py: Python<'_>,
    obj: &Bound<'_, PyAny>,
    what: &str,
    rows: usize,
) -> PyResult<Vec<f32>> {
    if let Ok(value) = obj.extract::<f64>() {
        if obj.cast::<PyUntypedArray>().is_err() {
            return Ok(vec![value as f32; rows]);
        }
    }
    let array = as_array(py, obj, what, "float64")?;
    check_shape(py, &array, what, None, Some(rows))?;
    if let Ok(a) = array.extract::<PyReadonlyArray1<'_, f64>>() {
        Ok(a.as_array().iter().map(|&v| v as f32).collect())
    } else if let Ok(a) = array.extract::<PyReadonlyArray1<'_, f32>>() {
        Ok(a.as_array().to_vec())
    } else {
        Err(errors::array_type(
            py,
            format!(
                "{what} must be a float32 or float64 array, got dtype {}",
                dtype_name(&array)
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
    let array = as_array(py, obj, what, "uint64")?;
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
        Err(errors::array_type(
            py,
            format!(
                "{what} must be a uint64 or int64 array, got dtype {}",
                dtype_name(&array)
            ),
        ))
    }
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
