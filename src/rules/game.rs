//! `Game`: a start position, the moves played from it and the keys of every
//! position seen, so that threefold repetition can be told.

use super::moves::Move;
use super::notation;
use super::outcome::{Outcome, Reason};
use super::position::Position;

/// A game: the start position, the moves and the keys seen (for repetition).
#[derive(Clone)]
pub struct Game {
    start: Position,
    pos: Position,
    moves: Vec<Move>,
    keys: Vec<u64>,
}

impl Game {
    /// A game from `start`.
    pub fn new(start: Position) -> Game {
        Game {
            start,
            pos: start,
            moves: Vec::new(),
            keys: vec![start.key()],
        }
    }
    /// The current position.
    pub fn position(&self) -> &Position {
        &self.pos
    }
    /// The start position.
    pub fn start(&self) -> &Position {
        &self.start
    }
    /// Moves played so far.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }
    /// Keys of every position so far, the current one last.
    pub fn keys(&self) -> &[u64] {
        &self.keys
    }
    /// Plays a move given as text (or SAN); rejects illegal ones.
    pub fn play_text(&mut self, tok: &str) -> Result<Move, notation::MoveError> {
        let m = notation::parse_move(&self.pos, tok)?;
        self.play(m);
        Ok(m)
    }
    /// Plays a legal move.
    pub fn play(&mut self, m: Move) {
        self.pos.do_move(m);
        self.moves.push(m);
        self.keys.push(self.pos.key());
    }
    /// Takes back the last move.
    pub fn undo(&mut self) -> Option<Move> {
        let m = self.moves.pop()?;
        self.keys.pop();
        let mut p = self.start;
        for &mv in &self.moves {
            p.do_move(mv);
        }
        self.pos = p;
        Some(m)
    }
    /// How often the current position has occurred (including now).
    pub fn repetitions(&self) -> usize {
        let k = self.pos.key();
        self.keys.iter().filter(|&&x| x == k).count()
    }
    /// The result, if the game is over (position rules first, then threefold repetition).
    pub fn outcome(&self) -> Option<Outcome> {
        self.pos.outcome().or_else(|| {
            (self.repetitions() >= 3).then_some(Outcome {
                winner: None,
                reason: Reason::Repetition,
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variants;

    #[test]
    fn threefold_repetition_ends_the_game() {
        let vs = Variants::builtin();
        let v = vs.get("chess").unwrap();
        let mut g = Game::new(Position::from_efen(v, &v.default_start_fen()).unwrap());
        for _ in 0..2 {
            for m in ["g1f3", "g8f6", "f3g1", "f6g8"] {
                assert!(g.outcome().is_none());
                g.play_text(m).unwrap();
            }
        }
        assert_eq!(g.repetitions(), 3);
        assert_eq!(g.outcome().map(|o| o.reason), Some(Reason::Repetition));
        g.undo();
        assert!(g.outcome().is_none());
        assert_eq!(
            g.position().efen(),
            "rnbqkb1r/pppppppp/5n2/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 7 4"
        );
    }
}
