//! A [`DebugDraw`] that only counts and bounds what is drawn: headless tests of the samples.

use collide2d::debug::{Color, DebugDraw};
use collide2d::Vec2;

/// Counts drawing calls and checks every coordinate is finite.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Recorder {
    /// Polygons drawn.
    pub polygons: usize,
    /// Circles drawn.
    pub circles: usize,
    /// Segments drawn.
    pub segments: usize,
    /// Points drawn.
    pub points: usize,
    /// Labels drawn, in order, with where they were put.
    pub labels: Vec<(Vec2, String)>,
    /// Coordinates that were NaN or infinite.
    pub non_finite: usize,
}

impl Recorder {
    /// Every drawing call so far.
    pub fn total(&self) -> usize {
        self.polygons + self.circles + self.segments + self.points + self.labels.len()
    }

    fn check(&mut self, p: Vec2) {
        if !p.is_finite() {
            self.non_finite += 1;
        }
    }
}

impl DebugDraw for Recorder {
    fn polygon(&mut self, points: &[Vec2], _: Color, _: bool) {
        self.polygons += 1;
        for &p in points {
            self.check(p);
        }
    }
    fn circle(&mut self, center: Vec2, radius: f32, _: Color, _: bool) {
        self.circles += 1;
        self.check(center);
        self.check(Vec2::splat(radius));
    }
    fn segment(&mut self, a: Vec2, b: Vec2, _: Color) {
        self.segments += 1;
        self.check(a);
        self.check(b);
    }
    fn point(&mut self, p: Vec2, _: f32, _: Color) {
        self.points += 1;
        self.check(p);
    }
    fn label(&mut self, at: Vec2, text: &str, _: Color) {
        self.check(at);
        self.labels.push((at, text.to_owned()));
    }
}
