//! Training: `lancer datagen` plays the games ([`datagen`]), [`data`] stores and reads
//! their positions with the one held-out rule, `lancer train` fits a network to them
//! ([`train`]) and `lancer tune` the hand-made evaluation's weights ([`tune`]).

pub mod data;
pub mod datagen;
pub mod train;
pub mod tune;
