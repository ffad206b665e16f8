//! Gizmo drawing of the collision world: shapes green, red while touching, sensors blue,
//! contact points and normals (feature `debug-draw`).

use bevy_app::{App, Plugin, PostUpdate};
use bevy_color::Color;
use bevy_ecs::prelude::*;
use bevy_gizmos::gizmos::Gizmos;
use bevy_math::Isometry2d;
use collide2d::debug::{draw_manifold, draw_shape, Color as DrawColor, DebugDraw};

use crate::convert::from_lib;
use crate::CollisionWorld;

/// What the debug drawing shows; `enabled` toggles it all.
#[derive(Resource, Clone, Copy, Debug)]
pub struct DebugDrawSettings {
    /// Whether anything is drawn.
    pub enabled: bool,
    /// Whether contact points and normals are drawn.
    pub contacts: bool,
    /// Length of the drawn normals, in world units.
    pub normal_length: f32,
}

impl Default for DebugDrawSettings {
    fn default() -> Self {
        DebugDrawSettings {
            enabled: true,
            contacts: true,
            normal_length: 0.5,
        }
    }
}

/// Draws every collider with gizmos after each frame's updates (needs Bevy's gizmo plugin).
pub struct DebugDrawPlugin;

impl Plugin for DebugDrawPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<DebugDrawSettings>()
            .add_systems(PostUpdate, draw_colliders);
    }
}

/// The library's drawing interface on gizmos.
struct GizmoDraw<'a, 'w, 's> {
    gizmos: &'a mut Gizmos<'w, 's>,
}

fn color(c: DrawColor) -> Color {
    Color::srgba_u8(c.r, c.g, c.b, c.a)
}

impl DebugDraw for GizmoDraw<'_, '_, '_> {
    fn polygon(&mut self, points: &[collide2d::Vec2], c: DrawColor, _filled: bool) {
        if let Some(&first) = points.first() {
            let closed = points.iter().chain(std::iter::once(&first));
            self.gizmos
                .linestrip_2d(closed.map(|&p| from_lib(p)), color(c));
        }
    }

    fn circle(&mut self, center: collide2d::Vec2, radius: f32, c: DrawColor, _filled: bool) {
        self.gizmos.circle_2d(
            Isometry2d::from_translation(from_lib(center)),
            radius,
            color(c),
        );
    }

    fn segment(&mut self, a: collide2d::Vec2, b: collide2d::Vec2, c: DrawColor) {
        self.gizmos.line_2d(from_lib(a), from_lib(b), color(c));
    }

    fn point(&mut self, p: collide2d::Vec2, size: f32, c: DrawColor) {
        // A screen-size dot has no gizmo: a small cross in world units instead.
        let r = 0.02 * size;
        let p = from_lib(p);
        self.gizmos.line_2d(
            p - bevy_math::Vec2::X * r,
            p + bevy_math::Vec2::X * r,
            color(c),
        );
        self.gizmos.line_2d(
            p - bevy_math::Vec2::Y * r,
            p + bevy_math::Vec2::Y * r,
            color(c),
        );
    }
}

fn draw_colliders(
    world: Res<CollisionWorld>,
    settings: Res<DebugDrawSettings>,
    mut gizmos: Gizmos,
) {
    if !settings.enabled {
        return;
    }
    let world = &world.world;
    let mut draw = GizmoDraw {
        gizmos: &mut gizmos,
    };
    for (collider, c) in shown(world) {
        draw_shape(&mut draw, collider.shape(), &collider.world_transform(), c);
    }
    if settings.contacts {
        for (_, _, manifold) in world.contacts() {
            if let Some(manifold) = manifold {
                draw_manifold(&mut draw, manifold, settings.normal_length);
            }
        }
    }
}

/// The colliders drawn, with their colours: the enabled ones (a disabled entity's collider
/// takes no part in anything, so it is not shown), sensors blue, touching red, others green.
fn shown(
    world: &collide2d::World,
) -> impl Iterator<Item = (&collide2d::world::Collider, DrawColor)> {
    world
        .iter()
        .filter(|(_, collider)| collider.is_enabled())
        .map(|(handle, collider)| {
            let c = if collider.is_sensor() {
                DrawColor::SENSOR
            } else if world.is_touching(handle) {
                DrawColor::OVERLAPPING
            } else {
                DrawColor::FREE
            };
            (collider, c)
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use collide2d::world::Collider;
    use collide2d::{Circle, Transform, Vec2};

    /// A disabled collider (a `Disabled` entity's) is not drawn; the enabled ones are, red
    /// while touching, blue for sensors.
    #[test]
    fn disabled_colliders_are_not_drawn() {
        let mut world = collide2d::World::new();
        let ball = |x: f32| {
            Collider::new(Circle::with_radius(0.5).unwrap())
                .with_transform(Transform::new(Vec2::new(x, 0.0), 0.0))
        };
        let a = world.insert(ball(0.0)).unwrap();
        let b = world.insert(ball(0.6)).unwrap();
        let sensor = world.insert(ball(5.0).with_sensor(true)).unwrap();
        world.update();
        let colours = |world: &collide2d::World| -> Vec<_> {
            shown(world)
                .map(|(c, colour)| (c.position().x, colour))
                .collect()
        };
        assert_eq!(
            colours(&world),
            [
                (0.0, DrawColor::OVERLAPPING),
                (0.6, DrawColor::OVERLAPPING),
                (5.0, DrawColor::SENSOR)
            ]
        );
        world.set_enabled(b, false).unwrap();
        world.update();
        assert_eq!(
            colours(&world),
            [(0.0, DrawColor::FREE), (5.0, DrawColor::SENSOR)]
        );
        let _ = (a, sensor);
    }
}
