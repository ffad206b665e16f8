//! The collision world: colliders on four layers, the layer matrix as a grid of checkboxes,
//! and the begin/end event stream.

use std::collections::VecDeque;

use collide2d::debug::{draw_manifold, draw_shape, Color, DebugDraw};
use collide2d::shape::{Capsule, Circle, Polygon, Shape};
use collide2d::world::{Collider, ColliderHandle, CollisionEvent, LayerId, QueryFilter, World};
use collide2d::{Transform, Vec2};

use super::shape_pair::TEXT;
use crate::sample::{Category, Input, Sample, View};
use collide2d_testkit::Rng;

/// Events kept in the log.
const LOG_LENGTH: usize = 200;
const WALL: Color = Color::rgb(150, 150, 165);
/// Colour per layer (walls, players, enemies, pickups).
const LAYER_COLORS: [Color; 4] = [
    WALL,
    Color::rgb(90, 170, 255),
    Color::rgb(255, 150, 60),
    Color::rgb(230, 220, 80),
];

/// An elliptic path, turning as it goes.
#[derive(Clone, Copy, Debug)]
struct Orbit {
    center: Vec2,
    radii: Vec2,
    speed: f32,
    phase: f32,
}

/// A collider that moves along an orbit.
#[derive(Clone, Copy, Debug)]
struct Actor {
    handle: ColliderHandle,
    orbit: Orbit,
}

impl Orbit {
    fn transform_at(&self, time: f32) -> Transform {
        let angle = self.phase + self.speed * time;
        let p = self.center + Vec2::new(angle.cos() * self.radii.x, angle.sin() * self.radii.y);
        Transform::new(p, 0.7 * angle)
    }
}

/// The world sample.
pub struct WorldLayers {
    world: World,
    layers: Vec<LayerId>,
    actors: Vec<Actor>,
    frame: u64,
    running: bool,
    log: VecDeque<String>,
    held: Option<(ColliderHandle, Vec2)>,
}

impl Default for WorldLayers {
    fn default() -> Self {
        let mut world = World::new();
        let mut layers = vec![world.layers().id("default").expect("the default layer")];
        for name in ["player", "enemy", "pickup"] {
            layers.push(world.layers_mut().add(name).expect("four layers fit"));
        }
        let (walls, players, enemies, pickups) = (layers[0], layers[1], layers[2], layers[3]);
        world.layers_mut().disable(walls, walls);
        world.layers_mut().disable(enemies, enemies);
        world.layers_mut().disable(pickups, pickups);
        world.layers_mut().disable(pickups, enemies);
        world.layers_mut().disable(pickups, walls);
        let mut sample = WorldLayers {
            world,
            layers,
            actors: Vec::new(),
            frame: 0,
            running: true,
            log: VecDeque::new(),
            held: None,
        };
        sample.populate(walls, players, enemies, pickups);
        sample.step();
        sample
    }
}

impl WorldLayers {
    fn populate(&mut self, walls: LayerId, players: LayerId, enemies: LayerId, pickups: LayerId) {
        let wall = |w: f32, h: f32| Shape::from(Polygon::rect(w, h).expect("valid wall"));
        for (p, w, h) in [
            (Vec2::new(0.0, -7.0), 24.0, 0.6),
            (Vec2::new(0.0, 7.0), 24.0, 0.6),
            (Vec2::new(-12.0, 0.0), 0.6, 14.6),
            (Vec2::new(12.0, 0.0), 0.6, 14.6),
            (Vec2::new(0.0, 0.0), 3.0, 3.0),
        ] {
            let collider = Collider::new(wall(w, h))
                .with_layer(walls)
                .with_transform(Transform::new(p, 0.0));
            self.world.insert(collider).expect("valid collider");
        }
        let mut rng = Rng(0x3071D);
        for i in 0..30 {
            let (layer, shape, sensor) = match i % 3 {
                0 => (
                    players,
                    Shape::from(Capsule::vertical(1.4, 0.35).expect("valid capsule")),
                    false,
                ),
                1 => (
                    enemies,
                    Shape::from(Polygon::rounded_rect(1.2, 0.9, 0.1).expect("valid box")),
                    false,
                ),
                _ => (
                    pickups,
                    Shape::from(Circle::with_radius(0.45).expect("valid circle")),
                    true,
                ),
            };
            let orbit = Orbit {
                center: Vec2::new(rng.range(-6.0, 6.0), rng.range(-3.0, 3.0)),
                radii: Vec2::new(rng.range(2.0, 5.5), rng.range(1.0, 3.5)),
                speed: rng.range(0.3, 1.0) * if rng.unit() < 0.5 { -1.0 } else { 1.0 },
                phase: rng.range(0.0, std::f32::consts::TAU),
            };
            let collider = Collider::new(shape)
                .with_layer(layer)
                .with_sensor(sensor)
                .with_transform(orbit.transform_at(0.0));
            let handle = self.world.insert(collider).expect("valid collider");
            self.actors.push(Actor { handle, orbit });
        }
    }

    fn layer_name(&self, handle: ColliderHandle) -> String {
        let layer = self.world.get(handle).map(|c| c.layer());
        let name = layer
            .ok()
            .and_then(|l| self.world.layers().name(l))
            .unwrap_or("?");
        format!("{name}#{}", handle.index())
    }

    fn record_events(&mut self) {
        let mut lines = Vec::new();
        for event in self.world.events() {
            let (kind, (a, b)) = match event {
                CollisionEvent::Begin { .. } => ("begin", event.pair()),
                CollisionEvent::End { .. } => ("end  ", event.pair()),
                CollisionEvent::Stay { .. } => continue,
            };
            lines.push(format!(
                "{:5} {kind} {} {}",
                self.frame,
                self.layer_name(a),
                self.layer_name(b)
            ));
        }
        for line in lines {
            if self.log.len() == LOG_LENGTH {
                self.log.pop_back();
            }
            self.log.push_front(line);
        }
    }
}

impl Sample for WorldLayers {
    fn name(&self) -> &'static str {
        "world-layers"
    }

    fn category(&self) -> Category {
        Category::World
    }

    fn help(&self) -> &'static str {
        "Capsules (player), boxes (enemy) and sensor circles (pickup) orbit; red outlines \
         touch something. Untick a box in the matrix to stop two layers colliding. Drag any \
         collider."
    }

    fn view(&self) -> View {
        View {
            center: Vec2::ZERO,
            half_width: 12.5,
            half_height: 7.5,
        }
    }

    fn ui(&mut self, ui: &mut egui::Ui) {
        ui.checkbox(&mut self.running, "run");
        ui.label("layer matrix");
        let names: Vec<String> = self
            .layers
            .iter()
            .map(|&l| self.world.layers().name(l).unwrap_or("?").to_owned())
            .collect();
        egui::Grid::new("layer matrix").show(ui, |ui| {
            ui.label("");
            for name in &names {
                ui.label(name.as_str());
            }
            ui.end_row();
            for (i, name) in names.iter().enumerate() {
                ui.label(name.as_str());
                for j in 0..names.len() {
                    let (a, b) = (self.layers[i], self.layers[j]);
                    let mut enabled = self.world.layers().collides(a, b);
                    if ui.checkbox(&mut enabled, "").changed() {
                        if enabled {
                            self.world.layers_mut().enable(a, b);
                        } else {
                            self.world.layers_mut().disable(a, b);
                        }
                    }
                }
                ui.end_row();
            }
        });
        ui.separator();
        ui.label(format!(
            "{} colliders, {} touching pairs",
            self.world.len(),
            self.world.contacts().count()
        ));
        ui.label("events (newest first)");
        egui::ScrollArea::vertical()
            .max_height(260.0)
            .show(ui, |ui| {
                for line in &self.log {
                    ui.monospace(line);
                }
            });
    }

    fn input(&mut self, input: &Input) {
        if input.pressed {
            self.held = input.mouse.and_then(|mouse| {
                let filter = QueryFilter::default().with_sensors();
                let hits = self.world.overlap_point(mouse, &filter).ok()?;
                let handle = *hits
                    .iter()
                    .rev()
                    .find(|h| self.actors.iter().any(|a| a.handle == **h))?;
                let xf = self.world.get(handle).ok()?.transform();
                Some((handle, xf.apply_inv(mouse)))
            });
        }
        if let (Some((handle, local)), Some(mouse)) = (self.held, input.mouse) {
            if let Ok(collider) = self.world.get(handle) {
                let mut xf = collider.transform();
                xf.q = collide2d::Rot::from_angle(xf.angle() + input.rotate);
                xf.p += mouse - xf.apply(local);
                let _ = self.world.set_transform(handle, xf);
                if !self.running {
                    self.world.update();
                    self.record_events();
                }
            }
        }
        if input.released || !input.held {
            self.held = None;
        }
    }

    fn step(&mut self) {
        if !self.running {
            return;
        }
        self.frame += 1;
        let time = self.frame as f32 / 60.0;
        for actor in &self.actors {
            if self.held.map(|(h, _)| h) != Some(actor.handle) {
                let _ = self
                    .world
                    .set_transform(actor.handle, actor.orbit.transform_at(time));
            }
        }
        self.world.update();
        self.record_events();
    }

    fn is_animating(&self) -> bool {
        self.running
    }

    fn draw(&mut self, draw: &mut dyn DebugDraw) {
        for (handle, collider) in self.world.iter() {
            let is_wall = collider.layer() == self.layers[0];
            let color = if !is_wall && self.world.is_touching(handle) {
                Color::OVERLAPPING
            } else {
                LAYER_COLORS
                    .get(collider.layer().index())
                    .copied()
                    .unwrap_or(WALL)
            };
            draw_shape(draw, collider.shape(), &collider.world_transform(), color);
        }
        for (_, _, manifold) in self.world.contacts() {
            if let Some(manifold) = manifold {
                draw_manifold(draw, manifold, 0.6);
            }
        }
        draw.label(
            Vec2::new(-11.6, 6.0),
            &format!("frame {}", self.frame),
            TEXT,
        );
    }
}
