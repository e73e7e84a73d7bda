//! The opening list of `-openings`: an EPD or PGN book (`rules/notation/book.rs`)
//! read into start positions.

use super::*;
use crate::rules::notation::book;

/// Loads the opening list: (EFEN, moves).
pub(super) fn load_openings(
    o: &Openings,
    v: &'static Variant,
    rng: &mut rand::rngs::StdRng,
) -> Result<Vec<(String, Vec<Move>)>, String> {
    let format = book::Format::from_name(&o.format).map_err(|e| format!("-openings: {e}"))?;
    let text = std::fs::read_to_string(&o.file).map_err(|e| format!("{}: {e}", o.file))?;
    let mut out: Vec<(String, Vec<Move>)> = book::read(&text, format, v, None, o.plies)
        .map_err(|e| format!("{}:{e}", o.file))?
        .into_iter()
        .map(|op| (op.start.efen(), op.moves))
        .collect();
    if out.is_empty() {
        return Err(format!("{}: no openings", o.file));
    }
    if o.order == "random" {
        out.shuffle(rng);
    }
    Ok(out)
}
