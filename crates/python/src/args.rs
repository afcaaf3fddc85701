//! Arguments from Python, read with errors a Python user reads: a wrong type is a
//! `TypeError` and a value out of range a `ValueError`, each naming the argument and
//! what it accepts (PyO3's own messages name Rust types, and a large int is its
//! `OverflowError`).

use crate::board::{PyBoard, PyMove};
use crate::encoding;
use jungle_core::board::{Move, Square};
use jungle_core::text::quote;
use pyo3::exceptions::{PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyString};

/// The type name of a Python value, for messages.
pub fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map_or_else(|_| "an unknown type".into(), |n| n.to_string())
}

/// An int given from Python: its value when it fits in 64 bits, and its text.
pub struct Whole {
    pub value: Option<i64>,
    pub text: String,
}

impl Whole {
    /// The value from `min` to `max`, or `ValueError` naming `name`.
    pub fn within(&self, name: &str, min: i64, max: i64) -> PyResult<i64> {
        self.value
            .filter(|v| (min..=max).contains(v))
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "{name} must be a whole number from {min} to {max}, got {}",
                    self.text
                ))
            })
    }
}

/// `obj` as a whole number (an `int` or anything with `__index__`, such as numpy's
/// integers; not a `bool`), else `TypeError` naming `name`.
pub fn whole_number(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<Whole> {
    let not_whole = || {
        PyTypeError::new_err(format!(
            "{name} must be a whole number (int), not {}",
            type_name(obj)
        ))
    };
    if obj.is_instance_of::<PyBool>() {
        return Err(not_whole());
    }
    match obj.extract::<i64>() {
        Ok(v) => Ok(Whole {
            value: Some(v),
            text: v.to_string(),
        }),
        Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => Ok(Whole {
            value: None,
            text: obj.str()?.to_string(),
        }),
        Err(_) => Err(not_whole()),
    }
}

/// `obj` as a whole number from `min` to `max`.
pub fn whole(obj: &Bound<'_, PyAny>, name: &str, min: i64, max: i64) -> PyResult<i64> {
    whole_number(obj, name)?.within(name, min, max)
}

/// `whole` for an optional argument (`None` stays `None`).
pub fn whole_opt(
    obj: Option<&Bound<'_, PyAny>>,
    name: &str,
    min: i64,
    max: i64,
) -> PyResult<Option<i64>> {
    obj.map(|o| whole(o, name, min, max)).transpose()
}

/// A square given as its number (0 = a1 … 62 = g9) or its name (`"d4"`).
pub fn square(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<Square> {
    if let Ok(text) = obj.cast::<PyString>() {
        let text = text.to_cow()?;
        return text
            .parse::<Square>()
            .map_err(|e| PyValueError::new_err(format!("{name}: {e}")));
    }
    let number = whole_number(obj, name).map_err(|_| {
        PyTypeError::new_err(format!(
            "{name} must be a square's number (0 = a1 to 62 = g9) or name ('d4'), not {}",
            type_name(obj)
        ))
    })?;
    number
        .value
        .ok_or_else(|| {
            format!(
                "square {} is off the board (0 = a1 to 62 = g9)",
                number.text
            )
        })
        .and_then(encoding::square_of_index)
        .map_err(|e| PyValueError::new_err(format!("{name}: {e}")))
}

/// A move given as a `Move` or as coordinate text (`"g3g4"`); the text is only read
/// here (whether it is legal is the board's question).
pub fn move_of(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<Move> {
    if let Ok(m) = obj.extract::<PyMove>() {
        return Ok(m.0);
    }
    if let Ok(text) = obj.cast::<PyString>() {
        return PyMove::from_uci(&text.to_cow()?).map(|m| m.0);
    }
    Err(PyTypeError::new_err(format!(
        "{name} must be a jungle.Move or coordinate text such as 'g3g4', not {}",
        type_name(obj)
    )))
}

/// `obj` as seconds (an int or a float, not a bool), else `TypeError` naming `name`;
/// the range is the caller's to check.
pub fn seconds(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<f64> {
    let not_seconds = || {
        PyTypeError::new_err(format!(
            "{name} must be a number of seconds (int or float), not {}",
            type_name(obj)
        ))
    };
    if obj.is_instance_of::<PyBool>() {
        return Err(not_seconds());
    }
    obj.extract::<f64>().map_err(|_| not_seconds())
}

/// `obj` as seconds for each side: one number for both, or a pair, Red's and Blue's
/// (a tuple or list of two numbers).
pub fn seconds_each(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<(f64, f64)> {
    if let Ok(both) = seconds(obj, name) {
        return Ok((both, both));
    }
    let pair: Vec<Bound<'_, PyAny>> = obj.extract().map_err(|_| not_a_pair(obj, name))?;
    match pair.as_slice() {
        [red, blue] => Ok((seconds(red, name)?, seconds(blue, name)?)),
        _ => Err(not_a_pair(obj, name)),
    }
}

fn not_a_pair(obj: &Bound<'_, PyAny>, name: &str) -> PyErr {
    PyTypeError::new_err(format!(
        "{name} must be seconds (a number for both sides, or a pair (red, blue)), not {}",
        type_name(obj)
    ))
}

/// A seed: a whole number from 0 to 2**64 - 1 (as numpy and Gymnasium take them),
/// else `TypeError` or `ValueError` naming `name`.
pub fn seed(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<u64> {
    let number = whole_number(obj, name)?;
    match obj.extract::<u64>() {
        Ok(seed) => Ok(seed),
        Err(_) => Err(PyValueError::new_err(format!(
            "{name} must be a whole number from 0 to 2**64 - 1, got {}",
            number.text
        ))),
    }
}

/// `ValueError` (after `what`) unless `dir` is a directory that can be read, in the
/// words of the `jungle` engine's `TablebasePath`.
pub fn readable_dir(dir: &std::path::Path, what: &str) -> PyResult<()> {
    std::fs::read_dir(dir).map(drop).map_err(|e| {
        PyValueError::new_err(format!(
            "{what}: cannot read directory '{}': {e}",
            quote(&dir.to_string_lossy())
        ))
    })
}

/// `obj` as text (a `str`), else `TypeError` naming `name`.
pub fn text(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<String> {
    match obj.cast::<PyString>() {
        Ok(s) => Ok(s.to_cow()?.into_owned()),
        Err(_) => Err(PyTypeError::new_err(format!(
            "{name} must be text (str), not {}",
            type_name(obj)
        ))),
    }
}

/// `text` for an optional argument.
pub fn text_opt(obj: Option<&Bound<'_, PyAny>>, name: &str) -> PyResult<Option<String>> {
    obj.map(|o| text(o, name)).transpose()
}

/// `obj` as `True` or `False` (or numpy's bools), else `TypeError` naming `name`.
pub fn flag(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<bool> {
    obj.extract::<bool>().map_err(|_| {
        PyTypeError::new_err(format!(
            "{name} must be True or False, not {}",
            type_name(obj)
        ))
    })
}

/// `flag` for an optional argument.
pub fn flag_opt(obj: Option<&Bound<'_, PyAny>>, name: &str) -> PyResult<Option<bool>> {
    obj.map(|o| flag(o, name)).transpose()
}

/// `obj` as a `jungle.Board`, else `TypeError` naming `name`.
pub fn board<'py>(obj: &Bound<'py, PyAny>, name: &str) -> PyResult<PyRef<'py, PyBoard>> {
    obj.extract::<PyRef<'py, PyBoard>>().map_err(|_| {
        PyTypeError::new_err(format!(
            "{name} must be a jungle.Board, not {}",
            type_name(obj)
        ))
    })
}

/// A `perspective` argument: `"fixed"` (Red's side at the bottom; `None` too) or
/// `"side_to_move"` (the side the observation is for at the bottom); true for the
/// latter.
pub fn perspective(obj: Option<&Bound<'_, PyAny>>) -> PyResult<bool> {
    perspective_named(text_opt(obj, "perspective")?.as_deref().unwrap_or("fixed"))
}

/// `perspective` of a name.
pub fn perspective_named(name: &str) -> PyResult<bool> {
    match name {
        "fixed" => Ok(false),
        "side_to_move" => Ok(true),
        other => Err(PyValueError::new_err(format!(
            "perspective must be 'fixed' or 'side_to_move', not '{}'",
            quote(other)
        ))),
    }
}

/// The name of a perspective (`perspective`'s reading back).
pub fn perspective_name(side_to_move: bool) -> &'static str {
    if side_to_move {
        "side_to_move"
    } else {
        "fixed"
    }
}
