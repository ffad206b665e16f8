//! Repeatable pseudo-random numbers (xorshift64) for the crate's unit tests, in every layer.

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

/// Rotations with exact cosine and sine, `(c, s)`: quarter turns, with signed zeros.
pub(crate) const EXACT_TURNS: [(f32, f32); 5] = [
    (1.0, 0.0),
    (1.0, -0.0),
    (0.0, 1.0),
    (-0.0, -1.0),
    (-1.0, 0.0),
];
