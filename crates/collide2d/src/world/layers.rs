//! Named collision layers and the symmetric matrix of which layers collide.

use super::WorldError;

/// Most layers a world can have.
pub const MAX_LAYERS: usize = 32;

/// A layer, by its index in [`Layers`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct LayerId(pub(crate) u8);

impl LayerId {
    /// The layer every world starts with, named `"default"`.
    pub const DEFAULT: LayerId = LayerId(0);

    /// The layer's index (0 to 31).
    pub fn index(self) -> usize {
        usize::from(self.0)
    }
}

/// A set of layers, for query filters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct LayerMask(pub u32);

impl LayerMask {
    /// Every layer.
    pub const ALL: LayerMask = LayerMask(u32::MAX);
    /// No layer.
    pub const NONE: LayerMask = LayerMask(0);

    /// Whether `layer` is in the set.
    pub fn contains(self, layer: LayerId) -> bool {
        self.0 & (1 << layer.0) != 0
    }

    /// The set with `layer` added.
    pub fn with(self, layer: LayerId) -> LayerMask {
        LayerMask(self.0 | (1 << layer.0))
    }

    /// The set of just `layer`.
    pub fn only(layer: LayerId) -> LayerMask {
        LayerMask(1 << layer.0)
    }
}

impl Default for LayerMask {
    fn default() -> Self {
        LayerMask::ALL
    }
}

/// Up to 32 named layers and which pairs of them collide (the seed's `LayerCheck`).
///
/// **Default:** a world starts with one layer, `"default"`. A new layer collides with every
/// layer, itself included, until [`disable`](Layers::disable) says otherwise. The matrix is
/// symmetric: `enable(a, b)` is `enable(b, a)`.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Layers {
    names: Vec<String>,
    matrix: [u32; MAX_LAYERS],
    version: u64,
}

impl Default for Layers {
    fn default() -> Self {
        Layers {
            names: vec!["default".to_string()],
            matrix: [u32::MAX; MAX_LAYERS],
            version: 0,
        }
    }
}

impl Layers {
    /// Adds a layer; errors for an empty or duplicate name, or a 33rd layer.
    pub fn add(&mut self, name: &str) -> Result<LayerId, WorldError> {
        if name.is_empty() {
            return Err(WorldError::EmptyLayerName);
        }
        if self.names.iter().any(|n| n == name) {
            return Err(WorldError::DuplicateLayer(name.to_string()));
        }
        if self.names.len() >= MAX_LAYERS {
            return Err(WorldError::TooManyLayers);
        }
        self.names.push(name.to_string());
        Ok(LayerId((self.names.len() - 1) as u8))
    }

    /// The layer called `name`.
    pub fn id(&self, name: &str) -> Result<LayerId, WorldError> {
        self.names
            .iter()
            .position(|n| n == name)
            .map(|i| LayerId(i as u8))
            .ok_or_else(|| WorldError::UnknownLayer(name.to_string()))
    }

    /// The name of a layer (`None` for an id not from these layers).
    pub fn name(&self, layer: LayerId) -> Option<&str> {
        self.names.get(layer.index()).map(String::as_str)
    }

    /// Every layer, in the order added.
    pub fn iter(&self) -> impl Iterator<Item = (LayerId, &str)> {
        self.names
            .iter()
            .enumerate()
            .map(|(i, n)| (LayerId(i as u8), n.as_str()))
    }

    /// How many layers there are.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Always `false`: the default layer always exists.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Lets layers `a` and `b` collide (both directions).
    pub fn enable(&mut self, a: LayerId, b: LayerId) {
        self.set(a, b, true);
    }

    /// Stops layers `a` and `b` colliding (both directions).
    pub fn disable(&mut self, a: LayerId, b: LayerId) {
        self.set(a, b, false);
    }

    /// [`enable`](Self::enable) by names; an unknown name is an error and changes nothing.
    pub fn enable_by_name(&mut self, a: &str, b: &str) -> Result<(), WorldError> {
        let (a, b) = (self.id(a)?, self.id(b)?);
        self.enable(a, b);
        Ok(())
    }

    /// [`disable`](Self::disable) by names; an unknown name is an error and changes nothing.
    pub fn disable_by_name(&mut self, a: &str, b: &str) -> Result<(), WorldError> {
        let (a, b) = (self.id(a)?, self.id(b)?);
        self.disable(a, b);
        Ok(())
    }

    /// Whether layers `a` and `b` collide.
    #[inline]
    pub fn collides(&self, a: LayerId, b: LayerId) -> bool {
        self.matrix[a.index() % MAX_LAYERS] & (1 << (b.0 % 32)) != 0
    }

    /// The layers that `layer` collides with.
    pub fn mask_of(&self, layer: LayerId) -> LayerMask {
        LayerMask(self.matrix[layer.index() % MAX_LAYERS])
    }

    /// A counter bumped by every change, so the world knows to re-check filtered pairs.
    pub(crate) fn version(&self) -> u64 {
        self.version
    }

    /// Whether `layer` names one of these layers.
    pub(crate) fn contains(&self, layer: LayerId) -> bool {
        layer.index() < self.names.len()
    }

    fn set(&mut self, a: LayerId, b: LayerId, on: bool) {
        let (ia, ib) = (a.index() % MAX_LAYERS, b.index() % MAX_LAYERS);
        if on {
            self.matrix[ia] |= 1 << ib;
            self.matrix[ib] |= 1 << ia;
        } else {
            self.matrix[ia] &= !(1 << ib);
            self.matrix[ib] &= !(1 << ia);
        }
        self.version += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matrix_is_symmetric_and_defaults_to_colliding() {
        let mut layers = Layers::default();
        let player = layers.add("Player").unwrap();
        let monster = layers.add("Monster").unwrap();
        assert!(layers.collides(player, monster));
        layers.disable(monster, player);
        assert!(!layers.collides(player, monster) && !layers.collides(monster, player));
        assert!(layers.collides(player, player));
        layers.enable_by_name("Player", "Monster").unwrap();
        assert!(layers.collides(monster, player));
    }

    #[test]
    fn bad_names_are_errors() {
        let mut layers = Layers::default();
        assert_eq!(
            layers.add("default"),
            Err(WorldError::DuplicateLayer("default".into()))
        );
        assert_eq!(layers.add(""), Err(WorldError::EmptyLayerName));
        assert_eq!(
            layers.id("Ghost"),
            Err(WorldError::UnknownLayer("Ghost".into()))
        );
        for i in 1..MAX_LAYERS {
            layers.add(&format!("layer {i}")).unwrap();
        }
        assert_eq!(layers.add("one too many"), Err(WorldError::TooManyLayers));
        let before = layers.clone();
        assert!(layers.disable_by_name("default", "nope").is_err());
        assert_eq!(layers, before);
    }
}
