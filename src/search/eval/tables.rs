//! The per-variant evaluation tables (built by [`super::cache`] from the formulas
//! of [`super::material`] and [`super::pst`], read by the same terms).

use super::Score;
use crate::rules::piece::NKINDS;

/// Tables for one variant.
pub struct Tables {
    /// Square table per side, kind and square.
    pub pst: [[[Score; 64]; NKINDS]; 2],
    /// Piece value per kind.
    pub value: [Score; NKINDS],
}
