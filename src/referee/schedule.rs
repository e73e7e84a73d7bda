//! The games of a match, made one at a time as the workers ask.

use super::*;

pub(super) struct Job {
    pub(super) number: u64,
    pub(super) round: u32,
    pub(super) white: usize,
    pub(super) black: usize,
    pub(super) fen: String,
    pub(super) moves: Vec<Move>,
}

/// The games of a match, made one at a time as workers ask, so a long match is
/// never held in memory: rounds, then the pairs of the tournament, then the games
/// of a pair (colours alternate; with `-repeat` or a random-setup variant, each
/// start position serves two games; `policy=encounter` keeps it for a pair's games
/// of the round, `policy=round` for every game of the round).
pub(super) struct Schedule {
    pub(super) variant: &'static Variant,
    pub(super) pairs: Vec<(usize, usize)>,
    pub(super) rounds: u32,
    pub(super) games: u32,
    pub(super) repeat: bool,
    pub(super) policy: Policy,
    pub(super) openings: Option<Vec<(String, Vec<Move>)>>,
    pub(super) opening_idx: usize,
    pub(super) rng: rand::rngs::StdRng,
    pub(super) round: u32,
    pub(super) pair: usize,
    pub(super) game: u32,
    pub(super) current: Option<(String, Vec<Move>)>,
    pub(super) number: u64,
}

impl Schedule {
    pub(super) fn next(&mut self) -> Result<Option<Job>, String> {
        if self.round > self.rounds || self.pairs.is_empty() {
            return Ok(None);
        }
        let (a, b) = self.pairs[self.pair];
        let g = self.game;
        let shift = match self.policy {
            Policy::Default => !self.repeat || g.is_multiple_of(2),
            Policy::Encounter | Policy::Round => false,
        };
        if shift || self.current.is_none() {
            self.current = Some(match &self.openings {
                Some(list) => {
                    let o = list[self.opening_idx % list.len()].clone();
                    self.opening_idx += 1;
                    o
                }
                None => (self.variant.random_start(&mut self.rng)?, Vec::new()),
            });
        }
        let (fen, moves) = self.current.clone().unwrap_or_default();
        // Colours alternate game by game within the encounter.
        let (white, black) = if g.is_multiple_of(2) { (a, b) } else { (b, a) };
        self.number += 1;
        let job = Job {
            number: self.number,
            round: self.round,
            white,
            black,
            fen,
            moves,
        };
        self.game += 1;
        if self.game == self.games {
            self.game = 0;
            if self.policy != Policy::Round {
                self.current = None;
            }
            self.pair += 1;
            if self.pair == self.pairs.len() {
                self.pair = 0;
                self.round += 1;
                self.current = None;
            }
        }
        Ok(Some(job))
    }
}
