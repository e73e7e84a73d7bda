//! Numbered random setups.
//!
//! Chess960: the 960 setups in Scharnagl's numbering (518 = the standard position).
//!
//! Randomized 8-Piece Chess: White's back rank has the king between the rook and the
//! jailer and the bishop and sentry on squares of opposite colour; lancer, knight and
//! queen fill the rest; Black mirrors it; lancers face straight forward. The 7,680
//! setups are numbered `n = bs*240 + q*40 + kn*8 + l*2 + o` where
//! - `bs` (0..31): the bishop's file is `bs / 4`, the sentry stands on the `(bs % 4)`-th
//!   square (from the a-file) of the other colour;
//! - `q` (0..5), `kn` (0..4), `l` (0..3): queen, then knight, then lancer on that
//!   free square, counting free squares from the a-file;
//! - `o` (0..1): the three squares left get rook, king, jailer (`o = 0`) or jailer,
//!   king, rook (`o = 1`) from the a-file.
//!
//! The 8-Piece Chess arrangement `JLSQKBNR` is number 5147.

use super::piece::*;

/// Families of random back-rank setups.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum RandomSetup {
    /// The 960 Chess960 setups in Scharnagl numbering (518 is the standard one).
    Chess960,
    /// The 7,680 Randomized 8-Piece Chess setups (see this file's head).
    EightPiece,
}

/// How many setups a family has.
pub fn setup_count(r: RandomSetup) -> usize {
    match r {
        RandomSetup::Chess960 => 960,
        RandomSetup::EightPiece => 7680,
    }
}

/// The setup number used when no random choice is asked for.
pub fn default_index(r: RandomSetup) -> usize {
    match r {
        RandomSetup::Chess960 => 518,
        RandomSetup::EightPiece => 5147,
    }
}

fn place(rank: &mut [Option<Kind>; 8], nth: usize, k: Kind) {
    let mut i = 0;
    for slot in rank.iter_mut() {
        if slot.is_none() {
            if i == nth {
                *slot = Some(k);
                return;
            }
            i += 1;
        }
    }
}

/// White's back rank of setup `n`.
pub fn back_rank(r: RandomSetup, n: usize) -> Option<[Kind; 8]> {
    if n >= setup_count(r) {
        return None;
    }
    let mut rank: [Option<Kind>; 8] = [None; 8];
    match r {
        RandomSetup::Chess960 => {
            let mut n = n;
            rank[(n % 4) * 2 + 1] = Some(Kind::Bishop);
            n /= 4;
            rank[(n % 4) * 2] = Some(Kind::Bishop);
            n /= 4;
            place(&mut rank, n % 6, Kind::Queen);
            n /= 6;
            const KNIGHTS: [(usize, usize); 10] = [
                (0, 1),
                (0, 2),
                (0, 3),
                (0, 4),
                (1, 2),
                (1, 3),
                (1, 4),
                (2, 3),
                (2, 4),
                (3, 4),
            ];
            let (a, b) = KNIGHTS[n % 10];
            // Place the second knight first so the first one's index is not shifted.
            place(&mut rank, b, Kind::Knight);
            place(&mut rank, a, Kind::Knight);
            place(&mut rank, 0, Kind::Rook);
            place(&mut rank, 0, Kind::King);
            place(&mut rank, 0, Kind::Rook);
        }
        RandomSetup::EightPiece => {
            let bs = n / 240;
            let bf = bs / 4;
            rank[bf] = Some(Kind::Bishop);
            let other: Vec<usize> = (0..8).filter(|f| f % 2 != bf % 2).collect();
            rank[other[bs % 4]] = Some(Kind::Sentry);
            place(&mut rank, (n % 240) / 40, Kind::Queen);
            place(&mut rank, (n % 40) / 8, Kind::Knight);
            place(&mut rank, (n % 8) / 2, Kind::Lancer);
            let (a, c) = if n.is_multiple_of(2) {
                (Kind::Rook, Kind::Jailer)
            } else {
                (Kind::Jailer, Kind::Rook)
            };
            place(&mut rank, 0, a);
            place(&mut rank, 0, Kind::King);
            place(&mut rank, 0, c);
        }
    }
    let mut out = [Kind::Pawn; 8];
    for (o, k) in out.iter_mut().zip(rank.iter()) {
        *o = (*k)?;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chess960_518_is_standard() {
        let r = back_rank(RandomSetup::Chess960, 518).unwrap();
        use Kind::*;
        assert_eq!(r, [Rook, Knight, Bishop, Queen, King, Bishop, Knight, Rook]);
        let r = back_rank(RandomSetup::Chess960, 0).unwrap();
        assert_eq!(r, [Bishop, Bishop, Queen, Knight, Knight, Rook, King, Rook]);
    }

    #[test]
    fn eightpiece_5147_is_the_8_piece_arrangement() {
        use Kind::*;
        let r = back_rank(RandomSetup::EightPiece, 5147).unwrap();
        assert_eq!(
            r,
            [Jailer, Lancer, Sentry, Queen, King, Bishop, Knight, Rook]
        );
    }

    #[test]
    fn all_eightpiece_setups_distinct_and_valid() {
        let mut seen = std::collections::HashSet::new();
        for n in 0..7680 {
            let r = back_rank(RandomSetup::EightPiece, n).unwrap();
            let k = r.iter().position(|&x| x == Kind::King).unwrap();
            let rk = r.iter().position(|&x| x == Kind::Rook).unwrap();
            let j = r.iter().position(|&x| x == Kind::Jailer).unwrap();
            assert!((rk < k && k < j) || (j < k && k < rk));
            let b = r.iter().position(|&x| x == Kind::Bishop).unwrap();
            let s = r.iter().position(|&x| x == Kind::Sentry).unwrap();
            assert_ne!(b % 2, s % 2);
            assert!(seen.insert(r));
        }
        assert_eq!(seen.len(), 7680);
    }
}
