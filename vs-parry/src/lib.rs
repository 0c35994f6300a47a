//! collide beside parry3d: the differential tests are in `tests/`, the
//! benchmark workloads in `benches/workloads.rs`. This library is empty.
