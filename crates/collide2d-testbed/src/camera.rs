//! The view: which part of the world the canvas shows, and the mapping between world units
//! (y up) and screen pixels (y down).

use collide2d::Vec2;

/// Smallest and largest zoom, in pixels per world unit.
const ZOOM_RANGE: (f32, f32) = (0.05, 2000.0);

/// A 2D camera: the world point at the centre of the canvas and the zoom.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera {
    /// The world point shown at the centre of the canvas.
    pub center: Vec2,
    /// Pixels per world unit.
    pub pixels_per_unit: f32,
}

impl Camera {
    /// A camera showing at least `half_extents` world units either side of `center` on a
    /// canvas `canvas_size` pixels large.
    pub fn fitting(center: Vec2, half_extents: Vec2, canvas_size: Vec2) -> Camera {
        let scale = 0.5 * canvas_size / half_extents.max(Vec2::splat(1e-6));
        let pixels_per_unit = scale.min_element().clamp(ZOOM_RANGE.0, ZOOM_RANGE.1);
        Camera {
            center,
            pixels_per_unit,
        }
    }

    /// The screen position of a world point, for a canvas centred at `canvas_center` (pixels).
    pub fn world_to_screen(&self, world_point: Vec2, canvas_center: Vec2) -> Vec2 {
        let offset = (world_point - self.center) * self.pixels_per_unit;
        canvas_center + Vec2::new(offset.x, -offset.y)
    }

    /// The world point under a screen position, for a canvas centred at `canvas_center`.
    pub fn screen_to_world(&self, screen_point: Vec2, canvas_center: Vec2) -> Vec2 {
        let offset = (screen_point - canvas_center) / self.pixels_per_unit;
        self.center + Vec2::new(offset.x, -offset.y)
    }

    /// Moves the view so that the world follows a mouse drag of `screen_delta` pixels.
    pub fn pan_by_pixels(&mut self, screen_delta: Vec2) {
        let world_delta = Vec2::new(screen_delta.x, -screen_delta.y) / self.pixels_per_unit;
        self.center -= world_delta;
    }

    /// Zooms by `factor` (> 1 zooms in) keeping the world point under `screen_point` fixed.
    pub fn zoom_about(&mut self, screen_point: Vec2, canvas_center: Vec2, factor: f32) {
        if !factor.is_finite() || factor <= 0.0 {
            return;
        }
        let anchor = self.screen_to_world(screen_point, canvas_center);
        self.pixels_per_unit = (self.pixels_per_unit * factor).clamp(ZOOM_RANGE.0, ZOOM_RANGE.1);
        let moved = self.screen_to_world(screen_point, canvas_center);
        self.center += anchor - moved;
    }

    /// A length in pixels as world units.
    pub fn pixels_to_world(&self, pixels: f32) -> f32 {
        pixels / self.pixels_per_unit
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: Vec2, b: Vec2) -> bool {
        (a - b).length() < 1e-3 * (1.0 + a.length().max(b.length()))
    }

    #[test]
    fn world_to_screen_and_back_is_the_identity() {
        let camera = Camera {
            center: Vec2::new(3.0, -2.0),
            pixels_per_unit: 37.5,
        };
        let canvas_center = Vec2::new(640.0, 400.0);
        for point in [Vec2::ZERO, Vec2::new(10.0, 4.0), Vec2::new(-7.5, 12.25)] {
            let screen = camera.world_to_screen(point, canvas_center);
            assert!(close(camera.screen_to_world(screen, canvas_center), point));
        }
    }

    #[test]
    fn y_points_up_on_screen() {
        let camera = Camera::fitting(Vec2::ZERO, Vec2::new(1.0, 10.0), Vec2::new(1280.0, 800.0));
        let canvas_center = Vec2::new(640.0, 400.0);
        let up = camera.world_to_screen(Vec2::new(0.0, 1.0), canvas_center);
        assert!(up.y < canvas_center.y);
        assert!(close(
            camera.world_to_screen(Vec2::new(0.0, 10.0), canvas_center),
            Vec2::new(640.0, 0.0)
        ));
    }

    #[test]
    fn panning_moves_the_world_with_the_mouse() {
        let mut camera = Camera::fitting(Vec2::ZERO, Vec2::splat(5.0), Vec2::new(800.0, 600.0));
        let canvas_center = Vec2::new(400.0, 300.0);
        let grabbed = Vec2::new(100.0, 120.0);
        let world_point = camera.screen_to_world(grabbed, canvas_center);
        let delta = Vec2::new(35.0, -12.0);
        camera.pan_by_pixels(delta);
        assert!(close(
            camera.world_to_screen(world_point, canvas_center),
            grabbed + delta
        ));
    }

    #[test]
    fn zooming_keeps_the_point_under_the_mouse() {
        let mut camera = Camera::fitting(
            Vec2::new(1.0, 1.0),
            Vec2::splat(5.0),
            Vec2::new(800.0, 600.0),
        );
        let canvas_center = Vec2::new(400.0, 300.0);
        let mouse = Vec2::new(610.0, 90.0);
        let under = camera.screen_to_world(mouse, canvas_center);
        camera.zoom_about(mouse, canvas_center, 1.7);
        assert!(close(camera.screen_to_world(mouse, canvas_center), under));
        camera.zoom_about(mouse, canvas_center, 1.0 / 1.7);
        assert!(close(camera.screen_to_world(mouse, canvas_center), under));
        assert!((camera.pixels_per_unit - 60.0).abs() < 1e-3);
    }
}
