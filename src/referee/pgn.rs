//! PGN: writing the referee's games, and replaying a PGN file with the rules core
//! (`lancer pgn-check`).

use crate::rules::notation::{parse_san, san};
use crate::rules::{Move, Position, Variants};

/// A finished game to write.
pub struct PgnGame<'a> {
    /// The seven-tag roster first (Event Site Date Round White Black Result), then
    /// the others.
    pub headers: Vec<(String, String)>,
    pub start: Position,
    /// Each move with its comment (`+0.26/13 0.63s`; the end reason joins the last).
    pub moves: &'a [(Move, String)],
    /// The result: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: &'a str,
    /// The end reason of a game without a move (cutechess's initial comment).
    pub initial_comment: Option<String>,
    /// `-pgnout F min`: the roster tags (plus FEN, SetUp and Variant) and bare moves.
    pub minimal: bool,
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The text of a move comment as cutechess writes it: score (`+0.26`, mates in
/// plies `+M3`/`-M3`), `/depth`, then the time with fewer decimals as it grows
/// (`0.004s`, `0.63s`, `1.2s`, `12s`). Empty when the engine told nothing and
/// moved within half a second.
pub fn eval_comment(score: Option<i32>, depth: Option<i32>, ms: i64) -> String {
    use super::engine::MATE_SCORE;
    let depth = depth.filter(|&d| d > 0);
    if score.is_none() && depth.is_none() && ms < 500 {
        return String::new();
    }
    let mut s = String::new();
    if let (Some(_), Some(sc)) = (depth, score) {
        let abs = sc.saturating_abs();
        if abs > MATE_SCORE - 200 {
            s.push_str(if sc > 0 { "+M" } else { "-M" });
            s.push_str(&(MATE_SCORE - abs).to_string());
        } else {
            if sc > 0 {
                s.push('+');
            }
            s.push_str(&format!("{:.2}", sc as f64 / 100.0));
        }
    }
    if let Some(d) = depth {
        s.push_str(&format!("/{d} "));
    }
    if ms <= 0 {
        s.push_str("0s");
        return s;
    }
    let decimals = match ms {
        0..=99 => 3,
        100..=999 => 2,
        1000..=9999 => 1,
        _ => 0,
    };
    s.push_str(&format!("{:.*}s", decimals, ms as f64 / 1000.0));
    s
}

/// The PGN text of a game (SAN per docs/notation.md, `{comment}` after each move), laid
/// out as cutechess lays it out: a move keeps its number and comment on its line,
/// and lines stay under 80 characters.
pub fn write(g: &PgnGame) -> String {
    let mut out = String::new();
    let tag = |out: &mut String, k: &str, v: &str| {
        let v = if v.is_empty() { "?" } else { v };
        out.push_str(&format!("[{k} \"{}\"]\n", escape(v)));
    };
    if g.minimal {
        let find = |k: &str| g.headers.iter().find(|(n, _)| n == k);
        for (k, v) in g.headers.iter().take(7) {
            tag(&mut out, k, v);
        }
        for k in ["FEN", "SetUp", "Variant"] {
            if let Some((k, v)) = find(k) {
                tag(&mut out, k, v);
            }
        }
    } else {
        for (k, v) in &g.headers {
            tag(&mut out, k, v);
        }
    }
    out.push('\n');
    let mut pos = g.start;
    let mut line_len = 0;
    if g.moves.is_empty() {
        if let Some(c) = &g.initial_comment {
            let c = format!("{{{c}}}");
            line_len = c.len();
            out.push_str(&c);
        }
    }
    for (i, (m, comment)) in g.moves.iter().enumerate() {
        let mut unit = String::new();
        if pos.side() == crate::rules::Color::White {
            unit.push_str(&format!("{}. ", pos.fullmove()));
        } else if i == 0 {
            unit.push_str(&format!("{}... ", pos.fullmove()));
        }
        unit.push_str(&san(&pos, *m));
        if !g.minimal && !comment.is_empty() {
            unit.push_str(&format!(" {{{comment}}}"));
        }
        if line_len == 0 {
            line_len = unit.len();
        } else if line_len + unit.len() >= 80 {
            out.push('\n');
            line_len = unit.len();
        } else {
            out.push(' ');
            line_len += unit.len() + 1;
        }
        out.push_str(&unit);
        pos.do_move(*m);
    }
    if line_len > 0 {
        out.push(if line_len + g.result.len() >= 80 {
            '\n'
        } else {
            ' '
        });
    }
    out.push_str(g.result);
    out.push_str("\n\n");
    out
}

/// One game read from a PGN file.
#[derive(Debug)]
pub struct ReadGame {
    pub headers: Vec<(String, String)>,
    pub sans: Vec<String>,
    pub result: String,
}

/// Splits PGN text into games (headers, SAN tokens, result); comments (`{...}` and
/// `;` to the end of the line), `%` escape lines, NAGs, variations and move numbers
/// are dropped.
pub fn read(text: &str) -> Vec<ReadGame> {
    let mut games = Vec::new();
    let mut cur = ReadGame {
        headers: Vec::new(),
        sans: Vec::new(),
        result: String::new(),
    };
    let mut in_moves = false;
    let mut depth_comment = 0;
    let mut depth_var = 0;
    for line in text.lines() {
        let l = line.trim();
        if depth_comment == 0 && depth_var == 0 && l.starts_with('[') && l.ends_with(']') {
            if in_moves {
                games.push(std::mem::replace(
                    &mut cur,
                    ReadGame {
                        headers: Vec::new(),
                        sans: Vec::new(),
                        result: String::new(),
                    },
                ));
                in_moves = false;
            }
            let inner = &l[1..l.len() - 1];
            if let Some((k, v)) = inner.split_once(' ') {
                let v = v.trim().trim_matches('"').replace("\\\"", "\"");
                cur.headers.push((k.to_string(), v));
            }
            continue;
        }
        // `%` opens an escape line (PGN 6: a line for other programs, ignored).
        if l.is_empty() || (l.starts_with('%') && depth_comment == 0) {
            continue;
        }
        in_moves = true;
        let mut tok = String::new();
        let flush = |tok: &mut String, cur: &mut ReadGame| {
            let t = std::mem::take(tok);
            if t.is_empty() {
                return;
            }
            if ["1-0", "0-1", "1/2-1/2", "*"].contains(&t.as_str()) {
                cur.result = t;
                return;
            }
            if t.starts_with('$') {
                return;
            }
            // Strip move numbers such as `12.` or `12...`.
            let t = t.trim_start_matches(|c: char| c.is_ascii_digit());
            let t = t.trim_start_matches('.');
            if !t.is_empty() {
                cur.sans.push(t.to_string());
            }
        };
        for c in l.chars() {
            match c {
                '{' => {
                    flush(&mut tok, &mut cur);
                    depth_comment += 1;
                }
                '}' => depth_comment = (depth_comment - 1).max(0),
                '(' if depth_comment == 0 => {
                    flush(&mut tok, &mut cur);
                    depth_var += 1;
                }
                ')' if depth_comment == 0 => depth_var = (depth_var - 1).max(0),
                // `;` comments out the rest of the line (PGN 5), braces included.
                ';' if depth_comment == 0 => break,
                _ if depth_comment > 0 || depth_var > 0 => {}
                c if c.is_whitespace() => flush(&mut tok, &mut cur),
                c => tok.push(c),
            }
        }
        flush(&mut tok, &mut cur);
    }
    if in_moves || !cur.headers.is_empty() {
        games.push(cur);
    }
    games
}

/// Replays every game of a PGN text; the error names the game and the first illegal move.
pub fn check(text: &str, variants: &Variants) -> Result<usize, String> {
    let games = read(text);
    for (i, g) in games.iter().enumerate() {
        let h = |k: &str| {
            g.headers
                .iter()
                .find(|(x, _)| x == k)
                .map(|(_, v)| v.clone())
        };
        let vname = h("Variant").unwrap_or_else(|| "chess".into());
        let v = variants
            .get(&vname)
            .ok_or_else(|| format!("game {}: unknown variant '{vname}'", i + 1))?;
        let fen = h("FEN").unwrap_or_else(|| v.default_start_fen());
        let mut pos =
            Position::from_efen(v, &fen).map_err(|e| format!("game {}: bad FEN: {e}", i + 1))?;
        for (j, s) in g.sans.iter().enumerate() {
            let m = parse_san(&pos, s).map_err(|e| {
                format!(
                    "game {} ({} vs {}), ply {}: {e} in {}",
                    i + 1,
                    h("White").unwrap_or_default(),
                    h("Black").unwrap_or_default(),
                    j + 1,
                    pos.efen()
                )
            })?;
            pos.do_move(m);
        }
    }
    Ok(games.len())
}
