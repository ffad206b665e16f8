//! A character on a tile map: `move_and_slide` with gravity, jumping up through one-way
//! platforms and landing on them, sliding along walls.

use collide2d::debug::{draw_shape, Color, DebugDraw};
use collide2d::level::{Tile, TileMap};
use collide2d::shape::{Capsule, Shape};
use collide2d::world::{
    Collider, ColliderHandle, MoveOptions, TileGeometry, TileMapColliders, World,
};
use collide2d::{Transform, Vec2};

use super::shape_pair::TEXT;
use crate::sample::{Category, Input, Keys, Sample, View};

/// The level, top row first: `#` solid, `=` one-way platform, `.` empty.
const LEVEL: [&str; 14] = [
    "##############################",
    "#............................#",
    "#............................#",
    "#.....................====...#",
    "#............................#",
    "#..............====.......####",
    "#.........................#..#",
    "#.......====..............#..#",
    "#..........................=.#",
    "#...====.........##..........#",
    "#...............####.........#",
    "#.....###......######....=====",
    "#....####.....########.......#",
    "##############################",
];
const CELL: f32 = 1.0;
const GRAVITY: f32 = -30.0;
const RUN_SPEED: f32 = 7.0;
const JUMP_SPEED: f32 = 14.0;
const DT: f32 = 1.0 / 60.0;
const SOLID: Color = Color::rgb(120, 120, 140);
const ONE_WAY: Color = Color::rgb(230, 160, 60);
const OUTLINE: Color = Color::rgb(200, 200, 220);
const HERO: Color = Color::rgb(90, 200, 255);
const TRAIL: Color = Color::rgb(90, 200, 255).with_alpha(120);

/// The character sample.
pub struct Character {
    world: World,
    map: TileMap,
    hero: ColliderHandle,
    velocity: Vec2,
    on_floor: bool,
    keys: Keys,
    autoplay: bool,
    frame: u64,
    trail: Vec<Vec2>,
    last_normals: Vec<(Vec2, Vec2)>,
}

impl Default for Character {
    fn default() -> Self {
        let height = LEVEL.len() as u32;
        let width = LEVEL[0].len() as u32;
        let map = TileMap::from_fn(width, height, CELL, Vec2::ZERO, |x, y| {
            let row = LEVEL[(height - 1 - y) as usize].as_bytes();
            match row[x as usize] {
                b'#' => Tile::SOLID,
                b'=' => Tile::SOLID.with_one_way(true),
                _ => Tile::EMPTY,
            }
        })
        .expect("the level is a valid map");
        let mut world = World::new();
        TileMapColliders::insert(&mut world, &map, TileGeometry::Outlines)
            .expect("the level uses the default layer");
        let body = Shape::from(Capsule::vertical(1.5, 0.35).expect("valid capsule"));
        // Standing on the one-way platform at the left.
        let start = Vec2::new(5.5, 5.0 + 0.75 + 0.02);
        let hero = world
            .insert(Collider::new(body).with_transform(Transform::from_translation(start)))
            .expect("valid collider");
        world.update();
        Character {
            world,
            map,
            hero,
            velocity: Vec2::ZERO,
            on_floor: false,
            keys: Keys::default(),
            autoplay: false,
            frame: 0,
            trail: vec![start],
            last_normals: Vec::new(),
        }
    }
}

impl Character {
    fn position(&self) -> Vec2 {
        self.world
            .get(self.hero)
            .map(|c| c.transform().p)
            .unwrap_or_default()
    }

    /// Keys for the demo run: walk right and left in turn, jumping now and then.
    fn autoplay_keys(&self) -> Keys {
        let phase = (self.frame / 150) % 2;
        Keys {
            right: phase == 0,
            left: phase == 1,
            jump: self.frame % 55 == 0,
            down: false,
        }
    }
}

impl Sample for Character {
    fn name(&self) -> &'static str {
        "character"
    }

    fn category(&self) -> Category {
        Category::World
    }

    fn help(&self) -> &'static str {
        "Arrows or A/D run, W/Up/Space jumps. Orange tiles are one-way platforms: jump up \
         through them and land on top. The map is merged into one chain per outline, so \
         running across tile seams never catches."
    }

    fn view(&self) -> View {
        View {
            center: Vec2::new(15.0, 7.0),
            half_width: 15.3,
            half_height: 7.3,
        }
    }

    fn ui(&mut self, ui: &mut egui::Ui) {
        ui.checkbox(&mut self.autoplay, "autoplay");
        if ui.button("back to the start").clicked() {
            *self = Character::default();
        }
        let p = self.position();
        ui.monospace(format!(
            "position ({:.2}, {:.2})\nvelocity ({:.2}, {:.2})\non floor: {}\nregions: {}",
            p.x,
            p.y,
            self.velocity.x,
            self.velocity.y,
            self.on_floor,
            self.map.region_count()
        ));
    }

    fn input(&mut self, input: &Input) {
        self.keys.left = input.keys.left;
        self.keys.right = input.keys.right;
        self.keys.down = input.keys.down;
        // A jump press is kept until the next step uses it.
        self.keys.jump |= input.keys.jump;
    }

    fn step(&mut self) {
        self.frame += 1;
        let keys = if self.autoplay {
            self.autoplay_keys()
        } else {
            self.keys
        };
        self.keys.jump = false;
        let run = f32::from(u8::from(keys.right)) - f32::from(u8::from(keys.left));
        self.velocity.x = run * RUN_SPEED;
        self.velocity.y += GRAVITY * DT;
        if keys.jump && self.on_floor {
            self.velocity.y = JUMP_SPEED;
        }
        let Ok(result) =
            self.world
                .move_and_slide(self.hero, self.velocity * DT, MoveOptions::default())
        else {
            return;
        };
        self.on_floor = result.on_floor;
        if (result.on_floor && self.velocity.y < 0.0)
            || (result.on_ceiling && self.velocity.y > 0.0)
        {
            self.velocity.y = 0.0;
        }
        self.last_normals = result.hits.iter().map(|h| (h.point, h.normal)).collect();
        self.world.update();
        let p = self.position();
        if self.trail.last().is_none_or(|last| last.distance(p) > 0.15) {
            self.trail.push(p);
            if self.trail.len() > 400 {
                self.trail.remove(0);
            }
        }
    }

    fn is_animating(&self) -> bool {
        self.autoplay
            || !self.on_floor
            || self.keys.left
            || self.keys.right
            || self.keys.jump
            || self.velocity != Vec2::ZERO
    }

    fn draw(&mut self, draw: &mut dyn DebugDraw) {
        for y in 0..self.map.height() {
            for x in 0..self.map.width() {
                let (Some(tile), Some(cell)) = (self.map.tile(x, y), self.map.cell_aabb(x, y))
                else {
                    continue;
                };
                if !tile.solid {
                    continue;
                }
                let color = if tile.one_way { ONE_WAY } else { SOLID };
                let corners = [
                    cell.min,
                    Vec2::new(cell.max.x, cell.min.y),
                    cell.max,
                    Vec2::new(cell.min.x, cell.max.y),
                ];
                draw.polygon(&corners, color.with_alpha(50), true);
            }
        }
        for (handle, collider) in self.world.iter() {
            if handle == self.hero {
                continue;
            }
            let color = if collider.one_way().is_some() {
                ONE_WAY
            } else {
                OUTLINE
            };
            draw_shape(draw, collider.shape(), &collider.world_transform(), color);
        }
        for pair in self.trail.windows(2) {
            draw.segment(pair[0], pair[1], TRAIL);
        }
        if let Ok(hero) = self.world.get(self.hero) {
            draw_shape(draw, hero.shape(), &hero.world_transform(), HERO);
        }
        for &(point, normal) in &self.last_normals {
            draw.point(point, 5.0, Color::CONTACT);
            draw.segment(point, point + normal * 0.6, Color::NORMAL);
        }
        draw.label(
            self.position() + Vec2::new(0.5, 0.8),
            if self.on_floor {
                "on floor"
            } else {
                "airborne"
            },
            TEXT,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_character_stands_on_the_one_way_platform_at_the_start() {
        let mut sample = Character::default();
        let start = sample.position();
        for _ in 0..30 {
            sample.step();
        }
        assert!(sample.on_floor);
        assert!(sample.position().distance(start) < 0.05);
    }

    #[test]
    fn autoplay_stays_inside_the_level() {
        let mut sample = Character {
            autoplay: true,
            ..Character::default()
        };
        let bounds = sample.map.aabb();
        let mut landings = 0;
        let mut was_on_floor = true;
        for _ in 0..1200 {
            sample.step();
            let p = sample.position();
            assert!(
                p.x > bounds.min.x + CELL && p.x < bounds.max.x && p.y > bounds.min.y + CELL,
                "left the level at {p:?}"
            );
            if sample.on_floor && !was_on_floor {
                landings += 1;
            }
            was_on_floor = sample.on_floor;
        }
        assert!(landings > 3, "{landings} landings");
    }
}
