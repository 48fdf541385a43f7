//! Numeric arguments: whole numbers of any size, checked against a range with the package's
//! words, and real numbers. Neither is ever a bool: Python's `True` is the int 1, so
//! `time_limit=True` ran a search of one second and `max_nodes=True` one of one node.

use pyo3::exceptions::{PyOverflowError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::PyBool;

use crate::errors::{self, Kind};

/// A whole-number argument of any size. A Python int beyond `i128` is out of every range
/// the checks allow, so it saturates and is refused by them with `InvalidOption`: taken as
/// an `i64`, `10**30` raised `OverflowError`, which `except ValueError` misses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Whole(pub i128);

impl<'a, 'py> FromPyObject<'a, 'py> for Whole {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Whole> {
        refuse_bool(obj, "a whole number")?;
        match obj.extract::<i128>() {
            Ok(n) => Ok(Whole(n)),
            Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => {
                Ok(Whole(if obj.lt(0)? { i128::MIN } else { i128::MAX }))
            }
            Err(e) => Err(e),
        }
    }
}

impl Whole {
    /// The number when it lies in `range`, else `InvalidOption`: "NAME must be between A
    /// and B, got N".
    ///
    /// # Errors
    /// The number outside `range`.
    pub fn within<T: TryFrom<i128> + std::fmt::Display + Copy>(
        self,
        name: &str,
        range: std::ops::RangeInclusive<T>,
    ) -> PyResult<T>
    where
        i128: From<T>,
    {
        let (lo, hi) = (*range.start(), *range.end());
        T::try_from(self.0)
            .ok()
            .filter(|_| (i128::from(lo)..=i128::from(hi)).contains(&self.0))
            .ok_or_else(|| {
                errors::error(
                    Kind::InvalidOption,
                    format!("{name} must be between {lo} and {hi}, got {}", self.shown()),
                )
            })
    }

    /// The number as a message shows it: a saturated one as what it stands for.
    fn shown(self) -> String {
        saturated_in_words(&self.0.to_string())
    }
}

/// `text` with the numbers that saturated ([`Whole`] beyond `i128`) in words: the checks'
/// messages (the core's too) show the number they were given.
pub fn saturated_in_words(text: &str) -> String {
    text.replace(&i128::MIN.to_string(), "a number below -1.7e38")
        .replace(&i128::MAX.to_string(), "a number above 1.7e38")
}

/// A real-number argument (seconds, a weight): any Python int or float, but not a bool.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Real(pub f64);

impl<'a, 'py> FromPyObject<'a, 'py> for Real {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Real> {
        refuse_bool(obj, "a number")?;
        obj.extract::<f64>().map(Real)
    }
}

/// `TypeError` for a bool where a number (`what`) is wanted, as Python's own words for a
/// wrong type read: "expected a number, not bool".
fn refuse_bool(obj: Borrowed<'_, '_, PyAny>, what: &str) -> PyResult<()> {
    if obj.is_instance_of::<PyBool>() {
        return Err(PyTypeError::new_err(format!("expected {what}, not bool")));
    }
    Ok(())
}
