//! PGN: writing the referee's games, and replaying a PGN file with the rules core
//! (`lancer pgn-check`).

use crate::rules::notation::{parse_san, san};
use crate::rules::{Move, Position, Variants};

/// A finished game to write.
pub struct PgnGame<'a> {
    pub headers: Vec<(String, String)>,
    pub start: Position,
    pub moves: &'a [(Move, String)],
    pub result: &'a str,
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The PGN text of a game (SAN per NOTATION.md, `{comment}` after each move).
pub fn write(g: &PgnGame) -> String {
    let mut out = String::new();
    for (k, v) in &g.headers {
        out.push_str(&format!("[{k} \"{}\"]\n", escape(v)));
    }
    out.push('\n');
    let mut pos = g.start;
    let mut line = String::new();
    let mut tokens = Vec::new();
    for (i, (m, comment)) in g.moves.iter().enumerate() {
        if pos.side() == crate::rules::Color::White {
            tokens.push(format!("{}.", pos.fullmove()));
        } else if i == 0 {
            tokens.push(format!("{}...", pos.fullmove()));
        }
        tokens.push(san(&pos, *m));
        if !comment.is_empty() {
            tokens.push(format!("{{{comment}}}"));
        }
        pos.do_move(*m);
    }
    tokens.push(g.result.to_string());
    for t in tokens {
        if !line.is_empty() && line.len() + 1 + t.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&t);
    }
    out.push_str(&line);
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

/// Splits PGN text into games (headers, SAN tokens, result); comments, NAGs,
/// variations and move numbers are dropped.
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
        if l.is_empty() || l.starts_with('%') {
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
