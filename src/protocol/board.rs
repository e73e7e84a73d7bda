//! The `d` diagram: the board as text people can read at a glance.

use crate::rules::bitboard::*;
use crate::rules::notation::move_text;
use crate::rules::piece::*;
use crate::rules::{MoveList, Position};

const ARROWS: [char; 8] = ['↑', '↗', '→', '↘', '↓', '↙', '←', '↖'];

/// The diagram, then EFEN, side to move, checkers, held units, frozen bearers, hands,
/// legal move count.
pub fn diagram(pos: &Position) -> String {
    let v = pos.variant();
    let held = pos.held(Color::White) | pos.held(Color::Black);
    let mut s = String::new();
    let sep = format!("   +{}\n", "----+".repeat(v.width as usize));
    s.push_str(&sep);
    for r in (0..v.height).rev() {
        s.push_str(&format!(" {} |", r + 1));
        for f in 0..v.width {
            let sq = square(f, r);
            let cell = if !v.on_board(sq) {
                "####".to_string()
            } else {
                let p = pos.piece_at(sq);
                if p.is_none() {
                    "    ".to_string()
                } else {
                    let mut c = format!(" {}", v.piece_char(p));
                    c.push(if p.kind() == Kind::Lancer {
                        ARROWS[pos.facing_at(sq) as usize]
                    } else {
                        ' '
                    });
                    c.push(if held & bb(sq) != 0 {
                        '!'
                    } else if pos.frozen() & bb(sq) != 0 {
                        '~'
                    } else {
                        ' '
                    });
                    c
                }
            };
            s.push_str(&cell);
            s.push('|');
        }
        s.push('\n');
        s.push_str(&sep);
    }
    s.push_str("     ");
    for f in 0..v.width {
        s.push_str(&format!("{}    ", (b'a' + f) as char));
    }
    s.push('\n');
    s.push_str(
        "   (! held by a jailer, ~ frozen standard-bearer, #### hole, arrows: lancer facing)\n",
    );
    if v.drops {
        for c in [Color::White, Color::Black] {
            let mut h = String::new();
            for k in ALL_KINDS {
                for _ in 0..pos.hand(c, k) {
                    h.push(v.piece_char(Piece::new(k, c)));
                }
            }
            s.push_str(&format!("{} hand: [{h}]\n", c.name()));
        }
    }
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    let names = |b: Bitboard| -> String {
        let v: Vec<String> = squares(b).map(square_name).collect();
        if v.is_empty() {
            "-".into()
        } else {
            v.join(" ")
        }
    };
    // Stockfish's three lines first (tools read `Fen:` and `Key:`), then lancer's own.
    s.push_str(&format!("Fen: {}\n", pos.efen()));
    s.push_str(&format!("Key: {:016X}\n", pos.key()));
    s.push_str(&format!("Checkers: {}\n", names(pos.checkers())));
    s.push_str(&format!("EFEN: {}\n", pos.efen()));
    s.push_str(&format!("Side to move: {}\n", pos.side().name()));
    if v.has(Kind::Jailer) {
        s.push_str(&format!("Held: {}\n", names(held)));
    }
    if v.has(Kind::Bearer) {
        s.push_str(&format!("Frozen: {}\n", names(pos.frozen())));
    }
    let texts: Vec<String> = list.iter().map(|&m| move_text(pos, m)).collect();
    s.push_str(&format!(
        "Legal moves ({}): {}",
        list.len(),
        texts.join(" ")
    ));
    s
}
