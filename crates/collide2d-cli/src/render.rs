//! Pictures of a world: colliders coloured by state, contacts, optional boxes, and a legend.

use crate::font::{draw_text, fill_rect, pixel_to_world, text_width};
use crate::progress::Progress;
use crate::trails::{Trails, HIT_FRAMES};
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
    /// The title shown above the legend.
    pub title: String,
}

/// Colliders whose bounding box is smaller than this many pixels on screen are not outlined:
/// they are added to a density tint instead, and their contact points and normals are not
/// drawn (at that size they would hide the shapes under solid noise).
pub const DETAIL_PIXELS: f32 = 3.0;

/// How much more a touching collider counts than a free one in the density tint's colour.
pub const TOUCHING_WEIGHT: u32 = 4;

/// Side in pixels of a cell of the density tint.
const DENSITY_CELL: f32 = 2.0;

/// Colour of bullets and their trails.
pub const BULLET: Color = Color::rgb(255, 150, 30);

/// Colour of hit markers.
pub const HIT: Color = Color::rgb(255, 70, 210);

/// Drawn on top of the world besides what [`RenderOptions`] asks for.
#[derive(Default)]
pub struct Extras<'a> {
    /// Bullet trails and hit markers.
    pub trails: Option<&'a Trails>,
    /// Progress of the drawing, counted in colliders.
    pub progress: Option<&'a Progress>,
}

/// What a finished picture held, for the command's report.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RenderSummary {
    /// The world box shown.
    pub view: Option<Aabb>,
    /// Colliders drawn as outlines.
    pub outlined: usize,
    /// Colliders too small to outline, drawn as the density tint.
    pub tinted: usize,
}

/// Font pixel size of the legend for a picture `width` pixels wide.
fn legend_text_size(width: u32) -> f32 {
    if width >= 1100 {
        2.0
    } else {
        1.0
    }
}

/// Height of the legend strip (title row and entry row) in image pixels.
fn legend_height(width: u32) -> f32 {
    let size = legend_text_size(width);
    2.0 * 7.0 * size + 3.0 * 5.0 * size
}

/// Draws the world as of its last update.
///
/// Sensors are [`Color::SENSOR`]; other colliders [`Color::OVERLAPPING`] while they touch
/// something (solid or sensor) and [`Color::FREE`] otherwise. Contact points and normals are
/// drawn on top. A strip at the top holds the title and the legend.
pub fn render_world(world: &World, options: &RenderOptions) -> Result<Canvas, RenderError> {
    render_world_with(world, options, &Extras::default()).map(|(canvas, _)| canvas)
}

/// [`render_world`] with bullet trails and progress, also saying what was drawn.
///
/// Level of detail: a collider under [`DETAIL_PIXELS`] on screen adds to a density tint (cells
/// of a few pixels, coloured by the mix of free, touching and sensor colliders in them and
/// brighter where they are denser) instead of being outlined; contacts are drawn only between
/// outlined colliders.
pub fn render_world_with(
    world: &World,
    options: &RenderOptions,
    extras: &Extras<'_>,
) -> Result<(Canvas, RenderSummary), RenderError> {
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
    let legend = legend_height(options.width);
    let view = if options.height as f32 > legend * 2.0 {
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
    let scale = canvas.scale();

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
    let mut outlined = vec![false; slots];
    // Bullets with a trail are drawn with it, as dots of a few pixels.
    let mut bullet = vec![false; slots];
    for handle in extras.trails.iter().flat_map(|trails| trails.bullets()) {
        if let Some(flag) = bullet.get_mut(handle.index() as usize) {
            *flag = true;
        }
    }
    let mut density = Density::new(options.width, options.height);
    let mut summary = RenderSummary {
        view: Some(bounds),
        ..RenderSummary::default()
    };
    for (count, (handle, collider)) in world.iter().enumerate() {
        if let Some(progress) = extras.progress {
            if count % (1 << 16) == 0 {
                progress.set(count as u64);
            }
        }
        if !collider.is_enabled() {
            continue;
        }
        let aabb = collider.aabb();
        if !aabb.overlaps(&view) {
            continue;
        }
        let color = if collider.is_sensor() {
            Color::SENSOR
        } else if touching[handle.index() as usize] {
            Color::OVERLAPPING
        } else {
            Color::FREE
        };
        if bullet[handle.index() as usize] {
            continue;
        }
        if aabb.extents().max_element() * scale < DETAIL_PIXELS {
            density.add(canvas.to_pixel(aabb.center()), color);
            summary.tinted += 1;
            continue;
        }
        outlined[handle.index() as usize] = true;
        summary.outlined += 1;
        draw_shape(
            &mut canvas,
            collider.shape(),
            &collider.world_transform(),
            color,
        );
    }
    density.draw(&mut canvas);
    if options.aabbs {
        for (_, collider) in world.iter().filter(|(_, c)| c.is_enabled()) {
            draw_aabb(&mut canvas, &collider.aabb(), Color::BOUNDS.with_alpha(200));
        }
    }
    if options.broad {
        draw_broad_phase(&mut canvas, world, view);
    }
    let normal_length = 12.0 / scale;
    for (a, b, manifold) in world.contacts() {
        let shown = outlined[a.index() as usize] && outlined[b.index() as usize];
        if let (true, Some(manifold)) = (shown, manifold) {
            draw_manifold(&mut canvas, manifold, normal_length);
        }
    }
    if let Some(trails) = extras.trails {
        draw_trails(&mut canvas, trails);
    }
    if let Some(progress) = extras.progress {
        progress.set(world.len() as u64);
    }
    let note = if summary.tinted > 0 {
        format!("(under {DETAIL_PIXELS} px: density, no contact marks)")
    } else {
        String::new()
    };
    draw_legend(&mut canvas, options.width, &options.title, &note);
    Ok((canvas, summary))
}

/// Colliders too small to outline, counted per cell by colour.
struct Density {
    columns: usize,
    rows: usize,
    /// Free, touching and sensor counts per cell.
    counts: Vec<[u32; 3]>,
}

impl Density {
    fn new(width: u32, height: u32) -> Density {
        let columns = (width as f32 / DENSITY_CELL).ceil() as usize;
        let rows = (height as f32 / DENSITY_CELL).ceil() as usize;
        Density {
            columns,
            rows,
            counts: vec![[0; 3]; columns * rows],
        }
    }

    fn add(&mut self, pixel: Vec2, color: Color) {
        if pixel.x < 0.0 || pixel.y < 0.0 {
            return;
        }
        let (column, row) = (
            (pixel.x / DENSITY_CELL) as usize,
            (pixel.y / DENSITY_CELL) as usize,
        );
        if column >= self.columns || row >= self.rows {
            return;
        }
        let kind = if color == Color::SENSOR {
            2
        } else if color == Color::OVERLAPPING {
            1
        } else {
            0
        };
        self.counts[row * self.columns + column][kind] += 1;
    }

    /// One dot per non-empty cell: the mix of its colours, touching colliders weighing
    /// [`TOUCHING_WEIGHT`] times as much so that rare contacts stay visible, and more opaque
    /// where the cell is denser (relative to the densest cell). Mix and opacity are rounded to
    /// a few steps: the picture reads as regions, and compresses well.
    fn draw(&self, canvas: &mut Canvas) {
        let densest = self
            .counts
            .iter()
            .map(|c| c.iter().sum::<u32>())
            .max()
            .unwrap_or(0);
        if densest == 0 {
            return;
        }
        let colors = [Color::FREE, Color::OVERLAPPING, Color::SENSOR];
        let weights = [1, TOUCHING_WEIGHT, 1];
        for (index, cell) in self.counts.iter().enumerate() {
            let total: u32 = cell.iter().sum();
            if total == 0 {
                continue;
            }
            let weighted: [u32; 3] = std::array::from_fn(|k| cell[k] * weights[k]);
            let weight_sum: u32 = weighted.iter().sum();
            // Shares in eighths, so neighbouring cells of similar mix get the same colour.
            let shares: [u32; 3] =
                std::array::from_fn(|k| (8 * weighted[k] + weight_sum / 2) / weight_sum);
            let share_sum = shares.iter().sum::<u32>().max(1);
            let mix = |channel: fn(&Color) -> u8| {
                let sum: u32 = shares
                    .iter()
                    .zip(&colors)
                    .map(|(&n, c)| n * u32::from(channel(c)))
                    .sum();
                (sum / share_sum) as u8
            };
            let level = (4 * total).div_ceil(densest).min(4);
            let alpha = (95 + 40 * level) as u8;
            let color = Color::rgb(mix(|c| c.r), mix(|c| c.g), mix(|c| c.b)).with_alpha(alpha);
            let (column, row) = (index % self.columns, index / self.columns);
            let center = Vec2::new(
                (column as f32 + 0.5) * DENSITY_CELL,
                (row as f32 + 0.5) * DENSITY_CELL,
            );
            canvas.point(
                pixel_to_world(canvas, center),
                DENSITY_CELL * std::f32::consts::SQRT_2,
                color,
            );
        }
    }
}

/// Bullet trails (fading towards the oldest position), a dot of a few pixels on each bullet,
/// and a ring with the surface normal at each recent hit (fading with age).
fn draw_trails(canvas: &mut Canvas, trails: &Trails) {
    let scale = canvas.scale();
    for path in trails.paths() {
        let count = path.len();
        for (index, pair) in path.iter().zip(path.iter().skip(1)).enumerate() {
            let alpha = (255 * (index + 2) / count.max(2)).min(255) as u8;
            canvas.segment(*pair.0, *pair.1, BULLET.with_alpha(alpha));
        }
        if let Some(head) = path.back() {
            canvas.point(*head, 6.0, BULLET);
        }
    }
    for (hit, age) in trails.hits() {
        let fade = 1.0 - age as f32 / HIT_FRAMES as f32;
        let alpha = (120.0 + 135.0 * fade) as u8;
        let radius = 6.0 / scale;
        canvas.circle(hit.point, radius, HIT.with_alpha(alpha), false);
        canvas.segment(
            hit.point,
            hit.point + hit.normal * (2.0 * radius),
            HIT.with_alpha(alpha),
        );
    }
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
    broad.overlap_aabb_each(view, &mut |id, _| {
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

/// The legend entries: colour and label (the same on every picture).
pub const LEGEND: [(Color, &str); 7] = [
    (Color::FREE, "free"),
    (Color::OVERLAPPING, "touching"),
    (Color::SENSOR, "sensor"),
    (Color::CONTACT, "contact point"),
    (Color::NORMAL, "normal"),
    (BULLET, "bullet + trail"),
    (HIT, "hit"),
];

/// The legend as one printable line.
pub fn legend_line() -> String {
    let entries: Vec<String> = LEGEND
        .iter()
        .map(|(c, label)| format!("{label} = rgb({}, {}, {})", c.r, c.g, c.b))
        .collect();
    format!("legend: {}", entries.join(", "))
}

/// The title (and a note) on the first row, the colour entries on the second.
fn draw_legend(canvas: &mut Canvas, width: u32, title: &str, note: &str) {
    let size = legend_text_size(width);
    // The strip's own background: opaque rows over whatever the world put there.
    let background = Color::rgb(22, 24, 30);
    let mut row = 0.0;
    while row <= legend_height(width) {
        let left = pixel_to_world(canvas, Vec2::new(0.0, row));
        let right = pixel_to_world(canvas, Vec2::new(width as f32, row));
        canvas.segment(left, right, background);
        row += 0.5;
    }
    let gap = 5.0 * size;
    let mut top = gap;
    let mut x = 2.0 * gap;
    draw_text(canvas, title, Vec2::new(x, top), size, Color::NORMAL);
    if !note.is_empty() {
        x += text_width(title, size) + 4.0 * size;
        draw_text(canvas, note, Vec2::new(x, top), size, Color::BOUNDS);
    }
    top += 7.0 * size + gap;
    x = 2.0 * gap;
    let swatch = 7.0 * size;
    for (color, label) in LEGEND {
        fill_rect(canvas, Vec2::new(x, top), Vec2::splat(swatch), color);
        x += swatch + 4.0 * size;
        draw_text(canvas, label, Vec2::new(x, top), size, Color::NORMAL);
        x += text_width(label, size) + 10.0 * size;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use collide2d::shape::{Circle, Shape};
    use collide2d::world::Collider;
    use collide2d::Transform;

    /// A 100 × 100 block of touching pairs of small circles, 1 unit apart.
    fn crowd() -> World {
        let mut world = World::new();
        let ball = Shape::from(Circle::with_radius(0.3).unwrap());
        for row in 0..100 {
            for column in 0..50 {
                let left = Vec2::new(column as f32 * 2.0, row as f32);
                for x in [0.0, 0.5] {
                    let xf = Transform::from_translation(left + Vec2::new(x, 0.0));
                    world
                        .insert(Collider::new(ball.clone()).with_transform(xf))
                        .unwrap();
                }
            }
        }
        world.update();
        world
    }

    fn options(view: Aabb) -> RenderOptions {
        RenderOptions {
            width: 300,
            height: 200,
            view: Some(view),
            title: "crowd".into(),
            ..RenderOptions::default()
        }
    }

    fn count_color(canvas: &Canvas, view: Aabb, color: Color) -> usize {
        let mut count = 0;
        for i in 0..200 {
            for j in 0..200 {
                let at = view.min + view.extents() * Vec2::new(i as f32, j as f32) / 200.0;
                if canvas
                    .pixel_at(at)
                    .is_some_and(|p| (p.r, p.g, p.b) == (color.r, color.g, color.b))
                {
                    count += 1;
                }
            }
        }
        count
    }

    #[test]
    fn shapes_under_a_few_pixels_become_a_density_tint_without_contact_marks() {
        let world = crowd();
        let far = Aabb::new(Vec2::new(-1.0, -1.0), Vec2::new(101.0, 101.0)).unwrap();
        let (canvas, summary) =
            render_world_with(&world, &options(far), &Extras::default()).unwrap();
        assert_eq!((summary.outlined, summary.tinted), (0, 10_000));
        assert_eq!(
            count_color(&canvas, far, Color::CONTACT),
            0,
            "no contact dots"
        );
        // Every collider touches one: the tint is touching-red, not free-green.
        let middle = canvas.pixel_at(Vec2::new(50.0, 50.0)).unwrap();
        assert!(middle.r > middle.g, "{middle:?}");
    }

    #[test]
    fn zoomed_in_shapes_are_outlined_with_their_contacts() {
        let world = crowd();
        let near = Aabb::new(Vec2::new(10.0, 10.0), Vec2::new(16.0, 14.0)).unwrap();
        let (canvas, summary) =
            render_world_with(&world, &options(near), &Extras::default()).unwrap();
        assert_eq!(summary.tinted, 0);
        assert!(
            summary.outlined >= 12 && summary.outlined < 100,
            "{summary:?}"
        );
        assert!(
            count_color(&canvas, near, Color::CONTACT) > 0,
            "contact dots drawn"
        );
    }
}
