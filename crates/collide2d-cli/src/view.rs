//! Which part of the world a picture shows: `--view x0,y0,x1,y1`, or `--follow NAME` to keep a
//! named collider (the scene's character is named `character`) in the middle of every picture.
//!
//! A followed view has the size of `--view` when given, else [`FOLLOW_WIDTH`] world units wide
//! with the picture's aspect ratio; it is centred on the collider's bounding box each time a
//! picture is drawn, so a GIF tracks it frame by frame.

use crate::error::CliError;
use crate::sim::Sim;
use collide2d::shape::Aabb;
use collide2d::world::ColliderHandle;
use collide2d::Vec2;

/// Width in world units of a followed view when `--view` does not give one.
pub const FOLLOW_WIDTH: f32 = 24.0;

/// Parses `x0,y0,x1,y1` (the view box's lower-left and upper-right corners).
pub fn parse_view(text: &str) -> Result<Aabb, String> {
    let numbers: Vec<&str> = text.split(',').map(str::trim).collect();
    if numbers.len() != 4 {
        return Err(format!(
            "expected four numbers x0,y0,x1,y1 separated by commas, found {}",
            numbers.len()
        ));
    }
    let mut values = [0.0f32; 4];
    for (value, number) in values.iter_mut().zip(&numbers) {
        *value = number
            .parse::<f32>()
            .ok()
            .filter(|v| v.is_finite())
            .ok_or_else(|| format!("`{number}` is not a finite number"))?;
    }
    let [x0, y0, x1, y1] = values;
    if x1 <= x0 || y1 <= y0 {
        return Err(format!(
            "x0 < x1 and y0 < y1 are needed (the corners are lower-left then upper-right), found {x0},{y0},{x1},{y1}"
        ));
    }
    Aabb::new(Vec2::new(x0, y0), Vec2::new(x1, y1))
        .map_err(|e| e.to_string())
        .and_then(|view| {
            let size = view.extents();
            if size.x.is_finite() && size.y.is_finite() {
                Ok(view)
            } else {
                Err("the view is too large for 32-bit floats".into())
            }
        })
}

/// The collider named `name`, or an error listing a few names there are.
pub fn find_named(sim: &Sim, name: &str) -> Result<ColliderHandle, CliError> {
    if let Some((handle, _)) = sim.world.iter().find(|(h, _)| sim.name(*h) == name) {
        return Ok(handle);
    }
    let mut names: Vec<&str> = Vec::new();
    for (handle, _) in sim.world.iter() {
        let candidate = sim.name(handle);
        if !candidate.is_empty() && !names.contains(&candidate) {
            names.push(candidate);
            if names.len() == 8 {
                break;
            }
        }
    }
    let known = if names.is_empty() {
        "the scene names no collider".to_string()
    } else {
        format!("names in the scene include: {}", names.join(", "))
    };
    Err(CliError::Argument(format!(
        "--follow {name}: no collider is named `{name}` ({known})"
    )))
}

/// What a picture shows.
#[derive(Clone, Debug)]
pub enum ViewChoice {
    /// A fixed box, or everything when `None`.
    Fixed(Option<Aabb>),
    /// A box of this size centred on a collider.
    Follow {
        /// The followed collider.
        handle: ColliderHandle,
        /// The view's size in world units.
        size: Vec2,
    },
}

impl ViewChoice {
    /// Chooses from `--view` (`view`), `--follow` (`follow`), the scene's own view, and the
    /// picture's aspect ratio `width / height`.
    pub fn choose(
        sim: &Sim,
        view: Option<Aabb>,
        follow: Option<&str>,
        aspect: f32,
    ) -> Result<ViewChoice, CliError> {
        match follow {
            None => Ok(ViewChoice::Fixed(view.or(sim.view))),
            Some(name) => {
                let handle = find_named(sim, name)?;
                let size = view.map_or(
                    Vec2::new(FOLLOW_WIDTH, FOLLOW_WIDTH / aspect.max(1e-3)),
                    |v| v.extents(),
                );
                Ok(ViewChoice::Follow { handle, size })
            }
        }
    }

    /// The box to draw now.
    pub fn current(&self, sim: &Sim) -> Option<Aabb> {
        match self {
            ViewChoice::Fixed(view) => *view,
            ViewChoice::Follow { handle, size } => {
                let center = sim
                    .world
                    .get(*handle)
                    .map_or(Vec2::ZERO, |collider| collider.aabb().center());
                Some(Aabb::from_center(center, *size * 0.5))
            }
        }
    }
}

/// `x0,y0,x1,y1` of a box, for messages.
pub fn view_text(view: &Aabb) -> String {
    format!(
        "{},{},{},{}",
        view.min.x, view.min.y, view.max.x, view.max.y
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn views_parse_and_bad_ones_are_explained() {
        let view = parse_view("0, -1.5,10,20").unwrap();
        assert_eq!(
            (view.min, view.max),
            (Vec2::new(0.0, -1.5), Vec2::new(10.0, 20.0))
        );
        assert!(parse_view("1,2,3").unwrap_err().contains("found 3"));
        assert!(parse_view("0,0,x,1")
            .unwrap_err()
            .contains("`x` is not a finite"));
        assert!(parse_view("0,0,NaN,1")
            .unwrap_err()
            .contains("`NaN` is not a finite"));
        assert!(parse_view("5,0,1,1").unwrap_err().contains("x0 < x1"));
        assert!(parse_view("0,0,0,1").unwrap_err().contains("x0 < x1"));
    }
}
