//! Which colliders may touch which, and what a query may hit.

use super::ColliderKey;

/// Which colliders may touch which, by Box2D's rule: `a` and `b` interact
/// when `(a.category & b.mask) != 0 && (b.category & a.mask) != 0`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Filter {
    /// The categories this collider belongs to (usually one bit).
    pub category: u64,
    /// The categories this collider interacts with.
    pub mask: u64,
}

impl Default for Filter {
    fn default() -> Self {
        Self::DEFAULT
    }
}

impl Filter {
    /// Category 1, interacting with every category.
    pub const DEFAULT: Filter = Filter {
        category: 1,
        mask: u64::MAX,
    };

    /// Box2D's rule: each side's category is in the other side's mask.
    ///
    /// ```
    /// use collide::Filter;
    /// let player = Filter { category: 0b01, mask: 0b10 };
    /// let wall = Filter { category: 0b10, mask: u64::MAX };
    /// assert!(player.interacts_with(&wall));
    /// assert!(!player.interacts_with(&player));
    /// ```
    #[inline]
    #[must_use]
    pub fn interacts_with(&self, other: &Filter) -> bool {
        (self.category & other.mask) != 0 && (other.category & self.mask) != 0
    }
}

/// What a query may hit: the colliders that pass Box2D's rule against the
/// query's own category and mask, except `exclude` (a bullet must not hit
/// its shooter). The default hits everything.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QueryFilter {
    /// The query's categories, tested against each collider's mask.
    pub category: u64,
    /// The categories the query hits, tested against each collider's category.
    pub mask: u64,
    /// A collider the query ignores.
    pub exclude: Option<ColliderKey>,
}

impl Default for QueryFilter {
    fn default() -> Self {
        Self::ALL
    }
}

impl QueryFilter {
    /// Hits every collider.
    pub const ALL: QueryFilter = QueryFilter {
        category: u64::MAX,
        mask: u64::MAX,
        exclude: None,
    };

    /// Hits every collider but `key`.
    #[must_use]
    pub fn excluding(key: ColliderKey) -> Self {
        Self {
            exclude: Some(key),
            ..Self::ALL
        }
    }

    /// Hits the colliders whose category is in `mask` and whose own mask
    /// admits `category`.
    #[must_use]
    pub fn with_bits(category: u64, mask: u64) -> Self {
        Self {
            category,
            mask,
            exclude: None,
        }
    }

    /// Whether the query may hit the collider `key` with filter `filter`.
    ///
    /// ```
    /// use collide::{Filter, QueryFilter, ColliderKey};
    /// let walls_only = QueryFilter::with_bits(u64::MAX, 0b10);
    /// let wall = Filter { category: 0b10, mask: u64::MAX };
    /// assert!(walls_only.accepts(ColliderKey::default(), &wall));
    /// assert!(!walls_only.accepts(ColliderKey::default(), &Filter::DEFAULT));
    /// ```
    #[inline]
    #[must_use]
    pub fn accepts(&self, key: ColliderKey, filter: &Filter) -> bool {
        let bits = Filter {
            category: self.category,
            mask: self.mask,
        };
        self.exclude != Some(key) && bits.interacts_with(filter)
    }
}
