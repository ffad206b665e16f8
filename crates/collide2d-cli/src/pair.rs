//! `collide2d query`: every narrow-phase answer for two placed shapes read from a pair file.

use crate::run::{f32_value, vec2_value};
use crate::scene::{check_version, describe_json_error, vec2, Num, Point, SceneError, SceneShape};
use collide2d::query::{collide, distance, overlaps, shape_cast, CastOptions, Sweep};
use collide2d::Transform;
use serde::Deserialize;
use serde_json::{json, Value};
use std::path::Path;

/// One shape of a pair file, placed and optionally moving.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlacedSpec {
    /// The shape.
    pub shape: SceneShape,
    /// Position.
    #[serde(default)]
    pub position: Point,
    /// Rotation in radians.
    #[serde(default)]
    pub angle: Num,
    /// Displacement over the cast (default none).
    #[serde(default)]
    pub motion: Point,
    /// Rotation over the cast in radians (default none).
    #[serde(default)]
    pub turn: Num,
}

/// A pair file: `{"version": 1, "a": {...}, "b": {...}}`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PairFile {
    /// Format version; must be 1.
    pub version: u32,
    /// The first shape.
    pub a: PlacedSpec,
    /// The second shape.
    pub b: PlacedSpec,
}

/// Reads and checks a pair file.
pub fn load_pair(path: &Path) -> Result<PairFile, SceneError> {
    let text = crate::scene::read_text(path)?;
    check_version(path, &text)?;
    serde_json::from_str(&text).map_err(|e| SceneError::new(path, describe_json_error(&e, &text)))
}

fn transform(spec: &PlacedSpec) -> Transform {
    Transform::new(vec2(spec.position), spec.angle.0)
}

/// Every answer as JSON: overlap, manifold, distance and cast.
pub fn answer(pair: &PairFile) -> Value {
    let (xa, xb) = (transform(&pair.a), transform(&pair.b));
    let (a, b) = (&pair.a.shape.0, &pair.b.shape.0);
    let manifold = collide(a, &xa, b, &xb);
    let gap = distance(a, &xa, b, &xb);
    let sweep_a = Sweep::spinning(&xa, vec2(pair.a.motion), pair.a.turn.0);
    let sweep_b = Sweep::spinning(&xb, vec2(pair.b.motion), pair.b.turn.0);
    let hit = shape_cast(a, &sweep_a, b, &sweep_b, CastOptions::default());
    json!({
        "overlap": overlaps(a, &xa, b, &xb),
        "manifold": if manifold.is_empty() { Value::Null } else { json!({
            "normal": vec2_value(manifold.normal),
            "points": manifold.points().iter().map(|p| json!({
                "point": vec2_value(p.point),
                "penetration": f32_value(p.penetration),
            })).collect::<Vec<_>>(),
        })},
        "distance": {
            "distance": f32_value(gap.distance),
            "point_a": vec2_value(gap.point_a),
            "point_b": vec2_value(gap.point_b),
            "normal": vec2_value(gap.normal),
        },
        "cast": match hit {
            None => Value::Null,
            Some(hit) => json!({
                "t": f32_value(hit.t),
                "point": vec2_value(hit.point),
                "normal": vec2_value(hit.normal),
                "converged": hit.converged,
            }),
        },
    })
}

/// The answers as readable text.
pub fn describe(pair: &PairFile) -> String {
    let answer = answer(pair);
    let mut out = String::new();
    let pair_text = |v: &Value| {
        let x = v[0].as_f64().unwrap_or(f64::NAN);
        let y = v[1].as_f64().unwrap_or(f64::NAN);
        format!("({x:.4}, {y:.4})")
    };
    out.push_str(&format!(
        "a: {}  b: {}\n",
        shape_kind(&pair.a.shape.0),
        shape_kind(&pair.b.shape.0)
    ));
    out.push_str(&format!("overlap:   {}\n", answer["overlap"]));
    match &answer["manifold"] {
        Value::Null => out.push_str("manifold:  none\n"),
        manifold => {
            out.push_str(&format!(
                "manifold:  normal {}\n",
                pair_text(&manifold["normal"])
            ));
            for point in manifold["points"].as_array().into_iter().flatten() {
                out.push_str(&format!(
                    "           point {} penetration {:.4}\n",
                    pair_text(&point["point"]),
                    point["penetration"].as_f64().unwrap_or(f64::NAN)
                ));
            }
        }
    }
    let gap = &answer["distance"];
    out.push_str(&format!(
        "distance:  {:.4} from {} to {}, normal {}\n",
        gap["distance"].as_f64().unwrap_or(f64::NAN),
        pair_text(&gap["point_a"]),
        pair_text(&gap["point_b"]),
        pair_text(&gap["normal"])
    ));
    match &answer["cast"] {
        Value::Null => out.push_str("cast:      no hit\n"),
        hit => out.push_str(&format!(
            "cast:      hit at t = {:.4}, point {}, normal {}{}\n",
            hit["t"].as_f64().unwrap_or(f64::NAN),
            pair_text(&hit["point"]),
            pair_text(&hit["normal"]),
            if hit["converged"] == Value::Bool(true) {
                ""
            } else {
                " (not converged)"
            }
        )),
    }
    out
}

fn shape_kind(shape: &collide2d::Shape) -> &'static str {
    match shape {
        collide2d::Shape::Circle(_) => "circle",
        collide2d::Shape::Capsule(_) => "capsule",
        collide2d::Shape::Segment(_) => "segment",
        collide2d::Shape::Polygon(_) => "polygon",
        collide2d::Shape::Compound(_) => "compound",
        collide2d::Shape::Chain(_) => "chain",
    }
}
