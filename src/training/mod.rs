//! Training: `lancer datagen` plays the games ([`datagen`]), [`data`] stores and reads
//! their positions with the one held-out rule, `lancer train` fits a network to them
//! ([`train`], the network in float in [`model`]) and `lancer tune` the hand-made
//! evaluation's weights ([`tune`]); both fit with [`optim`].

pub mod data;
pub mod datagen;
pub mod model;
pub mod optim;
mod teacher;
pub mod train;
pub mod tune;
