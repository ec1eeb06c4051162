//! sudolab's exceptions, defined in Python (`sudolab/_errors.py`, so that each can derive from
//! both `sudolab.Error` and the built-in it refines) and raised from here by name.

use pyo3::prelude::*;
use pyo3::types::PyType;

/// An exception of class `name` from `sudolab._errors` with `message`.
fn raise(name: &str, message: &str) -> PyErr {
    Python::attach(|py| {
        let class = py
            .import("sudolab._errors")
            .and_then(|module| module.getattr(name))
            .and_then(|class| class.cast_into::<PyType>().map_err(PyErr::from));
        match class {
            Ok(class) => PyErr::from_type(class, message.to_string()),
            Err(err) => err,
        }
    })
}

/// A puzzle or file that cannot be read: `sudolab.ParseError` (a `ValueError`).
pub fn parse(message: &str) -> PyErr {
    raise("ParseError", message)
}

/// An input that cannot be opened: `sudolab.InputError` (an `OSError`).
pub fn input(message: &str) -> PyErr {
    raise("InputError", message)
}

/// A bad option (unknown strategy, bad limit or duration): `sudolab.OptionError` (a
/// `ValueError`).
pub fn option(message: &str) -> PyErr {
    raise("OptionError", message)
}

/// An experiment file that cannot be used: `sudolab.ExperimentError` (a `ValueError`).
pub fn experiment(message: &str) -> PyErr {
    raise("ExperimentError", message)
}

/// Something that should not happen (a panic on a worker thread): `sudolab.Error`.
pub fn internal(message: &str) -> PyErr {
    raise("Error", &format!("internal error: {message}"))
}
