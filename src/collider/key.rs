//! The generational handle to a collider.

slotmap::new_key_type! {
    /// A generational handle to a collider of a [`World`](crate::World).
    ///
    /// A key whose collider was removed is detected as stale (its slot's
    /// generation has moved on), never aliased to a new collider. As a
    /// `u64` ([`ColliderKey::to_bits`]) it is what the C ABI's
    /// `PhysCollider` carries.
    pub struct ColliderKey;
}

impl ColliderKey {
    /// The key as a `u64` (slot index in the low half, generation in the
    /// high half; never 0 for a key a world gave out): for storing a
    /// handle in an engine's own components or sending it over the C ABI.
    ///
    /// ```
    /// use collide::{ColliderDesc, ColliderKey, Shape, Sphere, World, math::Vec3};
    /// let mut world = World::new();
    /// let key = world.add(ColliderDesc::new(Shape::Sphere(Sphere::new(Vec3::ZERO, 1.0))))?;
    /// assert_eq!(ColliderKey::from_bits(key.to_bits()), key);
    /// # Ok::<(), collide::Error>(())
    /// ```
    #[must_use]
    #[inline]
    pub fn to_bits(self) -> u64 {
        slotmap::Key::data(&self).as_ffi()
    }

    /// The key's slot index and generation (the low and high halves of
    /// [`ColliderKey::to_bits`]).
    #[inline]
    pub(crate) fn slot_and_version(self) -> (usize, u32) {
        let bits = self.to_bits();
        ((bits & 0xffff_ffff) as usize, (bits >> 32) as u32)
    }

    /// The key whose [`ColliderKey::to_bits`] is `bits`. Any `u64` gives a
    /// key; one no world gave out (or whose collider was removed) is a
    /// stale handle to every world: [`World::get`](crate::World::get) gives
    /// `None`, the other calls [`Error::StaleHandle`](crate::Error::StaleHandle).
    /// Bits no live key can have (an even generation: live generations are
    /// odd) give the null key, never a key one generation on, which could
    /// name a live collider.
    ///
    /// ```
    /// use collide::{ColliderDesc, ColliderKey, Shape, Sphere, World, math::Vec3};
    /// let mut world = World::new();
    /// let key = world.add(ColliderDesc::new(Shape::Sphere(Sphere::new(Vec3::ZERO, 1.0))))?;
    /// // The same slot one generation earlier is no alias of the live collider.
    /// let older = ColliderKey::from_bits(key.to_bits() - (1 << 32));
    /// assert!(world.get(older).is_none());
    /// assert!(world.get(ColliderKey::from_bits(0)).is_none());
    /// # Ok::<(), collide::Error>(())
    /// ```
    #[must_use]
    #[inline]
    pub fn from_bits(bits: u64) -> Self {
        let generation = bits >> 32;
        if generation & 1 == 1 {
            slotmap::KeyData::from_ffi(bits).into()
        } else {
            slotmap::Key::null()
        }
    }
}
