//! Named collision layers and the symmetric matrix of which layers collide.

use super::WorldError;

pub use crate::layer::{LayerId, LayerMask, MAX_LAYERS};

/// Up to 32 named layers and which pairs of them collide.
///
/// **Default:** a world starts with one layer, `"default"`. A new layer collides with every
/// layer, itself included, until [`disable`](Layers::disable) says otherwise, except the
/// layers restricted by [`collide_only`](Layers::collide_only) (which collide only with the
/// layers they list). The matrix is
/// symmetric: `enable(a, b)` is `enable(b, a)`.
///
/// Two `Layers` are equal when their names and matrix are: the world compares the matrix it
/// last filtered with, so assigning any preset through
/// [`World::layers_mut`](super::World::layers_mut) takes effect at the next update.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "LayersData"))]
pub struct Layers {
    names: Vec<String>,
    matrix: [u32; MAX_LAYERS],
}

/// `Layers` as serialised, checked by [`Layers::validate`] before it becomes one.
#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
struct LayersData {
    names: Vec<String>,
    matrix: [u32; MAX_LAYERS],
}

#[cfg(feature = "serde")]
impl TryFrom<LayersData> for Layers {
    type Error = WorldError;

    fn try_from(data: LayersData) -> Result<Layers, WorldError> {
        let layers = Layers {
            names: data.names,
            matrix: data.matrix,
        };
        layers.validate()?;
        Ok(layers)
    }
}

impl Default for Layers {
    fn default() -> Self {
        Layers {
            names: vec!["default".to_string()],
            matrix: [u32::MAX; MAX_LAYERS],
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

    /// Makes `layer` collide with exactly the layers of `others` (itself only if listed), now
    /// and later: the rule for every layer slot, present or future, is rewritten, so a layer
    /// added afterwards does not collide with `layer` until [`enable`](Self::enable) says so.
    /// Other pairs are left alone. For bullets that hit only enemies and walls:
    ///
    /// ```
    /// use collide2d::world::Layers;
    /// let mut layers = Layers::default();
    /// let (bullet, enemy, wall) = (layers.add("bullet")?, layers.add("enemy")?, layers.add("wall")?);
    /// layers.collide_only(bullet, &[enemy, wall]);
    /// let pickup = layers.add("pickup")?; // added later: bullets still pass through it
    /// assert!(layers.collides(bullet, enemy) && layers.collides(wall, bullet));
    /// assert!(!layers.collides(bullet, bullet) && !layers.collides(bullet, pickup));
    /// assert!(layers.collides(pickup, enemy));
    /// # Ok::<(), collide2d::world::WorldError>(())
    /// ```
    pub fn collide_only(&mut self, layer: LayerId, others: &[LayerId]) {
        let row = others
            .iter()
            .fold(0u32, |row, other| row | (1 << (other.0 % 32)));
        let bit = 1u32 << (layer.0 % 32);
        for (index, other_row) in self.matrix.iter_mut().enumerate() {
            if row & (1 << index) != 0 {
                *other_row |= bit;
            } else {
                *other_row &= !bit;
            }
        }
        self.matrix[layer.index() % MAX_LAYERS] = row;
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

    /// The whole matrix: row `i` is [`mask_of`](Self::mask_of) layer `i`. The world keeps the
    /// one it last filtered with, so any change (however made) re-checks filtered pairs.
    pub(crate) fn matrix(&self) -> [u32; MAX_LAYERS] {
        self.matrix
    }

    /// Checks what `add`, `enable` and `disable` keep true, for layers that did not come from
    /// them (deserialised, or in a snapshot): 1 to 32 names, none empty, none repeated, the
    /// first `"default"`, and a symmetric matrix.
    pub(crate) fn validate(&self) -> Result<(), WorldError> {
        if self.names.len() > MAX_LAYERS {
            return Err(WorldError::TooManyLayers);
        }
        if self.names.first().map(String::as_str) != Some("default") {
            return Err(WorldError::UnknownLayer("default".to_string()));
        }
        for (index, name) in self.names.iter().enumerate() {
            if name.is_empty() {
                return Err(WorldError::EmptyLayerName);
            }
            if self.names[..index].contains(name) {
                return Err(WorldError::DuplicateLayer(name.clone()));
            }
        }
        if !matrix_is_symmetric(&self.matrix) {
            return Err(WorldError::AsymmetricLayerMatrix);
        }
        Ok(())
    }

    /// Layers with this matrix (and only the default layer's name), for testing filters the
    /// way an earlier matrix did.
    pub(crate) fn with_matrix(matrix: [u32; MAX_LAYERS]) -> Layers {
        Layers {
            matrix,
            ..Layers::default()
        }
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
    }
}

/// Whether layer `i` colliding with `j` always means `j` colliding with `i`.
pub(crate) fn matrix_is_symmetric(matrix: &[u32; MAX_LAYERS]) -> bool {
    (0..MAX_LAYERS).all(|i| (0..MAX_LAYERS).all(|j| (matrix[i] >> j & 1) == (matrix[j] >> i & 1)))
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

    #[test]
    fn validation_accepts_what_edits_make_and_nothing_else() {
        let mut layers = Layers::default();
        let player = layers.add("Player").unwrap();
        layers.disable(player, LayerId::DEFAULT);
        assert_eq!(layers.validate(), Ok(()));
        let mut asymmetric = layers.clone();
        asymmetric.matrix[0] |= 1 << 1;
        assert_eq!(
            asymmetric.validate(),
            Err(WorldError::AsymmetricLayerMatrix)
        );
        let mut repeated = layers.clone();
        repeated.names.push("Player".into());
        assert_eq!(
            repeated.validate(),
            Err(WorldError::DuplicateLayer("Player".into()))
        );
        let mut empty = layers.clone();
        empty.names[1].clear();
        assert_eq!(empty.validate(), Err(WorldError::EmptyLayerName));
        let mut too_many = layers.clone();
        too_many.names = (0..=MAX_LAYERS).map(|i| format!("layer {i}")).collect();
        too_many.names[0] = "default".into();
        assert_eq!(too_many.validate(), Err(WorldError::TooManyLayers));
        let mut renamed = layers;
        renamed.names[0] = "ground".into();
        assert!(renamed.validate().is_err());
    }
}
