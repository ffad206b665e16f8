//! A tiny multiplicative hasher for integer keys (the FxHash idea from Firefox and rustc).

use std::hash::{BuildHasherDefault, Hasher};

/// Odd constant close to 2^64 / golden ratio; multiplying spreads low-bit differences upwards.
const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

/// A fast, deterministic, non-cryptographic hasher for small integer keys such as grid cells.
///
/// Each word is folded in as `hash = (hash.rotate_left(5) ^ word) * SEED`. Not resistant to
/// adversarial keys, which is fine for cell coordinates.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct FxHasher {
    hash: u64,
}

impl FxHasher {
    #[inline]
    fn add_word(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.add_word(u64::from_le_bytes(word));
        }
    }

    #[inline]
    fn write_u32(&mut self, value: u32) {
        self.add_word(u64::from(value));
    }

    #[inline]
    fn write_i32(&mut self, value: i32) {
        self.add_word(u64::from(value as u32));
    }

    #[inline]
    fn write_u64(&mut self, value: u64) {
        self.add_word(value);
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.hash
    }
}

/// Builds [`FxHasher`]s for `HashMap`/`HashSet` (deterministic: no per-map random state).
pub(crate) type FxBuildHasher = BuildHasherDefault<FxHasher>;

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::{BuildHasher, Hash};

    fn hash_of(value: impl Hash) -> u64 {
        FxBuildHasher::default().hash_one(value)
    }

    #[test]
    fn equal_keys_hash_equal_and_neighbours_differ() {
        assert_eq!(hash_of((3i32, -7i32)), hash_of((3i32, -7i32)));
        assert_ne!(hash_of((3i32, -7i32)), hash_of((-7i32, 3i32)));
        assert_ne!(hash_of((0i32, 0i32)), hash_of((0i32, 1i32)));
        assert_ne!(hash_of((0i32, 0i32)), hash_of((1i32, 0i32)));
    }

    #[test]
    fn byte_writes_fold_by_word() {
        let mut a = FxHasher::default();
        a.write(&[1, 0, 0, 0, 0, 0, 0, 0, 2]);
        let mut b = FxHasher::default();
        b.write_u64(1);
        b.write_u64(2);
        assert_eq!(a.finish(), b.finish());
    }
}
