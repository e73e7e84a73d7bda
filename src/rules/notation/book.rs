//! Opening books, read one way for `lancer match -openings`, `genfens` and
//! anything else that starts games from a file: EPD (a position a line, its EPD
//! operations dropped, a FEN's move counters kept) and PGN (each game's start and
//! its first moves), docs/formats.md.

use super::pgn;
use super::san::parse_san;
use crate::rules::variant::Variant;
use crate::rules::{Move, Position};

/// One line of a book: where it starts and the moves played from there.
#[derive(Clone)]
pub struct Opening {
    pub start: Position,
    pub moves: Vec<Move>,
}

/// The file formats of a book.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Epd,
    Pgn,
}

impl Format {
    /// `epd` or `pgn`, as `-openings format=` names them.
    pub fn from_name(name: &str) -> Result<Format, String> {
        match name {
            "epd" => Ok(Format::Epd),
            "pgn" => Ok(Format::Pgn),
            f => Err(format!("unknown format '{f}' (epd, pgn)")),
        }
    }
}

/// The lines of an EPD text that hold positions, with their line numbers (from
/// 1): not empty, not a `#` comment.
pub fn epd_lines(text: &str) -> Vec<(usize, String)> {
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim().to_string()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
        .collect()
}

/// The position fields of an EPD line: the text before the first `;`, with EPD
/// operations (`hmvc 0`, `bm e4`, `id "x"`) dropped after the four position fields,
/// and the two counters of a FEN kept.
pub fn epd_fields(line: &str) -> String {
    let fields: Vec<&str> = line
        .split(';')
        .next()
        .unwrap_or("")
        .split_whitespace()
        .collect();
    let counters = fields.len() >= 6
        && fields[4..6]
            .iter()
            .all(|f| !f.is_empty() && f.chars().all(|c| c.is_ascii_digit()));
    let keep = if counters { 6 } else { fields.len().min(4) };
    fields[..keep].join(" ")
}

/// The position of an EPD line in `v`, or failing that in `second` (chess's
/// Chess960, for a chess book of Chess960 setups as OpenBench's are); the error is
/// `v`'s.
pub fn epd_position(
    line: &str,
    v: &'static Variant,
    second: Option<&'static Variant>,
) -> Result<Position, String> {
    let efen = epd_fields(line);
    Position::from_efen(v, &efen)
        .or_else(|e| match second {
            Some(s) => Position::from_efen(s, &efen).map_err(|_| e),
            None => Err(e),
        })
        .map_err(|e| e.to_string())
}

/// Every opening of a book's `text` in `v`: EPD lines (errors name the line), or
/// PGN games (errors name the game), each game's start its `FEN` tag (else the
/// variant's start) and its first `plies` moves (all without a limit).
pub fn read(
    text: &str,
    format: Format,
    v: &'static Variant,
    second: Option<&'static Variant>,
    plies: Option<usize>,
) -> Result<Vec<Opening>, String> {
    let mut out = Vec::new();
    match format {
        Format::Epd => {
            for (number, line) in epd_lines(text) {
                let start = epd_position(&line, v, second).map_err(|e| format!("{number}: {e}"))?;
                out.push(Opening {
                    start,
                    moves: Vec::new(),
                });
            }
        }
        Format::Pgn => {
            for (i, g) in pgn::read(text).iter().enumerate() {
                let at = |e: String| format!("game {}: {e}", i + 1);
                let fen = g
                    .tag("FEN")
                    .map(str::to_string)
                    .unwrap_or_else(|| v.default_start_fen());
                let start = Position::from_efen(v, &fen).map_err(|e| at(e.to_string()))?;
                let mut p = start;
                let mut moves = Vec::new();
                for s in g.sans().iter().take(plies.unwrap_or(usize::MAX)) {
                    let m = parse_san(&p, s).map_err(|e| at(e.to_string()))?;
                    moves.push(m);
                    p.do_move(m);
                }
                out.push(Opening { start, moves });
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variants;

    #[test]
    fn epd_lines_give_their_position_fields() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";
        assert_eq!(epd_fields(&format!("{start} 0 1")), format!("{start} 0 1"));
        assert_eq!(epd_fields(&format!("{start} hmvc 0; fmvn 1;")), start);
        assert_eq!(epd_fields(&format!("{start} bm e4; id \"x\";")), start);
        assert_eq!(epd_fields(start), start);
        assert_eq!(
            epd_fields("bnkr/pppp/4/4/4/4/PPPP/BNKR[] w - - 0 1"),
            "bnkr/pppp/4/4/4/4/PPPP/BNKR[] w - - 0 1"
        );
        assert_eq!(epd_fields(""), "");
    }

    #[test]
    fn books_of_either_format_read_alike() {
        let vs: &'static Variants = Box::leak(Box::new(Variants::builtin()));
        let v = vs.get("chess").unwrap();
        let epd = "# two lines\nrnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - bm e5;\n\n";
        let e = read(epd, Format::Epd, v, None, None).unwrap();
        assert_eq!(e.len(), 1);
        let pgn = "[Event \"x\"]\n\n1. e4 e5 2. Nf3 *\n";
        let p = read(pgn, Format::Pgn, v, None, Some(1)).unwrap();
        assert_eq!(p.len(), 1);
        let mut after = p[0].start;
        after.do_move(p[0].moves[0]);
        assert_eq!(after.efen(), e[0].start.efen());
        let bad = read("# c\nnot a position\n", Format::Epd, v, None, None)
            .err()
            .unwrap();
        assert!(bad.starts_with("2: "), "{bad}");
        let bad = read("1. e4 Ke7 *\n", Format::Pgn, v, None, None)
            .err()
            .unwrap();
        assert!(bad.starts_with("game 1: "), "{bad}");
    }
}
