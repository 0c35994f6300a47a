//! What the world stores per collider: in its tree leaf the hot part read
//! by every query (bounds, filter, user data, key), in its slot-map record
//! the cold part (shape, transform, the world shape derived from them), and
//! the view that joins them for the caller.

mod desc;
mod filter;
mod key;
mod placement;
mod record;
mod tables;
mod view;
mod world_shape;

pub use desc::ColliderDesc;
pub use filter::{Filter, QueryFilter};
pub use key::ColliderKey;
pub(crate) use placement::Placement;
pub(crate) use record::{ColliderRecord, NewCollider, Proxy};
pub(crate) use tables::RecordTables;
pub use view::ColliderRef;
pub(crate) use view::Colliders;
