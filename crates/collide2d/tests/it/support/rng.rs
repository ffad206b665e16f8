//! The one small seeded random number generator of the workspace's tests, benchmarks and tools.

use collide2d::Vec2;

/// SplitMix64: tiny, fast, reproducible from its seed (any `u64`, zero included), which tests
/// print on failure.
#[derive(Clone, Debug)]
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in [0, 1), 24 bits.
    pub fn unit(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }
    /// Uniform in [0, 1), 53 bits.
    pub fn unit_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
    /// Uniform in [low, high).
    pub fn range(&mut self, low: f32, high: f32) -> f32 {
        low + (high - low) * self.unit()
    }
    /// Uniform in [low, high), in `f64`.
    pub fn range_f64(&mut self, low: f64, high: f64) -> f64 {
        low + (high - low) * self.unit_f64()
    }
    /// An index in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
    /// True with the given probability.
    pub fn chance(&mut self, probability: f64) -> bool {
        self.unit_f64() < probability
    }
    /// One of `items` (not empty), uniformly.
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
    /// A point uniform in the square ±`half`.
    pub fn point(&mut self, half: f32) -> Vec2 {
        Vec2::new(self.range(-half, half), self.range(-half, half))
    }
    /// A size spread log-uniformly over [low, high].
    pub fn log_size(&mut self, low: f32, high: f32) -> f32 {
        (self.range(low.ln(), high.ln())).exp()
    }
    /// An angle uniform in [-π, π).
    pub fn angle(&mut self) -> f32 {
        self.range(-std::f32::consts::PI, std::f32::consts::PI)
    }
}
