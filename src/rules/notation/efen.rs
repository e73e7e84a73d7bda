//! EFEN (extended FEN) parsing and printing, with the validations of docs/notation.md, "EFEN".

use crate::rules::bitboard::*;
use crate::rules::piece::*;
use crate::rules::position::*;
use crate::rules::variant::*;

/// Most pieces a side may have on the board (no variant here can reach more).
pub const MAX_PIECES_PER_SIDE: u32 = 16;

const HAND_ORDER: [Kind; NKINDS] = [
    Kind::Queen,
    Kind::Rook,
    Kind::Lancer,
    Kind::Jailer,
    Kind::Bishop,
    Kind::ForwardBishop,
    Kind::Sentry,
    Kind::Knight,
    Kind::Windmill,
    Kind::Bearer,
    Kind::Pawn,
    Kind::King,
];

/// The state written in parentheses after piece letter `c` on `sq`: a lancer's
/// facing, or `f` for a frozen standard-bearer.
fn piece_state(v: &Variant, c: char, kind: Kind, sq: Square, inner: &str) -> Result<u8, String> {
    let name = square_name(sq);
    match kind {
        Kind::Lancer => {
            let fc = parse_facing(inner).ok_or_else(|| {
                format!("lancer on {name}: unknown facing '{inner}' (n ne e se s sw w nw)")
            })?;
            if v.facing_ok[sq as usize] & (1 << fc) == 0 {
                return Err(format!("lancer on {name} faces {inner}, off the board"));
            }
            Ok(fc)
        }
        Kind::Bearer if inner == "f" => Ok(FROZEN),
        _ => Err(format!("'{c}' on {name}: unexpected state '({inner})'")),
    }
}

impl Position {
    /// Parses an EFEN for `variant`; the error names the problem.
    pub fn from_efen(variant: &'static Variant, text: &str) -> Result<Position, String> {
        let v = variant;
        let mut fields = text.split_whitespace();
        let board_field = fields.next().ok_or("empty EFEN")?;
        let mut pos = Position::empty(v);
        let (board_part, hand_part) = match board_field.find('[') {
            Some(i) => {
                let h = &board_field[i + 1..];
                let h = h
                    .strip_suffix(']')
                    .ok_or_else(|| format!("hand '{}' lacks a closing ']'", &board_field[i..]))?;
                (&board_field[..i], Some(h))
            }
            None => (board_field, None),
        };
        let ranks: Vec<&str> = board_part.split('/').collect();
        if ranks.len() != v.height as usize {
            return Err(format!(
                "board has {} ranks, {} needs {}",
                ranks.len(),
                v.name,
                v.height
            ));
        }
        for (i, rank_text) in ranks.iter().enumerate() {
            pos.parse_rank(v.height - 1 - i as u8, rank_text)?;
        }
        if let Some(h) = hand_part {
            pos.parse_hand(h)?;
        }
        let side = fields.next().unwrap_or("w");
        pos.set_side(match side {
            "w" => Color::White,
            "b" => Color::Black,
            x => return Err(format!("side to move '{x}' is not w or b")),
        });
        pos.check_piece_counts()?;
        let castling = fields.next().unwrap_or("-");
        if castling != "-" {
            for ch in castling.chars() {
                pos.parse_castling_char(ch)?;
            }
        }
        let ep = fields.next().unwrap_or("-");
        if ep != "-" {
            let sq = parse_square(ep)
                .filter(|&s| v.on_board(s))
                .ok_or_else(|| format!("en passant square '{ep}' is not a square"))?;
            pos.parse_ep(sq)?;
        }
        if let Some(h) = fields.next() {
            pos.halfmove = h
                .parse()
                .map_err(|_| format!("halfmove clock '{h}' is not a number"))?;
        }
        if let Some(fm) = fields.next() {
            let n: u16 = fm
                .parse()
                .map_err(|_| format!("move number '{fm}' is not a number"))?;
            pos.fullmove = n.max(1);
        }
        if let Some(extra) = fields.next() {
            return Err(format!("unexpected text '{extra}' after the move number"));
        }
        if v.goal == Goal::Checkmate && pos.king_attacked(pos.side.flip()) {
            return Err(format!(
                "{} is not to move but its king is in check",
                pos.side.flip().name()
            ));
        }
        debug_assert_eq!(pos.key, pos.compute_key());
        Ok(pos)
    }

    /// Puts the pieces of one rank of the board field (`r` from 0 at the bottom).
    fn parse_rank(&mut self, r: u8, rank_text: &str) -> Result<(), String> {
        let v = self.variant;
        let rank_no = r + 1;
        let chars: Vec<char> = rank_text.chars().collect();
        let mut f: u32 = 0;
        let mut j = 0;
        while j < chars.len() {
            let c = chars[j];
            if c.is_ascii_digit() {
                let mut n = 0u32;
                while j < chars.len() && chars[j].is_ascii_digit() {
                    // Saturating: a run of digits must not overflow (it is an error below).
                    n = n
                        .saturating_mul(10)
                        .saturating_add(chars[j].to_digit(10).unwrap_or(0));
                    j += 1;
                }
                if n == 0 {
                    return Err(format!("rank {rank_no}: empty-square count 0"));
                }
                f = f.saturating_add(n);
                if f > v.width as u32 {
                    return Err(format!("rank {rank_no} is wider than {} files", v.width));
                }
                continue;
            }
            if f >= v.width as u32 {
                return Err(format!("rank {rank_no} is wider than {} files", v.width));
            }
            let sq = square(f as u8, r);
            let name = square_name(sq);
            if c == '*' {
                if v.on_board(sq) {
                    return Err(format!(
                        "'*' (hole) on {name}, which is a square of {}",
                        v.name
                    ));
                }
                f += 1;
                j += 1;
                continue;
            }
            let piece = v
                .piece_from_char(c)
                .ok_or_else(|| format!("unknown piece letter '{c}' for {}", v.name))?;
            if !v.on_board(sq) {
                return Err(format!("piece '{c}' on {name}, which is a hole"));
            }
            j += 1;
            let mut st = 0u8;
            let mut has_facing = false;
            if j < chars.len() && chars[j] == '(' {
                let close = chars[j..]
                    .iter()
                    .position(|&x| x == ')')
                    .ok_or_else(|| format!("'{c}' on {name}: '(' without ')'"))?;
                let inner: String = chars[j + 1..j + close].iter().collect();
                j += close + 1;
                st = piece_state(v, c, piece.kind(), sq, &inner)?;
                has_facing = piece.kind() == Kind::Lancer;
            }
            if j < chars.len() && chars[j] == '~' {
                j += 1;
            }
            if piece.kind() == Kind::Lancer && !has_facing {
                return Err(format!("lancer on {name} has no facing, e.g. {c}(n)"));
            }
            if piece.kind() == Kind::Pawn && (r == 0 || r == v.height - 1) {
                return Err(format!("pawn on {name}, on the first or last rank"));
            }
            self.put(sq, piece, st);
            f += 1;
        }
        if f != v.width as u32 {
            return Err(format!(
                "rank {rank_no} has {f} files, {} needs {}",
                v.name, v.width
            ));
        }
        Ok(())
    }

    /// Adds the pieces of the hand field (between the brackets) to the hands.
    fn parse_hand(&mut self, h: &str) -> Result<(), String> {
        let v = self.variant;
        if !v.drops && !h.is_empty() {
            return Err(format!("{} has no pieces in hand", v.name));
        }
        for c in h.chars() {
            let p = v
                .piece_from_char(c)
                .ok_or_else(|| format!("unknown piece letter '{c}' in hand"))?;
            let k = p.kind();
            if k == Kind::King || v.demote[k.idx()] != k {
                return Err(format!("'{c}' cannot be in hand in {}", v.name));
            }
            self.add_to_hand(p.color(), k);
        }
        Ok(())
    }

    /// One king a side (none for the side to move once a king-capture game is over),
    /// and at most [`MAX_PIECES_PER_SIDE`] pieces on the board.
    fn check_piece_counts(&self) -> Result<(), String> {
        let v = self.variant;
        for c in [Color::White, Color::Black] {
            let kings = popcount(self.pieces_of(c, Kind::King));
            // A king-capture game ends with the side to move's king gone.
            let captured = kings == 0 && v.goal == Goal::KingCapture && c == self.side;
            if kings != 1 && !captured {
                return Err(format!("{} has {kings} kings, needs exactly one", c.name()));
            }
            if popcount(self.pieces(c)) > MAX_PIECES_PER_SIDE {
                return Err(format!(
                    "{} has more than {MAX_PIECES_PER_SIDE} pieces on the board",
                    c.name()
                ));
            }
        }
        Ok(())
    }

    fn parse_castling_char(&mut self, ch: char) -> Result<(), String> {
        let v = self.variant;
        if v.castling == Castling::None {
            return Err(format!("{} has no castling (got '{ch}')", v.name));
        }
        let c = if ch.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let lc = ch.to_ascii_lowercase();
        let ksq = self.king_sq(c).ok_or("no king")?;
        let back = v.back_rank(c);
        let bad = || format!("castling right '{ch}' without king and partner in place");
        if rank_of(ksq) != back {
            return Err(bad());
        }
        let partners: Bitboard = (0..NKINDS)
            .filter(|k| v.castling_partners & (1 << k) != 0)
            .fold(0, |acc, k| acc | self.by_kind[k])
            & self.pieces(c)
            & v.rank_bb(back);
        let kf = file_of(ksq);
        let psq = match lc {
            'k' => {
                let side = partners & !(bb(ksq) | (bb(ksq) - 1));
                (side != 0).then(|| msb(side))
            }
            'q' => {
                let side = partners & (bb(ksq) - 1);
                (side != 0).then(|| lsb(side))
            }
            'a'..='h' => {
                let sq = square(lc as u8 - b'a', back);
                (partners & bb(sq) != 0 && file_of(sq) != kf).then_some(sq)
            }
            _ => return Err(format!("castling field: unknown letter '{ch}'")),
        }
        .ok_or_else(bad)?;
        let kingside = file_of(psq) > kf;
        if v.castling == Castling::Standard {
            let corner = if kingside { v.width - 1 } else { 0 };
            if kf != 4 || file_of(psq) != corner {
                return Err(bad());
            }
        }
        self.set_castle(c.idx() * 2 + usize::from(!kingside), psq);
        Ok(())
    }

    fn parse_ep(&mut self, sq: Square) -> Result<(), String> {
        let v = self.variant;
        let us = self.side;
        let them = us.flip();
        let (want_rank, pawn_sq, origin) = match us {
            Color::White => (v.height - 3, sq.wrapping_sub(8), sq.wrapping_add(8)),
            Color::Black => (2, sq.wrapping_add(8), sq.wrapping_sub(8)),
        };
        let name = square_name(sq);
        if rank_of(sq) != want_rank
            || self.pieces_of(them, Kind::Pawn) & bb(pawn_sq) == 0
            || self.occupied() & (bb(sq) | bb(origin)) != 0
        {
            return Err(format!(
                "en passant square {name} does not follow a pawn's double step"
            ));
        }
        self.set_ep(sq);
        if !self.ep_capture_legal() {
            self.set_ep(NO_SQUARE);
        }
        Ok(())
    }

    /// The EFEN of this position.
    pub fn efen(&self) -> String {
        let v = self.variant;
        let mut s = String::new();
        for r in (0..v.height).rev() {
            let mut empty = 0;
            for f in 0..v.width {
                let sq = square(f, r);
                let p = self.board[sq as usize];
                if (!v.on_board(sq) || !p.is_none()) && empty > 0 {
                    s.push_str(&empty.to_string());
                    empty = 0;
                }
                if !v.on_board(sq) {
                    s.push('*');
                } else if p.is_none() {
                    empty += 1;
                } else {
                    s.push(v.piece_char(p));
                    match p.kind() {
                        Kind::Lancer => {
                            s.push('(');
                            s.push_str(FACING_NAMES[self.facing_at(sq) as usize]);
                            s.push(')');
                        }
                        Kind::Bearer if self.frozen & bb(sq) != 0 => s.push_str("(f)"),
                        _ => {}
                    }
                }
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
            if r > 0 {
                s.push('/');
            }
        }
        if v.drops {
            s.push('[');
            for c in [Color::White, Color::Black] {
                for k in HAND_ORDER {
                    for _ in 0..self.hand(c, k) {
                        s.push(v.piece_char(Piece::new(k, c)));
                    }
                }
            }
            s.push(']');
        }
        s.push(' ');
        s.push(if self.side == Color::White { 'w' } else { 'b' });
        s.push(' ');
        let mut cs = String::new();
        for slot in 0..4 {
            let p = self.castle[slot];
            if p == NO_SQUARE {
                continue;
            }
            let white = slot < 2;
            let ch = if v.castling == Castling::Standard {
                if slot % 2 == 0 {
                    'k'
                } else {
                    'q'
                }
            } else {
                (b'a' + file_of(p)) as char
            };
            cs.push(if white { ch.to_ascii_uppercase() } else { ch });
        }
        s.push_str(if cs.is_empty() { "-" } else { &cs });
        s.push(' ');
        match self.legal_ep() {
            Some(ep) => s.push_str(&square_name(ep)),
            None => s.push('-'),
        }
        s.push_str(&format!(" {} {}", self.halfmove, self.fullmove));
        s
    }

    /// The en passant square when an en passant capture is legal.
    pub fn legal_ep(&self) -> Option<Square> {
        self.ep_capture_legal().then_some(self.ep)
    }
}
