//! A compact binary form of a position, for training data (docs/formats.md, Data
//! files). Little-endian:
//!
//! | bytes | what |
//! |---|---|
//! | 8 | the occupied squares (bit = square, a1 = 0) |
//! | 1 per occupied square, lowest square first | kind (bits 0-3), colour (bit 4: black), state (bits 5-7: a lancer's facing, or 1 for a frozen bearer) |
//! | 1 | side to move (bit 0: black), whether hands follow (bit 1) |
//! | 4 | the castling partner squares (White king side, White queen side, Black's; 64 = none) |
//! | 1 | the en passant square (64 = none) |
//! | 2 | the half-move clock |
//! | 2 | the move number |
//! | with hands: 1 + 2 per entry | the number of non-empty hand entries, then each as colour (bit 4) and kind (bits 0-3), and the count |
//!
//! A chess position takes 8 + 32 + 10 = 50 bytes at the start, fewer as pieces go.

use super::bitboard::*;
use super::piece::*;
use super::position::Position;
use super::variant::{Goal, Variant};

impl Position {
    /// Appends the record of the position to `out`.
    pub fn write_record(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.occupied().to_le_bytes());
        for sq in squares(self.occupied()) {
            let p = self.piece_at(sq);
            let st = self.state_at(sq);
            let state = if p.kind() == Kind::Lancer {
                st & FACING_MASK
            } else {
                u8::from(st & FROZEN != 0)
            };
            out.push(p.kind() as u8 | (p.color() as u8) << 4 | state << 5);
        }
        let hands: Vec<(Color, Kind, u8)> = [Color::White, Color::Black]
            .into_iter()
            .flat_map(|c| ALL_KINDS.map(|k| (c, k, self.hand(c, k))))
            .filter(|e| e.2 > 0)
            .collect();
        out.push(self.side() as u8 | u8::from(!hands.is_empty()) << 1);
        out.extend_from_slice(&self.castle);
        out.push(self.ep);
        out.extend_from_slice(&self.halfmove.to_le_bytes());
        out.extend_from_slice(&self.fullmove.to_le_bytes());
        if !hands.is_empty() {
            out.push(hands.len() as u8);
            for (c, k, n) in hands {
                out.extend([k as u8 | (c as u8) << 4, n]);
            }
        }
    }

    /// Reads a record of variant `v` from the start of `b`; returns the position and
    /// the bytes it took. Every field is checked against the variant, so no bytes can
    /// make a position the rules cannot hold.
    pub fn read_record(v: &'static Variant, b: &[u8]) -> Result<(Position, usize), String> {
        let short = || "record cut short".to_string();
        let occ = u64::from_le_bytes(b.get(..8).ok_or_else(short)?.try_into().unwrap_or([0; 8]));
        if occ & !v.mask != 0 {
            return Err("a piece off the board".into());
        }
        let mut at = 8;
        let mut pos = Position::empty(v);
        for sq in squares(occ) {
            let x = *b.get(at).ok_or_else(short)?;
            at += 1;
            let kind = ALL_KINDS
                .get((x & 15) as usize)
                .copied()
                .filter(|&k| v.has(k))
                .ok_or_else(|| format!("kind {} is not in {}", x & 15, v.name))?;
            let color = Color::from_idx(((x >> 4) & 1) as usize);
            let state = x >> 5;
            let st = match kind {
                Kind::Lancer if v.facing_ok[sq as usize] & (1 << state) != 0 => state,
                Kind::Lancer => return Err(format!("a lancer facing {state} on {sq}")),
                Kind::Bearer if state <= 1 => state * FROZEN,
                _ if state == 0 => 0,
                _ => return Err(format!("a state {state} for a {}", kind.ini_name())),
            };
            let rank = sq / 8;
            if kind == Kind::Pawn && (rank == 0 || rank == v.height - 1) {
                return Err("a pawn on the first or last rank".into());
            }
            pos.put(sq, Piece::new(kind, color), st);
        }
        let flags = *b.get(at).ok_or_else(short)?;
        let fixed = b.get(at + 1..at + 10).ok_or_else(short)?;
        at += 10;
        if flags > 3 {
            return Err(format!("unknown flags {flags}"));
        }
        pos.set_side(Color::from_idx((flags & 1) as usize));
        for (slot, &sq) in fixed[..4].iter().enumerate() {
            if sq != NO_SQUARE && !v.on_board(sq) {
                return Err(format!("castling square {sq} is not on the board"));
            }
            pos.set_castle(slot, sq);
        }
        if fixed[4] != NO_SQUARE && !v.on_board(fixed[4]) {
            return Err(format!(
                "en passant square {} is not on the board",
                fixed[4]
            ));
        }
        pos.set_ep(fixed[4]);
        pos.halfmove = u16::from_le_bytes([fixed[5], fixed[6]]);
        pos.fullmove = u16::from_le_bytes([fixed[7], fixed[8]]).max(1);
        if flags & 2 != 0 {
            let n = *b.get(at).ok_or_else(short)? as usize;
            at += 1;
            for _ in 0..n {
                let e = b.get(at..at + 2).ok_or_else(short)?;
                at += 2;
                let kind = ALL_KINDS
                    .get((e[0] & 15) as usize)
                    .copied()
                    .filter(|&k| v.drops && v.has(k) && k != Kind::King && v.demote[k.idx()] == k)
                    .ok_or_else(|| format!("kind {} cannot be in hand", e[0] & 15))?;
                let color = Color::from_idx(((e[0] >> 4) & 1) as usize);
                for _ in 0..e[1].min(63) {
                    pos.add_to_hand(color, kind);
                }
            }
        }
        for c in [Color::White, Color::Black] {
            if popcount(pos.pieces(c)) > super::notation::efen::MAX_PIECES_PER_SIDE {
                return Err(format!("{} has too many pieces", c.name()));
            }
        }
        if v.goal == Goal::Checkmate
            && [Color::White, Color::Black]
                .iter()
                .any(|&c| popcount(pos.pieces_of(c, Kind::King)) != 1)
        {
            return Err("a side without exactly one king".into());
        }
        Ok((pos, at))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::ini::Variants;
    use crate::rules::moves::MoveList;
    use rand::{Rng, SeedableRng};

    #[test]
    fn records_read_back_as_the_same_position_in_every_variant() {
        let vs = Variants::builtin();
        let mut rng = rand::rngs::StdRng::seed_from_u64(9);
        for v in vs.all() {
            for _ in 0..8 {
                let mut pos = Position::from_efen(v, &v.random_start(&mut rng).unwrap()).unwrap();
                for _ in 0..120 {
                    let mut b = vec![7u8];
                    pos.write_record(&mut b);
                    b.push(99);
                    let (back, n) = Position::read_record(v, &b[1..]).unwrap();
                    assert_eq!(n, b.len() - 2, "{}", pos.efen());
                    assert_eq!(back.efen(), pos.efen());
                    assert_eq!(back.key, pos.key);
                    // Any cut is an error, never a panic.
                    for cut in 0..n {
                        assert!(Position::read_record(v, &b[1..1 + cut]).is_err());
                    }
                    let mut list = MoveList::new();
                    pos.legal_moves(&mut list);
                    if list.is_empty() || pos.outcome().is_some() {
                        break;
                    }
                    pos.do_move(list.as_slice()[rng.gen_range(0..list.len())]);
                }
            }
        }
    }

    #[test]
    fn random_bytes_are_refused_or_read_never_panic() {
        let vs = Variants::builtin();
        let mut rng = rand::rngs::StdRng::seed_from_u64(4);
        for v in vs.all() {
            for _ in 0..2000 {
                let len = rng.gen_range(0..60);
                let b: Vec<u8> = (0..len).map(|_| rng.gen()).collect();
                let _ = Position::read_record(v, &b);
            }
        }
    }
}
