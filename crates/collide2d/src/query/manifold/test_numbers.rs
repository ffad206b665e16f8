//! Repeatable pseudo-random numbers for the manifold unit tests (xorshift64).

/// A xorshift64 state; the seed must not be zero.
pub(crate) struct Numbers(pub(crate) u64);

impl Numbers {
    /// The next number in `[0, 1)`.
    pub(crate) fn unit(&mut self) -> f32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 40) as f32 / (1u64 << 24) as f32
    }
}
