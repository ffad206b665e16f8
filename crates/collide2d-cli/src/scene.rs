//! Scene files: the versioned JSON format (documented in `scenes/README.md`) and its checks.
//!
//! Parsing happens in two steps. serde reads the file into the plain structs below; every
//! number passes through [`Num`] (finite `f32` or an error) and every shape through
//! [`SceneShape`] (built with the library's validating constructors), so bad numbers and bad
//! shapes are reported by serde_json with their line and column. Names that refer to other parts
//! of the file (layers) are checked when the world is built, with a path such as
//! `colliders[3].layer`.

use collide2d::shape::{Capsule, Chain, Circle, Compound, Polygon, Segment, Shape};
use collide2d::Vec2;
use serde::Deserialize;
use std::path::Path;

/// The only scene format version so far.
pub const SCENE_VERSION: u32 = 1;

/// Why a scene or pair file could not be used.
#[derive(Debug)]
pub struct SceneError {
    /// What went wrong, with the file path and where in the file.
    pub message: String,
}

impl std::fmt::Display for SceneError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for SceneError {}

impl SceneError {
    /// An error about a file.
    pub fn new(path: &Path, message: impl std::fmt::Display) -> SceneError {
        SceneError {
            message: format!("{}: {message}", path.display()),
        }
    }
}

/// A finite `f32` read from JSON; anything else (too large for `f32`) is a parse error.
#[derive(Clone, Copy, Debug, Default, PartialEq, Deserialize)]
#[serde(try_from = "f64")]
pub struct Num(pub f32);

impl TryFrom<f64> for Num {
    type Error = String;
    fn try_from(value: f64) -> Result<Num, String> {
        let narrowed = value as f32;
        if narrowed.is_finite() {
            Ok(Num(narrowed))
        } else {
            Err(format!("number {value} is not a finite 32-bit float"))
        }
    }
}

/// A point or vector `[x, y]`.
pub type Point = [Num; 2];

/// A point as a library vector.
pub fn vec2(point: Point) -> Vec2 {
    Vec2::new(point[0].0, point[1].0)
}

/// The shape description as written in a file.
#[derive(Clone, Debug, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum ShapeSpec {
    /// `{"kind": "circle", "radius": r, "center": [x, y]?}`
    Circle {
        /// Radius (≥ 0).
        radius: Num,
        /// Local centre (default origin).
        #[serde(default)]
        center: Point,
    },
    /// `{"kind": "capsule", "a": [x, y], "b": [x, y], "radius": r}`
    Capsule {
        /// First end of the core segment.
        a: Point,
        /// Second end of the core segment.
        b: Point,
        /// Radius (≥ 0).
        radius: Num,
    },
    /// `{"kind": "segment", "a": [x, y], "b": [x, y]}`
    Segment {
        /// First end.
        a: Point,
        /// Second end.
        b: Point,
    },
    /// `{"kind": "box", "width": w, "height": h, "radius": r?}`: rounded when `radius > 0`.
    Box {
        /// Outer width.
        width: Num,
        /// Outer height.
        height: Num,
        /// Corner radius (default 0).
        #[serde(default)]
        radius: Num,
    },
    /// `{"kind": "polygon", "points": [[x, y], ...], "radius": r?}`: the convex hull of the points.
    Polygon {
        /// The points (any order).
        points: Vec<Point>,
        /// Rounding radius (default 0).
        #[serde(default)]
        radius: Num,
    },
    /// `{"kind": "regular", "sides": n, "radius": r}`: a regular polygon.
    Regular {
        /// Number of sides (3 to 64).
        sides: u32,
        /// Circumradius.
        radius: Num,
    },
    /// `{"kind": "concave", "points": [[x, y], ...]}`: a simple outline, split into convex pieces.
    Concave {
        /// The outline, in order.
        points: Vec<Point>,
    },
    /// `{"kind": "chain", "points": [[x, y], ...], "closed": bool?}`: one-sided level geometry
    /// colliding on the right of the direction of travel.
    Chain {
        /// The vertices, in order.
        points: Vec<Point>,
        /// Whether the last point joins back to the first (default false).
        #[serde(default)]
        closed: bool,
    },
}

impl ShapeSpec {
    /// Builds the shape with the library's validating constructors.
    pub fn build(&self) -> Result<Shape, String> {
        let points = |points: &[Point]| points.iter().copied().map(vec2).collect::<Vec<_>>();
        let result = match self {
            ShapeSpec::Circle { radius, center } => {
                Circle::new(vec2(*center), radius.0).map(Shape::from)
            }
            ShapeSpec::Capsule { a, b, radius } => {
                Capsule::new(vec2(*a), vec2(*b), radius.0).map(Shape::from)
            }
            ShapeSpec::Segment { a, b } => Segment::new(vec2(*a), vec2(*b)).map(Shape::from),
            ShapeSpec::Box {
                width,
                height,
                radius,
            } => {
                if radius.0 == 0.0 {
                    Polygon::rect(width.0, height.0).map(Shape::from)
                } else {
                    Polygon::rounded_rect(width.0, height.0, radius.0).map(Shape::from)
                }
            }
            ShapeSpec::Polygon { points: p, radius } => Polygon::hull(&points(p))
                .and_then(|polygon| {
                    if radius.0 == 0.0 {
                        Ok(polygon)
                    } else {
                        polygon.with_radius(radius.0)
                    }
                })
                .map(Shape::from),
            ShapeSpec::Regular { sides, radius } => {
                Polygon::regular(*sides as usize, radius.0).map(Shape::from)
            }
            ShapeSpec::Concave { points: p } => Compound::from_concave(&points(p)).map(Shape::from),
            ShapeSpec::Chain { points: p, closed } => if *closed {
                Chain::closed(&points(p))
            } else {
                Chain::open(&points(p))
            }
            .map(Shape::from),
        };
        result.map_err(|e| format!("bad {}: {e}", self.kind()))
    }

    /// The `kind` name.
    pub fn kind(&self) -> &'static str {
        match self {
            ShapeSpec::Circle { .. } => "circle",
            ShapeSpec::Capsule { .. } => "capsule",
            ShapeSpec::Segment { .. } => "segment",
            ShapeSpec::Box { .. } => "box",
            ShapeSpec::Polygon { .. } => "polygon",
            ShapeSpec::Regular { .. } => "regular",
            ShapeSpec::Concave { .. } => "concave",
            ShapeSpec::Chain { .. } => "chain",
        }
    }
}

/// A shape read from a file and already validated.
#[derive(Clone, Debug, Deserialize)]
#[serde(try_from = "ShapeSpec")]
pub struct SceneShape(pub Shape);

impl TryFrom<ShapeSpec> for SceneShape {
    type Error = String;
    fn try_from(spec: ShapeSpec) -> Result<SceneShape, String> {
        spec.build().map(SceneShape)
    }
}

/// How a collider moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BodyKind {
    /// Never moves.
    Static,
    /// Moves with its velocity; contacts do not affect it.
    Kinematic,
    /// Moves with its velocity; contacts push it out and reflect its velocity.
    Dynamic,
}

/// The broad phase a scene asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BroadSpec {
    /// Dynamic AABB tree.
    #[default]
    Tree,
    /// Hash grid (cell size from `grid_cell`).
    Grid,
    /// Sweep-and-prune.
    Sap,
}

/// A one-way platform setting.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OneWaySpec {
    /// Blocking side, local frame.
    pub direction: Point,
    /// How deep a shape may be and still be pushed out.
    #[serde(default)]
    pub margin: Num,
}

/// One collider written out in full.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ColliderSpec {
    /// Optional name, echoed in event output.
    #[serde(default)]
    pub name: Option<String>,
    /// The shape.
    pub shape: SceneShape,
    /// Position of the object.
    #[serde(default)]
    pub position: Point,
    /// Rotation in radians.
    #[serde(default)]
    pub angle: Num,
    /// Layer name (default `"default"`).
    #[serde(default)]
    pub layer: Option<String>,
    /// Whether it is a sensor.
    #[serde(default)]
    pub sensor: bool,
    /// Velocity, units per second.
    #[serde(default)]
    pub velocity: Point,
    /// Angular velocity, radians per second.
    #[serde(default)]
    pub angular_velocity: Num,
    /// Motion kind; default `dynamic` when it has a velocity, else `static`.
    #[serde(default)]
    pub body: Option<BodyKind>,
    /// One-way platform setting.
    #[serde(default)]
    pub one_way: Option<OneWaySpec>,
    /// Whether the world sweeps it between frames (`Collider::with_continuous`).
    #[serde(default)]
    pub continuous: bool,
}

/// A rows × cols block of copies of one shape.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GridSpec {
    /// Number of rows (y).
    pub rows: u32,
    /// Number of columns (x).
    pub cols: u32,
    /// Centre of the first copy.
    #[serde(default)]
    pub origin: Point,
    /// Distance between neighbours, x and y.
    pub spacing: Point,
    /// The shape of every copy.
    pub shape: SceneShape,
    /// Layer name.
    #[serde(default)]
    pub layer: Option<String>,
    /// Whether the copies are sensors.
    #[serde(default)]
    pub sensor: bool,
    /// Random speed range `[min, max]` in a random direction (default none).
    #[serde(default)]
    pub speed: Option<[Num; 2]>,
    /// Random offset of each copy, up to this far on each axis.
    #[serde(default)]
    pub jitter: Num,
    /// Seed of the random numbers.
    #[serde(default)]
    pub seed: u64,
    /// Motion kind; default `dynamic` when `speed` is given, else `static`.
    #[serde(default)]
    pub body: Option<BodyKind>,
}

/// Randomly placed copies of a few shapes.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScatterSpec {
    /// How many.
    pub count: u32,
    /// Seed of the random numbers.
    #[serde(default)]
    pub seed: u64,
    /// Where: `[min_x, min_y, max_x, max_y]`.
    pub area: [Num; 4],
    /// The shapes to pick from, evenly.
    pub shapes: Vec<SceneShape>,
    /// Layer name.
    #[serde(default)]
    pub layer: Option<String>,
    /// Whether they are sensors.
    #[serde(default)]
    pub sensor: bool,
    /// Random speed range `[min, max]` (default none).
    #[serde(default)]
    pub speed: Option<[Num; 2]>,
    /// Largest angular speed, radians per second (random sign and size).
    #[serde(default)]
    pub spin: Num,
    /// Motion kind; default `dynamic` when `speed` or `spin` is given, else `static`.
    #[serde(default)]
    pub body: Option<BodyKind>,
}

/// Four static walls around a box.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArenaSpec {
    /// Inner lower-left corner.
    pub min: Point,
    /// Inner upper-right corner.
    pub max: Point,
    /// Wall thickness (default 1).
    #[serde(default)]
    pub thickness: Option<Num>,
    /// Layer name.
    #[serde(default)]
    pub layer: Option<String>,
}

/// A tile map: one text row per map row, top row first.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TileSpec {
    /// World position of the lower-left corner of the bottom row.
    #[serde(default)]
    pub origin: Point,
    /// Side of a square tile.
    pub size: Num,
    /// `#` solid tile, `=` one-way platform (thin, blocks from above), anything else empty.
    pub rows: Vec<String>,
    /// Layer name.
    #[serde(default)]
    pub layer: Option<String>,
}

/// A character moved with `move_and_slide`: walks, turns at walls, falls and jumps.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CharacterSpec {
    /// Its shape (e.g. a capsule).
    pub shape: SceneShape,
    /// Start position.
    pub position: Point,
    /// Layer name.
    #[serde(default)]
    pub layer: Option<String>,
    /// Walking speed (units per second; the sign is the first direction).
    #[serde(default)]
    pub walk_speed: Num,
    /// Gravity, units per second² (e.g. `[0, -30]`).
    #[serde(default)]
    pub gravity: Point,
    /// Upward speed of a jump.
    #[serde(default)]
    pub jump_speed: Num,
    /// Jump every this many frames while on the floor (0: never).
    #[serde(default)]
    pub jump_every: u32,
}

/// Fast projectiles moved with shape casts, bouncing off what they hit.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BulletSpec {
    /// Shape of each bullet (default a circle of radius 0.05).
    #[serde(default)]
    pub shape: Option<SceneShape>,
    /// Where they start.
    pub position: Point,
    /// Velocity of the middle bullet.
    pub velocity: Point,
    /// How many, fanned out evenly over `spread` radians (default 1).
    #[serde(default)]
    pub count: Option<u32>,
    /// Fan angle in radians.
    #[serde(default)]
    pub spread: Num,
    /// How many bounces before a bullet stops (default 3).
    #[serde(default)]
    pub bounces: Option<u32>,
    /// Layer name.
    #[serde(default)]
    pub layer: Option<String>,
    /// Whether the world sweeps them between frames (`Collider::with_continuous`).
    #[serde(default)]
    pub continuous: bool,
}

/// A whole scene file.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SceneFile {
    /// Format version; must be 1.
    pub version: u32,
    /// A title.
    #[serde(default)]
    pub name: Option<String>,
    /// Broad phase (default `tree`).
    #[serde(default)]
    pub broad_phase: BroadSpec,
    /// Cell size for the `grid` broad phase (default 2).
    #[serde(default)]
    pub grid_cell: Option<Num>,
    /// Seconds per frame (default 1/60).
    #[serde(default)]
    pub dt: Option<Num>,
    /// Frames to run when the command line does not say (default 120).
    #[serde(default)]
    pub frames: Option<u32>,
    /// Part of the world to draw, `[min_x, min_y, max_x, max_y]` (default: everything).
    #[serde(default)]
    pub view: Option<[Num; 4]>,
    /// Layer names, in addition to `"default"`.
    #[serde(default)]
    pub layers: Vec<String>,
    /// Layer pairs that do not collide.
    #[serde(default)]
    pub ignore: Vec<[String; 2]>,
    /// Walls around a box.
    #[serde(default)]
    pub arena: Option<ArenaSpec>,
    /// A tile map.
    #[serde(default)]
    pub tiles: Option<TileSpec>,
    /// Colliders written out one by one.
    #[serde(default)]
    pub colliders: Vec<ColliderSpec>,
    /// Blocks of copies.
    #[serde(default)]
    pub grids: Vec<GridSpec>,
    /// Random scatters.
    #[serde(default)]
    pub scatter: Vec<ScatterSpec>,
    /// A character using `move_and_slide`.
    #[serde(default)]
    pub character: Option<CharacterSpec>,
    /// Bullets using shape casts.
    #[serde(default)]
    pub bullets: Vec<BulletSpec>,
}

/// Just the version, read before the rest so an old or new file gets a clear message.
#[derive(Deserialize)]
struct VersionOnly {
    version: Option<serde_json::Value>,
}

/// Parses scene text; `path` is only used in messages.
pub fn parse_scene(path: &Path, text: &str) -> Result<SceneFile, SceneError> {
    check_version(path, text)?;
    serde_json::from_str(text).map_err(|e| SceneError::new(path, describe_json_error(&e, text)))
}

/// Reads and parses a scene file.
pub fn load_scene(path: &Path) -> Result<SceneFile, SceneError> {
    let text = read_text(path)?;
    parse_scene(path, &text)
}

/// Reads a file as UTF-8 text, with a clear message when that fails.
pub fn read_text(path: &Path) -> Result<String, SceneError> {
    std::fs::read_to_string(path).map_err(|e| SceneError::new(path, format!("cannot read: {e}")))
}

/// Checks `"version": 1` (reporting syntax errors along the way).
pub fn check_version(path: &Path, text: &str) -> Result<(), SceneError> {
    if text.trim().is_empty() {
        let what = if text.is_empty() {
            "the file is empty"
        } else {
            "the file holds only white space"
        };
        return Err(SceneError::new(
            path,
            format!("{what}; expected one JSON object with \"version\": {SCENE_VERSION}"),
        ));
    }
    let header: VersionOnly = serde_json::from_str(text).map_err(|e| {
        let message = match e.classify() {
            serde_json::error::Category::Data => format!(
                "invalid scene: expected one JSON object with \"version\": {SCENE_VERSION} at line {} column {}",
                e.line(),
                e.column()
            ),
            _ => describe_json_error(&e, text),
        };
        SceneError::new(path, message)
    })?;
    match header.version {
        None => Err(SceneError::new(
            path,
            format!("missing \"version\" (this program reads version {SCENE_VERSION})"),
        )),
        Some(serde_json::Value::Number(n)) if n.as_u64() == Some(u64::from(SCENE_VERSION)) => {
            Ok(())
        }
        Some(other) => Err(SceneError::new(
            path,
            format!("unsupported version {other} (this program reads version {SCENE_VERSION})"),
        )),
    }
}

/// serde_json's message, which already ends with "at line L column C"; a syntax error in a
/// `text` that spells NaN or Infinity gets a hint that JSON has neither.
pub fn describe_json_error(error: &serde_json::Error, text: &str) -> String {
    use serde_json::error::Category;
    match error.classify() {
        Category::Syntax if text.contains("NaN") || text.contains("Infinity") => {
            format!("invalid JSON: {error} (numbers must be finite: JSON has no NaN or Infinity)")
        }
        Category::Syntax => format!("invalid JSON: {error}"),
        Category::Eof => format!("invalid JSON: the file ends too early ({error})"),
        Category::Data => format!("invalid scene: {error}"),
        Category::Io => format!("cannot read: {error}"),
    }
}

impl SceneFile {
    /// The layer name of an optional field, `"default"` when absent.
    pub fn layer_name(layer: &Option<String>) -> &str {
        layer.as_deref().unwrap_or("default")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<SceneFile, SceneError> {
        parse_scene(Path::new("test.json"), text)
    }

    #[test]
    fn a_minimal_scene_parses() {
        let scene =
            parse(r#"{"version": 1, "colliders": [{"shape": {"kind": "circle", "radius": 1}}]}"#)
                .unwrap();
        assert_eq!(scene.colliders.len(), 1);
    }

    #[test]
    fn chains_parse_and_bad_ones_are_refused() {
        let floor = r#"{"version": 1, "colliders": [{"shape": {"kind": "chain",
            "points": [[10, 0], [0, 0], [-10, 0]]}}]}"#;
        let scene = parse(floor).unwrap();
        assert!(matches!(
            scene.colliders[0].shape.0,
            collide2d::Shape::Chain(ref c) if c.segment_count() == 2 && !c.is_closed()
        ));
        let repeated = r#"{"version": 1, "colliders": [{"shape": {"kind": "chain",
            "points": [[0, 0], [0, 0], [1, 0]]}}]}"#;
        let error = parse(repeated).unwrap_err().message;
        assert!(error.contains("bad chain"), "{error}");
    }

    #[test]
    fn errors_name_the_file_and_position() {
        let error = parse("{\"version\": 1,\n \"colliders\": [{\"shape\": {\"kind\": \"blob\"}}]}")
            .unwrap_err()
            .message;
        assert!(error.starts_with("test.json: "), "{error}");
        assert!(error.contains("unknown variant `blob`"), "{error}");
        assert!(error.contains("line 2"), "{error}");
    }

    #[test]
    fn negative_radius_and_huge_numbers_are_errors() {
        let negative =
            parse(r#"{"version": 1, "colliders": [{"shape": {"kind": "circle", "radius": -1}}]}"#)
                .unwrap_err()
                .message;
        assert!(negative.contains("radius -1 is negative"), "{negative}");
        let huge = parse(
            r#"{"version": 1, "colliders": [{"shape": {"kind": "circle", "radius": 1e300}}]}"#,
        )
        .unwrap_err()
        .message;
        assert!(huge.contains("not a finite"), "{huge}");
    }

    #[test]
    fn wrong_versions_are_refused() {
        assert!(parse(r#"{"version": 2}"#)
            .unwrap_err()
            .message
            .contains("unsupported version 2"));
        assert!(parse(r#"{}"#).unwrap_err().message.contains("missing"));
        let array = parse("[]").unwrap_err().message;
        assert!(array.contains("expected one JSON object"), "{array}");
    }
}
