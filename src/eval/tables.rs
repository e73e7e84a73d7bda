//! The per-variant evaluation tables (built by [`super::cache`]): the weights, and the
//! square tables computed from them.

use super::params::Params;
use super::MgEg;
use crate::rules::piece::NKINDS;

/// Tables for one variant.
pub struct Tables {
    /// The weights.
    pub params: Params,
    /// Square table per side, kind and square.
    pub pst: [[[MgEg; 64]; NKINDS]; 2],
    /// Recent pawn structures' scores under these weights.
    pub pawns: super::pawns::PawnCache,
}
