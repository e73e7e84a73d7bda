//! XBoard's move highlighting: `lift` colours the squares a piece may reach, `put`
//! plays the move (a sentry capture in two clicks, a lancer's facing by a choice).

use super::*;

impl Session {
    /// Colour-FEN of the board with `mark` letters on some squares.
    pub(super) fn colour_fen(&self, marks: &[(u8, char)]) -> String {
        let v = self.engine.variant();
        let mut ranks = Vec::new();
        for r in (0..v.height).rev() {
            let mut s = String::new();
            let mut empty = 0;
            for f in 0..v.width {
                let sq = square(f, r);
                match marks.iter().find(|(q, _)| *q == sq) {
                    Some((_, c)) => {
                        if empty > 0 {
                            s.push_str(&empty.to_string());
                            empty = 0;
                        }
                        s.push(*c);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
            ranks.push(s);
        }
        ranks.join("/")
    }

    pub(super) fn lift(&mut self, line: &str, sq: &str) {
        let pos = *self.engine.position();
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        // A piece lifted from the holdings (`lift P@`): its drop squares.
        if let Some(letter) = sq.strip_suffix('@').filter(|l| l.chars().count() == 1) {
            let v = pos.variant();
            let l = letter.to_ascii_uppercase();
            let marks: Vec<(u8, char)> = list
                .iter()
                .filter(|m| {
                    m.move_type() == MoveType::Drop
                        && m.kind()
                            .is_some_and(|k| v.letters[k.idx()].to_string() == l)
                })
                .map(|m| (m.to(), 'Y'))
                .collect();
            self.lifted = None;
            out(&format!("highlight {}", self.colour_fen(&marks)));
            return;
        }
        let Some(from) = parse_square(sq) else {
            return error("bad square", line);
        };
        let mut marks: Vec<(u8, char)> = Vec::new();
        let add = |sq: u8, c: char, marks: &mut Vec<(u8, char)>| {
            if let Some(e) = marks.iter_mut().find(|(q, _)| *q == sq) {
                // Several moves to one square: cyan (another leg) wins, then magenta (a
                // choice follows); repeated plain targets (castling with or without a
                // lancer turn, displacement squares) stay plain.
                for k in ['C', 'B', 'M'] {
                    if e.1 == k || c == k {
                        e.1 = k;
                        break;
                    }
                }
            } else {
                marks.push((sq, c));
            }
        };
        if let Some((lfrom, victim)) = self.leg.filter(|&(_, v)| v == from) {
            // Second leg of a sentry capture: the landing square.
            for &m in list.iter() {
                if m.move_type() == MoveType::SentryCapture && m.from() == lfrom && m.to() == victim
                {
                    add(m.aux(), 'Y', &mut marks);
                }
            }
            out(&format!("highlight {}", self.colour_fen(&marks)));
            return;
        }
        self.lifted = Some(from);
        self.leg = None;
        for &m in list.iter() {
            if m.from() != from || matches!(m.move_type(), MoveType::Drop | MoveType::Pass) {
                continue;
            }
            match m.move_type() {
                MoveType::SentryCapture => add(m.to(), 'C', &mut marks),
                MoveType::SentryEdge => add(m.to(), 'B', &mut marks),
                MoveType::Castle => {
                    let (kto, _) = pos.castle_targets(from, m.to());
                    add(kto, 'Y', &mut marks);
                }
                MoveType::Promotion => add(m.to(), 'M', &mut marks),
                _ => {
                    let capture = !pos.piece_at(m.to()).is_none();
                    let turns = m.facing().is_some_and(|f| f != pos.facing_at(from));
                    let c = if turns {
                        'M'
                    } else if capture {
                        'R'
                    } else {
                        'Y'
                    };
                    add(m.to(), c, &mut marks);
                }
            }
        }
        out(&format!("highlight {}", self.colour_fen(&marks)));
    }

    pub(super) fn put(&mut self, line: &str, sq: &str) {
        let Some(to) = parse_square(sq) else {
            return error("bad square", line);
        };
        let Some(from) = self.lifted else {
            return error("no piece lifted", line);
        };
        let pos = *self.engine.position();
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        let mut letters = String::new();
        let mut push = |c: char| {
            if !letters.contains(c) {
                letters.push(c);
            }
        };
        let keep = pos.facing_at(from);
        let is_lancer = pos.piece_at(from).kind() == Kind::Lancer;
        if is_lancer
            && list
                .iter()
                .any(|m| m.from() == from && m.to() == to && m.facing() == Some(keep))
        {
            push(FACING_LETTERS[keep as usize].to_ascii_uppercase());
        }
        let v = pos.variant();
        for &m in list.iter() {
            if m.from() != from || m.to() != to {
                continue;
            }
            match (m.move_type(), m.kind(), m.facing()) {
                (MoveType::SentryCapture, _, _) => {
                    self.leg = Some((from, to));
                }
                (MoveType::SentryEdge, _, _) => push(VANISH.to_ascii_uppercase()),
                (MoveType::Promotion, Some(k), None) => push(v.letters[k.idx()]),
                (MoveType::Promotion, _, Some(f)) | (MoveType::Normal, _, Some(f)) => {
                    push(FACING_LETTERS[f as usize].to_ascii_uppercase())
                }
                _ => {}
            }
        }
        if !letters.is_empty() {
            out(&format!("choice {letters}"));
        }
    }
}
