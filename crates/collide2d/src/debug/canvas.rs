//! A [`DebugDraw`] that rasterises with tiny-skia and writes PNG files.

use super::{Color, DebugDraw};
use crate::math::Vec2;
use crate::shape::Aabb;
use tiny_skia::{FillRule, Paint, PathBuilder, Pixmap, Stroke, Transform as SkiaTransform};

/// Why a canvas could not be made or saved.
#[derive(Debug)]
#[non_exhaustive]
pub enum RenderError {
    /// Width or height was zero or too large.
    BadSize {
        /// Requested width in pixels.
        width: u32,
        /// Requested height in pixels.
        height: u32,
    },
    /// The view box was empty, inverted or not finite.
    BadView,
    /// Writing the PNG failed.
    Io(String),
}

impl std::fmt::Display for RenderError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RenderError::BadSize { width, height } => {
                write!(f, "cannot make a {width} × {height} image")
            }
            RenderError::BadView => write!(f, "the view box must be finite with positive size"),
            RenderError::Io(message) => write!(f, "could not write the image: {message}"),
        }
    }
}

impl std::error::Error for RenderError {}

/// A picture of part of the world: `view` (world units, y up) fitted into `width × height`
/// pixels, aspect ratio kept.
pub struct Canvas {
    pixmap: Pixmap,
    scale: f32,
    offset: Vec2,
    height: f32,
}

impl Canvas {
    /// A canvas showing `view`, filled with a dark background.
    ///
    /// ```
    /// use collide2d::debug::{draw_shape, Canvas, Color};
    /// use collide2d::{shape::{Circle, Shape}, Aabb, Transform, Vec2};
    /// let view = Aabb::new(Vec2::splat(-2.0), Vec2::splat(2.0))?;
    /// let mut canvas = Canvas::new(64, 64, view).unwrap();
    /// let ball = Shape::from(Circle::with_radius(1.0)?);
    /// draw_shape(&mut canvas, &ball, &Transform::IDENTITY, Color::FREE);
    /// assert_ne!(canvas.pixel_at(Vec2::ZERO), canvas.pixel_at(Vec2::new(1.8, 1.8)));
    /// # Ok::<(), collide2d::ShapeError>(())
    /// ```
    pub fn new(width: u32, height: u32, view: Aabb) -> Result<Canvas, RenderError> {
        let bad_size = RenderError::BadSize { width, height };
        if width == 0 || height == 0 || width > 16_384 || height > 16_384 {
            return Err(bad_size);
        }
        let size = view.extents();
        if !view.is_valid() || size.x <= 0.0 || size.y <= 0.0 || !size.is_finite() {
            return Err(RenderError::BadView);
        }
        let mut pixmap = Pixmap::new(width, height).ok_or(bad_size)?;
        pixmap.fill(tiny_skia::Color::from_rgba8(22, 24, 30, 255));
        let scale = (width as f32 / size.x).min(height as f32 / size.y);
        // Centre the view in the image.
        let used = size * scale;
        let margin = (Vec2::new(width as f32, height as f32) - used) * 0.5;
        let offset = Vec2::new(margin.x - view.min.x * scale, margin.y - view.min.y * scale);
        Ok(Canvas {
            pixmap,
            scale,
            offset,
            height: height as f32,
        })
    }

    /// Pixels per world unit.
    pub fn scale(&self) -> f32 {
        self.scale
    }

    /// The pixel position (x right, y down) of a world point.
    pub fn to_pixel(&self, world: Vec2) -> Vec2 {
        let p = world * self.scale + self.offset;
        Vec2::new(p.x, self.height - p.y)
    }

    /// The colour of the pixel under a world point, or `None` outside the image.
    pub fn pixel_at(&self, world: Vec2) -> Option<Color> {
        let p = self.to_pixel(world);
        if p.x < 0.0 || p.y < 0.0 {
            return None;
        }
        let pixel = self.pixmap.pixel(p.x as u32, p.y as u32)?.demultiply();
        Some(Color {
            r: pixel.red(),
            g: pixel.green(),
            b: pixel.blue(),
            a: pixel.alpha(),
        })
    }

    /// Writes the picture as a PNG file.
    pub fn save_png(&self, path: impl AsRef<std::path::Path>) -> Result<(), RenderError> {
        self.pixmap
            .save_png(path)
            .map_err(|e| RenderError::Io(e.to_string()))
    }

    /// The PNG bytes of the picture.
    pub fn encode_png(&self) -> Result<Vec<u8>, RenderError> {
        self.pixmap
            .encode_png()
            .map_err(|e| RenderError::Io(e.to_string()))
    }

    fn paint(color: Color) -> Paint<'static> {
        let mut paint = Paint::default();
        paint.set_color_rgba8(color.r, color.g, color.b, color.a);
        paint.anti_alias = true;
        paint
    }

    fn stroke_path(&mut self, path: &tiny_skia::Path, color: Color, width: f32) {
        let stroke = Stroke {
            width,
            ..Stroke::default()
        };
        self.pixmap.stroke_path(
            path,
            &Canvas::paint(color),
            &stroke,
            SkiaTransform::identity(),
            None,
        );
    }

    fn fill_path(&mut self, path: &tiny_skia::Path, color: Color) {
        self.pixmap.fill_path(
            path,
            &Canvas::paint(color),
            FillRule::Winding,
            SkiaTransform::identity(),
            None,
        );
    }
}

impl DebugDraw for Canvas {
    fn polygon(&mut self, points: &[Vec2], color: Color, filled: bool) {
        let mut builder = PathBuilder::new();
        for (i, point) in points.iter().enumerate() {
            let p = self.to_pixel(*point);
            if i == 0 {
                builder.move_to(p.x, p.y);
            } else {
                builder.line_to(p.x, p.y);
            }
        }
        builder.close();
        if let Some(path) = builder.finish() {
            if filled {
                self.fill_path(&path, color.with_alpha(color.a / 2));
            }
            self.stroke_path(&path, color, 1.5);
        }
    }

    fn circle(&mut self, center: Vec2, radius: f32, color: Color, filled: bool) {
        let p = self.to_pixel(center);
        let r = (radius * self.scale).max(0.5);
        if let Some(path) = PathBuilder::from_circle(p.x, p.y, r) {
            if filled {
                self.fill_path(&path, color.with_alpha(color.a / 2));
            }
            self.stroke_path(&path, color, 1.5);
        }
    }

    fn segment(&mut self, a: Vec2, b: Vec2, color: Color) {
        let (pa, pb) = (self.to_pixel(a), self.to_pixel(b));
        let mut builder = PathBuilder::new();
        builder.move_to(pa.x, pa.y);
        builder.line_to(pb.x, pb.y);
        if let Some(path) = builder.finish() {
            self.stroke_path(&path, color, 1.5);
        }
    }

    fn point(&mut self, p: Vec2, size: f32, color: Color) {
        let q = self.to_pixel(p);
        if let Some(path) = PathBuilder::from_circle(q.x, q.y, 0.5 * size.max(1.0)) {
            self.fill_path(&path, color);
        }
    }
}
