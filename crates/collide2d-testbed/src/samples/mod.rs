//! The samples, one file each, and the registry listing them by category.

pub mod all_pairs;
pub mod broad_phase;
pub mod character;
pub mod containment;
pub mod continuous;
pub mod kinds;
pub mod mover_lab;
pub mod ray_cast;
pub mod shape_cast;
pub mod shape_pair;
pub mod world_layers;

use crate::sample::Sample;

/// Makes a fresh sample in its initial state.
pub type SampleFactory = fn() -> Box<dyn Sample>;

/// Every sample, in list order within each category.
pub const REGISTRY: &[SampleFactory] = &[
    || Box::new(shape_pair::ShapePair::default()),
    || Box::new(all_pairs::AllPairs::default()),
    || Box::new(containment::Containment::default()),
    || Box::new(ray_cast::RayCast::default()),
    || Box::new(shape_cast::ShapeCast::default()),
    || Box::new(broad_phase::BroadPhaseStress::default()),
    || Box::new(world_layers::WorldLayers::default()),
    || Box::new(character::Character::default()),
    || Box::new(mover_lab::MoverLab::default()),
    || Box::new(continuous::Continuous::default()),
];

/// A fresh instance of every sample.
pub fn all() -> Vec<Box<dyn Sample>> {
    REGISTRY.iter().map(|make| make()).collect()
}

/// The names of every sample, in registry order.
pub fn names() -> Vec<&'static str> {
    all().iter().map(|sample| sample.name()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::recorder::Recorder;
    use crate::sample::{Category, Input, Keys};
    use collide2d::Vec2;

    #[test]
    fn every_name_is_unique_and_fit_for_a_file_name() {
        let names = names();
        let mut sorted = names.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), names.len(), "{names:?}");
        for name in names {
            assert!(
                name.chars().all(|c| c.is_ascii_lowercase() || c == '-'),
                "{name}"
            );
        }
    }

    #[test]
    fn every_category_has_a_sample() {
        let samples = all();
        for category in Category::ALL {
            assert!(
                samples.iter().any(|s| s.category() == category),
                "{category:?} is empty"
            );
        }
    }

    #[test]
    fn every_sample_draws_something_finite() {
        for mut sample in all() {
            let mut recorder = Recorder::default();
            sample.draw(&mut recorder);
            assert!(recorder.total() > 0, "{} drew nothing", sample.name());
            assert_eq!(recorder.non_finite, 0, "{}", sample.name());
            assert!(sample.view().half_height > 0.0);
            assert!(!sample.help().is_empty());
        }
    }

    #[test]
    fn every_sample_steps_and_takes_input_headlessly() {
        for mut sample in all() {
            let view = sample.view();
            // Press in the middle of the view, drag, turn, run right and jump, release.
            let mut input = Input {
                mouse: Some(view.center),
                pressed: true,
                held: true,
                pick_radius: 0.1,
                ..Input::default()
            };
            for frame in 0..90 {
                sample.input(&input);
                sample.step();
                input.pressed = false;
                input.mouse = Some(view.center + Vec2::new(0.02 * frame as f32, 0.01));
                input.rotate = 0.01;
                input.keys = Keys {
                    right: true,
                    jump: frame % 30 == 0,
                    ..Keys::default()
                };
            }
            input.held = false;
            input.released = true;
            sample.input(&input);
            let mut recorder = Recorder::default();
            sample.draw(&mut recorder);
            assert_eq!(recorder.non_finite, 0, "{}", sample.name());
        }
    }

    #[test]
    fn samples_are_deterministic() {
        for (make_first, make_second) in REGISTRY.iter().zip(REGISTRY) {
            let (mut first, mut second) = (make_first(), make_second());
            for _ in 0..20 {
                first.step();
                second.step();
            }
            let (mut a, mut b) = (Recorder::default(), Recorder::default());
            first.draw(&mut a);
            second.draw(&mut b);
            assert_eq!(a, b, "{}", first.name());
        }
    }
}
