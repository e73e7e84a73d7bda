//! What engines say and are told in text, apart from the processes: the scores of
//! UCI `info` and CECP thinking output on the referee's scale, and CECP's `edit`
//! mode for engines without `setboard`.

/// Scores the referee keeps are centipawns, except mates: ±(`MATE_SCORE` − plies to
/// the mate), cutechess's scale, so `+M3` can be written as cutechess writes it.
pub const MATE_SCORE: i32 = 1_000_000;

/// A UCI `score mate N` (moves; negative when the engine is mated) on the referee's
/// scale: mating in N moves is 2N−1 plies, being mated in N is 2N plies.
pub fn uci_mate_score(n: i32) -> i32 {
    match n {
        n if n > 0 => MATE_SCORE + 1 - 2 * n.min(MATE_SCORE / 4),
        n if n < 0 => -MATE_SCORE - 2 * n.max(-MATE_SCORE / 4),
        _ => 0,
    }
}

/// A CECP thinking-output score on the referee's scale: mates are written
/// 100000 + N (N moves to mate) and −100000 − N.
pub fn cecp_score(s: i64) -> i32 {
    const CECP_MATE: i64 = 100_000;
    let moves = s.abs() - CECP_MATE;
    if (1..100).contains(&moves) {
        let n = moves as i32;
        if s > 0 {
            uci_mate_score(n)
        } else {
            uci_mate_score(-n)
        }
    } else {
        s.clamp(-(MATE_SCORE as i64) / 2, MATE_SCORE as i64 / 2) as i32
    }
}

/// Reads the depth and score of a UCI `info` line into `score` and `depth` (kept
/// when the line has none).
pub(super) fn read_uci_info(line: &str, score: &mut Option<i32>, depth: &mut Option<i32>) {
    let toks: Vec<&str> = line.split_whitespace().collect();
    for i in 0..toks.len() {
        match toks[i] {
            "depth" => *depth = toks.get(i + 1).and_then(|x| x.parse().ok()),
            "cp" if i > 0 && toks[i - 1] == "score" => {
                *score = toks
                    .get(i + 1)
                    .and_then(|x| x.parse::<i64>().ok())
                    .map(|cp| cp.clamp(-(MATE_SCORE as i64) / 2, MATE_SCORE as i64 / 2) as i32)
            }
            "mate" if i > 0 && toks[i - 1] == "score" => {
                *score = toks
                    .get(i + 1)
                    .and_then(|x| x.parse::<i32>().ok())
                    .map(uci_mate_score)
            }
            _ => {}
        }
    }
}

/// CECP `edit` mode commands that set up an XBoard FEN, for engines without
/// `setboard` (as XBoard does it: a dummy move first when Black is to move, since
/// `edit` keeps the side to move; castling rights follow from the piece placement).
pub fn edit_commands(fen: &str, usermove: bool) -> Vec<String> {
    let mut f = fen.split_whitespace();
    let board = f.next().unwrap_or("");
    let black_to_move = f.next() == Some("b");
    let ranks: Vec<&str> = board.split('/').collect();
    let mut white = Vec::new();
    let mut black = Vec::new();
    for (i, rank) in ranks.iter().enumerate() {
        let r = ranks.len() - i;
        let mut file = 0u8;
        let mut digits = String::new();
        for c in rank.chars() {
            if c.is_ascii_digit() {
                digits.push(c);
                continue;
            }
            file += digits.parse::<u8>().unwrap_or(0);
            digits.clear();
            if c.is_ascii_alphabetic() {
                let sq = format!("{}{}{r}", c.to_ascii_uppercase(), (b'a' + file) as char);
                if c.is_ascii_uppercase() {
                    white.push(sq);
                } else {
                    black.push(sq);
                }
            }
            file += 1;
        }
    }
    let mut out = Vec::new();
    if black_to_move {
        out.push(if usermove { "usermove a2a3" } else { "a2a3" }.to_string());
    }
    out.push("edit".into());
    out.push("#".into());
    out.extend(white);
    out.push("c".into());
    out.extend(black);
    out.push(".".into());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_count_plies_as_cutechess_does() {
        assert_eq!(MATE_SCORE - uci_mate_score(1), 1);
        assert_eq!(MATE_SCORE - uci_mate_score(3), 5);
        assert_eq!(-MATE_SCORE - uci_mate_score(-3), -6);
        assert_eq!(uci_mate_score(0), 0);
        assert_eq!(cecp_score(100_003), uci_mate_score(3));
        assert_eq!(cecp_score(-100_002), uci_mate_score(-2));
        assert_eq!(cecp_score(-35), -35);
    }

    #[test]
    fn edit_mode_sets_up_a_fen() {
        let l = edit_commands("4k3/8/8/8/8/8/4P3/R3K3 b Q - 0 1", false);
        assert_eq!(
            l,
            ["a2a3", "edit", "#", "Pe2", "Ra1", "Ke1", "c", "Ke8", "."].map(String::from)
        );
        let l = edit_commands("rn2k3/8/8/8/8/8/8/4K2R w K - 0 1", true);
        assert_eq!(
            l,
            ["edit", "#", "Ke1", "Rh1", "c", "Ra8", "Nb8", "Ke8", "."].map(String::from)
        );
    }
}
