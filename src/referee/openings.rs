//! The opening list of `-openings`: EPD or PGN lines read into start positions.

use super::*;

/// Loads the opening list: (EFEN, moves).
pub(super) fn load_openings(
    o: &Openings,
    v: &'static Variant,
    rng: &mut rand::rngs::StdRng,
) -> Result<Vec<(String, Vec<Move>)>, String> {
    let text = std::fs::read_to_string(&o.file).map_err(|e| format!("{}: {e}", o.file))?;
    let mut out = Vec::new();
    match o.format.as_str() {
        "epd" => {
            for (i, line) in text.lines().enumerate() {
                let l = line.split(';').next().unwrap_or("").trim();
                if l.is_empty() || l.starts_with('#') {
                    continue;
                }
                let p =
                    Position::from_efen(v, l).map_err(|e| format!("{}:{}: {e}", o.file, i + 1))?;
                out.push((p.efen(), Vec::new()));
            }
        }
        "pgn" => {
            for (i, g) in pgn::read(&text).iter().enumerate() {
                let fen = g
                    .tag("FEN")
                    .map(str::to_string)
                    .unwrap_or_else(|| v.default_start_fen());
                let mut p = Position::from_efen(v, &fen)
                    .map_err(|e| format!("{} game {}: {e}", o.file, i + 1))?;
                let mut moves = Vec::new();
                for s in g.sans().iter().take(o.plies.unwrap_or(usize::MAX)) {
                    let m =
                        parse_san(&p, s).map_err(|e| format!("{} game {}: {e}", o.file, i + 1))?;
                    moves.push(m);
                    p.do_move(m);
                }
                out.push((fen, moves));
            }
        }
        f => return Err(format!("-openings: unknown format '{f}' (epd, pgn)")),
    }
    if out.is_empty() {
        return Err(format!("{}: no openings", o.file));
    }
    if o.order == "random" {
        out.shuffle(rng);
    }
    Ok(out)
}
