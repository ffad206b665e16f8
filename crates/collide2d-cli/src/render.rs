//! Pictures of a world: colliders coloured by state, contacts, optional boxes, and a legend.

use crate::font::{draw_text, fill_rect, text_width};
use collide2d::debug::{
    draw_aabb, draw_manifold, draw_shape, Canvas, Color, DebugDraw, RenderError,
};
use collide2d::shape::Aabb;
use collide2d::world::{BroadPhaseKind, World};
use collide2d::Vec2;

/// What to draw besides the colliders.
#[derive(Clone, Debug, Default)]
pub struct RenderOptions {
    /// Image width in pixels.
    pub width: u32,
    /// Image height in pixels.
    pub height: u32,
    /// The world region to show (default: every collider).
    pub view: Option<Aabb>,
    /// Draw each collider's bounding box.
    pub aabbs: bool,
    /// Draw the broad phase: its stored boxes, grid cells (hash grid) and candidate pairs.
    pub broad: bool,
    /// A title line for the legend (empty: no legend).
    pub title: String,
}

/// Text height of the legend, in image pixels per font pixel.
const LEGEND_TEXT: f32 = 2.0;

/// Height of the legend strip in image pixels.
fn legend_height(options: &RenderOptions) -> f32 {
    if options.title.is_empty() {
        0.0
    } else {
        7.0 * LEGEND_TEXT + 20.0
    }
}

/// Draws the world as of its last update.
///
/// Sensors are [`Color::SENSOR`]; other colliders [`Color::OVERLAPPING`] while they touch
/// something (solid or sensor) and [`Color::FREE`] otherwise. Contact points and normals are
/// drawn on top. When `options.title` is set, a legend strip is added at the top.
pub fn render_world(world: &World, options: &RenderOptions) -> Result<Canvas, RenderError> {
    let bounds = options
        .view
        .or_else(|| {
            world
                .iter()
                .map(|(_, c)| c.aabb())
                .reduce(|a, b| a.union(&b))
                .map(|b| b.expanded(0.05 * b.extents().max_element().max(1.0)))
        })
        .unwrap_or(Aabb {
            min: Vec2::splat(-10.0),
            max: Vec2::splat(10.0),
        });
    // Room for the legend: grow the view upwards by the legend's share of the image.
    let legend = legend_height(options);
    let view = if legend > 0.0 && options.height as f32 > legend * 2.0 {
        let share = legend / (options.height as f32 - legend);
        let fit = fitted(bounds, options.width, options.height as f32 - legend);
        Aabb {
            min: fit.min,
            max: Vec2::new(fit.max.x, fit.max.y + fit.extents().y * share),
        }
    } else {
        bounds
    };
    let mut canvas = Canvas::new(options.width, options.height, view)?;

    let slots = world
        .iter()
        .map(|(h, _)| h.index() as usize + 1)
        .max()
        .unwrap_or(0);
    let mut touching = vec![false; slots];
    for (a, b, _) in world.contacts() {
        touching[a.index() as usize] = true;
        touching[b.index() as usize] = true;
    }
    for (handle, collider) in world.iter() {
        if !collider.is_enabled() {
            continue;
        }
        let color = if collider.is_sensor() {
            Color::SENSOR
        } else if touching[handle.index() as usize] {
            Color::OVERLAPPING
        } else {
            Color::FREE
        };
        draw_shape(
            &mut canvas,
            collider.shape(),
            &collider.world_transform(),
            color,
        );
    }
    if options.aabbs {
        for (_, collider) in world.iter().filter(|(_, c)| c.is_enabled()) {
            draw_aabb(&mut canvas, &collider.aabb(), Color::BOUNDS.with_alpha(200));
        }
    }
    if options.broad {
        draw_broad_phase(&mut canvas, world, view);
    }
    let normal_length = 12.0 / canvas.scale();
    for (_, _, manifold) in world.contacts() {
        if let Some(manifold) = manifold {
            draw_manifold(&mut canvas, manifold, normal_length);
        }
    }
    if legend > 0.0 {
        draw_legend(&mut canvas, &options.title);
    }
    Ok(canvas)
}

/// The broad phase as it sees the world: the tree's nodes (fat boxes, fainter the higher they
/// are), the grid cells of a hash grid, every box it stores, and a line between the box centres
/// of every candidate pair it reports.
fn draw_broad_phase(canvas: &mut Canvas, world: &World, view: Aabb) {
    let broad = world.broad_phase();
    broad.for_each_structure_box(&mut |aabb, level| {
        if aabb.overlaps(&view) {
            let alpha = (200u32 / (1 + level)).max(25) as u8;
            let color = if level == 0 {
                Color::SENSOR
            } else {
                Color::CONTACT
            };
            draw_aabb(canvas, &aabb, color.with_alpha(alpha));
        }
    });
    if let BroadPhaseKind::Grid { cell_size } = world.broad_phase_kind() {
        let cells = view.extents() / cell_size;
        if cells.x.max(cells.y) <= 400.0 {
            let grid_color = Color::BOUNDS.with_alpha(60);
            let mut x = (view.min.x / cell_size).floor() * cell_size;
            while x <= view.max.x {
                canvas.segment(
                    Vec2::new(x, view.min.y),
                    Vec2::new(x, view.max.y),
                    grid_color,
                );
                x += cell_size;
            }
            let mut y = (view.min.y / cell_size).floor() * cell_size;
            while y <= view.max.y {
                canvas.segment(
                    Vec2::new(view.min.x, y),
                    Vec2::new(view.max.x, y),
                    grid_color,
                );
                y += cell_size;
            }
        }
    }
    broad.query_aabb(view, &mut |id, _| {
        if let Ok(aabb) = broad.get_aabb(id) {
            draw_aabb(canvas, &aabb, Color::BOUNDS);
        }
        true
    });
    for pair in broad.current_pairs() {
        if let (Ok(a), Ok(b)) = (broad.get_aabb(pair.lower()), broad.get_aabb(pair.higher())) {
            canvas.segment(a.center(), b.center(), Color::BOUNDS.with_alpha(160));
        }
    }
}

/// `bounds` grown on one axis so it has the aspect ratio of a `width × height` image.
fn fitted(bounds: Aabb, width: u32, height: f32) -> Aabb {
    let size = bounds.extents();
    let aspect = width as f32 / height.max(1.0);
    let (w, h) = if size.x / size.y > aspect {
        (size.x, size.x / aspect)
    } else {
        (size.y * aspect, size.y)
    };
    Aabb::from_center(bounds.center(), Vec2::new(w, h) * 0.5)
}

/// The legend entries: colour and label.
pub const LEGEND: [(Color, &str); 5] = [
    (Color::FREE, "free"),
    (Color::OVERLAPPING, "touching"),
    (Color::SENSOR, "sensor"),
    (Color::CONTACT, "contact point"),
    (Color::NORMAL, "normal"),
];

/// The legend as one printable line.
pub fn legend_line() -> String {
    let entries: Vec<String> = LEGEND
        .iter()
        .map(|(c, label)| format!("{label} = rgb({}, {}, {})", c.r, c.g, c.b))
        .collect();
    format!("legend: {}", entries.join(", "))
}

fn draw_legend(canvas: &mut Canvas, title: &str) {
    let top = 10.0;
    let mut x = 12.0;
    draw_text(canvas, title, Vec2::new(x, top), LEGEND_TEXT, Color::NORMAL);
    x += text_width(title, LEGEND_TEXT) + 30.0;
    let swatch = 7.0 * LEGEND_TEXT;
    for (color, label) in LEGEND {
        fill_rect(canvas, Vec2::new(x, top), Vec2::splat(swatch), color);
        x += swatch + 8.0;
        draw_text(canvas, label, Vec2::new(x, top), LEGEND_TEXT, Color::NORMAL);
        x += text_width(label, LEGEND_TEXT) + 24.0;
    }
}
