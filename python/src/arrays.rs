//! NumPy arrays from Rust data, through NumPy's own Python API: the bytes
//! go into a `bytearray` that `numpy.frombuffer` wraps without a further
//! copy, so the package needs no NumPy C headers and no `numpy` crate.

use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyTuple};

/// An element type of the arrays the package returns.
pub trait Element: Copy {
    /// NumPy's little-endian type string.
    const DTYPE: &'static str;
    fn put(self, out: &mut Vec<u8>);
}

macro_rules! element {
    ($($t:ty => $dtype:literal),*) => {$(
        impl Element for $t {
            const DTYPE: &'static str = $dtype;
            fn put(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
        }
    )*};
}

element!(f32 => "<f4", i8 => "|i1", u8 => "|u1", u16 => "<u2", i16 => "<i2", u32 => "<u4", i32 => "<i4", u64 => "<u8");

/// A writable NumPy array of `data` with `shape` (C order).
pub fn array<'py, T: Element>(
    py: Python<'py>,
    data: &[T],
    shape: &[usize],
) -> PyResult<Bound<'py, PyAny>> {
    debug_assert_eq!(shape.iter().product::<usize>(), data.len());
    let mut bytes = Vec::with_capacity(std::mem::size_of_val(data));
    for &value in data {
        value.put(&mut bytes);
    }
    let buffer = PyByteArray::new(py, &bytes);
    let numpy = py.import("numpy")?;
    let flat = numpy.call_method1("frombuffer", (buffer, T::DTYPE))?;
    flat.call_method1("reshape", (PyTuple::new(py, shape)?,))
}
