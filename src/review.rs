//! A game review, as an analysis board gives it: one search per position of the
//! main line, whose score is both that position's evaluation and what the move
//! before it is measured against; each move's loss in winning chances by the
//! variant's win/draw/loss model, marked `?!`, `?` or `??`; the best line where a
//! move lost; and a summary per side. `lancer annotate` writes it into a PGN, the
//! web board draws it (docs/cli.md, `lancer annotate`).

use crate::engine::{self, Engine, Info, Limits, Score};
use crate::rules::notation::pgn::{self, PgnGame};
use crate::rules::notation::san;
use crate::rules::tree::{NodeId, ROOT};
use crate::rules::{Color, Game, Move, Outcome, Position};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// A loss of winning chances (W − L of the variant's model, from −1 to 1) from
/// which a move is an inaccuracy, a mistake, a blunder: lichess's numbers, on
/// lancer's model instead of lichess's logistic curve.
pub const THRESHOLDS: [f64; 3] = [0.1, 0.2, 0.3];
/// Scores are capped here when centipawn losses are counted (a mate counts as
/// this), so one lost won position does not swamp a side's average.
pub const CP_CAP: i32 = 1000;
/// Most plies of a best line written as a variation.
pub const LINE_PLIES: usize = 10;

/// What a move that lost winning chances is called.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Judgment {
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Judgment {
    /// Its NAG: 6 (`?!`), 2 (`?`), 4 (`??`).
    pub fn nag(self) -> u8 {
        match self {
            Judgment::Inaccuracy => 6,
            Judgment::Mistake => 2,
            Judgment::Blunder => 4,
        }
    }

    /// Its symbol: `?!`, `?`, `??`.
    pub fn symbol(self) -> &'static str {
        pgn::nag_glyph(self.nag()).unwrap_or("")
    }

    /// Its name: `Inaccuracy`, `Mistake`, `Blunder`.
    pub fn word(self) -> &'static str {
        match self {
            Judgment::Inaccuracy => "Inaccuracy",
            Judgment::Mistake => "Mistake",
            Judgment::Blunder => "Blunder",
        }
    }

    /// The judgment of a loss of winning chances, if it is one.
    pub fn of_loss(loss: f64) -> Option<Judgment> {
        if loss >= THRESHOLDS[2] {
            Some(Judgment::Blunder)
        } else if loss >= THRESHOLDS[1] {
            Some(Judgment::Mistake)
        } else if loss >= THRESHOLDS[0] {
            Some(Judgment::Inaccuracy)
        } else {
            None
        }
    }
}

/// One position's evaluation.
#[derive(Clone, Debug)]
pub struct PositionEval {
    /// The score from the side to move's view; a finished game's is its result
    /// ([`Score::WON`], [`Score::LOST`], [`Score::DRAW`]).
    pub score: Score,
    pub side: Color,
    /// The game ply (the model's chances depend on it).
    pub ply: u32,
    pub depth: i32,
    /// The best lines found, the best first (empty when the game is over).
    pub lines: Vec<Vec<Move>>,
    /// The game ended here: nothing was searched.
    pub outcome: Option<Outcome>,
}

impl PositionEval {
    /// The evaluation of a finished game.
    fn finished(pos: &Position, o: Outcome) -> PositionEval {
        let score = match o.winner {
            Some(c) if c == pos.side() => Score::WON,
            Some(_) => Score::LOST,
            None => Score::DRAW,
        };
        PositionEval {
            score,
            side: pos.side(),
            ply: pos.game_ply(),
            depth: 0,
            lines: Vec::new(),
            outcome: Some(o),
        }
    }

    /// The score from `side`'s view.
    pub fn score_for(&self, side: Color) -> Score {
        self.score.for_side(self.side, side)
    }

    /// The score from White's view.
    pub fn white(&self) -> Score {
        self.score_for(Color::White)
    }

    /// The evaluation as a PGN comment writes it, from White's view: pawns (`0.17`,
    /// `-1.5`) or moves to mate (`#3`, `#-3`); a finished game: its result.
    pub fn text(&self) -> String {
        if let Some(o) = self.outcome {
            return o.score().to_string();
        }
        eval_text(self.white())
    }

    /// The chances of `side`, W − L from −1 to 1, by `pos`'s variant's model.
    pub fn chances(&self, pos: &Position, side: Color) -> f64 {
        let mine = match self.outcome {
            Some(o) => match o.winner {
                Some(c) if c == self.side => 1.0,
                Some(_) => -1.0,
                None => 0.0,
            },
            None => {
                let [w, _, l] = engine::wdl(pos.variant(), self.score, self.ply);
                (w as f64 - l as f64) / 1000.0
            }
        };
        if side == self.side {
            mine
        } else {
            -mine
        }
    }

    /// The score from `side`'s view in centipawns capped at ±[`CP_CAP`].
    fn capped(&self, side: Color) -> i32 {
        self.score_for(side).capped(CP_CAP)
    }
}

/// A score from White's view as `[%eval]` writes it: `0.17`, `-1.5`, `#3`, `#-3`.
pub fn eval_text(white: Score) -> String {
    let cp = match white.mate_in() {
        Some(m) if m > 0 => return format!("#{m}"),
        Some(m) => return format!("#-{}", -m),
        None => white.capped(i32::MAX),
    };
    let mut s = format!("{:.2}", cp as f64 / 100.0);
    while s.ends_with('0') && !s.ends_with(".0") {
        s.pop();
    }
    if s == "-0.0" {
        s = "0.0".into();
    }
    s
}

/// A move measured against the position before it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveReview {
    /// Winning chances lost (0 to 2).
    pub loss: f64,
    /// Centipawns lost, scores capped at ±[`CP_CAP`].
    pub cp_loss: i32,
    pub judgment: Option<Judgment>,
}

/// Judges the move `m` played in `before` (evaluated `eb`), which led to a
/// position evaluated `ea`. The move the search found best loses nothing.
pub fn judge(before: &Position, eb: &PositionEval, m: Move, ea: &PositionEval) -> MoveReview {
    let mover = before.side();
    let best = eb.lines.first().and_then(|l| l.first()) == Some(&m);
    if best {
        return MoveReview {
            loss: 0.0,
            cp_loss: 0,
            judgment: None,
        };
    }
    let after = before.after(m);
    let loss = (eb.chances(before, mover) - ea.chances(&after, mover)).max(0.0);
    let cp_loss = (eb.capped(mover) - ea.capped(mover)).max(0);
    MoveReview {
        loss,
        cp_loss,
        judgment: Judgment::of_loss(loss),
    }
}

/// One side's moves in a review.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SideSummary {
    pub inaccuracies: usize,
    pub mistakes: usize,
    pub blunders: usize,
    pub moves: usize,
    pub cp_loss: i64,
}

impl SideSummary {
    fn add(&mut self, r: &MoveReview) {
        self.moves += 1;
        self.cp_loss += r.cp_loss as i64;
        match r.judgment {
            Some(Judgment::Inaccuracy) => self.inaccuracies += 1,
            Some(Judgment::Mistake) => self.mistakes += 1,
            Some(Judgment::Blunder) => self.blunders += 1,
            None => {}
        }
    }

    /// The average centipawn loss a move (0 without moves).
    pub fn average_loss(&self) -> f64 {
        self.cp_loss as f64 / self.moves.max(1) as f64
    }

    /// `2 inaccuracies, 1 mistake, 0 blunders, average centipawn loss 35`.
    pub fn text(&self) -> String {
        let n =
            |k: usize, one: &str, many: &str| format!("{k} {}", if k == 1 { one } else { many });
        format!(
            "{}, {}, {}, average centipawn loss {:.0}",
            n(self.inaccuracies, "inaccuracy", "inaccuracies"),
            n(self.mistakes, "mistake", "mistakes"),
            n(self.blunders, "blunder", "blunders"),
            self.average_loss()
        )
    }
}

/// A reviewed line: each position's evaluation (one more than the moves), each
/// move's judgment, and the summary of each side (White first).
#[derive(Clone, Debug, Default)]
pub struct Review {
    pub positions: Vec<PositionEval>,
    pub moves: Vec<MoveReview>,
    pub sides: [SideSummary; 2],
}

impl Review {
    /// `White: ...; Black: ...` (see [`SideSummary::text`]).
    pub fn summary(&self) -> String {
        format!(
            "White: {}. Black: {}.",
            self.sides[0].text(),
            self.sides[1].text()
        )
    }
}

/// How long each position is searched: a time or a depth, and how many lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    pub movetime: Option<u64>,
    pub depth: Option<i32>,
    pub multipv: usize,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            movetime: Some(200),
            depth: None,
            multipv: 1,
        }
    }
}

/// Searches the engine's current position once within `budget`.
pub fn evaluate(engine: &mut Engine, budget: Budget) -> Result<PositionEval, String> {
    let pos = *engine.position();
    let lines: Arc<Mutex<Vec<Option<Info>>>> = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&lines);
    engine.set_multipv(budget.multipv.max(1));
    let limits = Limits {
        movetime: budget.movetime,
        depth: budget.depth,
        ..Limits::default()
    };
    let r = engine.analyse(
        limits,
        Box::new(move |_, i| {
            if i.currmove.is_some() || i.multipv == 0 || i.pv.is_empty() {
                return;
            }
            if let Ok(mut l) = sink.lock() {
                if l.len() < i.multipv {
                    l.resize(i.multipv, None);
                }
                l[i.multipv - 1] = Some(i.clone());
            }
        }),
    )?;
    let found: Vec<Vec<Move>> = lines
        .lock()
        .map(|l| {
            l.iter()
                .flatten()
                .map(|i| i.pv.clone())
                .filter(|pv| pv.first().is_some_and(|&m| pos.is_legal(m)))
                .collect()
        })
        .unwrap_or_default();
    let mut lines = found;
    // The best move leads, whatever the last report of line 1 said.
    if let Some(best) = r.best {
        if lines.first().and_then(|l| l.first()) != Some(&best) {
            lines.retain(|l| l.first() != Some(&best));
            lines.insert(0, vec![best]);
        }
    }
    Ok(PositionEval {
        score: r.score,
        side: pos.side(),
        ply: pos.game_ply(),
        depth: r.depth,
        lines,
        outcome: None,
    })
}

/// Reviews the line `moves` from `start`: each position searched once, in order,
/// on `engine` (its variant must be `start`'s). `step` hears of each position as
/// it is done (its index, evaluation and the judgment of the move that led to
/// it). Stops with an error when `cancel` is set.
pub fn review(
    engine: &mut Engine,
    start: &Position,
    moves: &[Move],
    budget: Budget,
    cancel: &AtomicBool,
    mut step: impl FnMut(usize, &PositionEval, Option<&MoveReview>),
) -> Result<Review, String> {
    engine.set_start(*start);
    let mut game = Game::new(*start);
    let mut out = Review::default();
    let mut before = *start;
    for i in 0..=moves.len() {
        if cancel.load(Ordering::SeqCst) {
            return Err("the review was stopped".into());
        }
        let pos = *game.position();
        let eval = match game.outcome() {
            Some(o) => PositionEval::finished(&pos, o),
            None => evaluate(engine, budget)?,
        };
        let judged = if i > 0 {
            let r = judge(&before, &out.positions[i - 1], moves[i - 1], &eval);
            out.sides[before.side().idx()].add(&r);
            out.moves.push(r);
            out.moves.last()
        } else {
            None
        };
        step(i, &eval, judged);
        out.positions.push(eval);
        if let Some(&m) = moves.get(i) {
            if !game.position().is_legal(m) || game.outcome().is_some() {
                return Err(format!("move {}: not playable in {}", i + 1, pos.efen()));
            }
            before = pos;
            game.play(m);
            engine.play(m);
        }
    }
    Ok(out)
}

/// Takes `[%eval ...]` out of a comment.
fn strip_eval(comment: &str) -> String {
    let mut out = comment.to_string();
    while let Some(i) = out.find("[%eval") {
        let end = out[i..].find(']').map_or(out.len(), |e| i + e + 1);
        out.replace_range(i..end, "");
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn join(parts: &[&str]) -> String {
    parts
        .iter()
        .filter(|p| !p.is_empty())
        .copied()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Writes `review` (of `game`'s main line) into the game: each position's
/// `[%eval]` (the start's before the first move, with the summary), each judged
/// move's NAG and `Mistake. Nf3 was best.`, and the best lines as variations
/// where a move was a mistake or a blunder; an `Annotator` tag. Old `[%eval]`
/// comments and move-quality NAGs (1 to 6) of the main line are replaced.
pub fn annotate(game: &mut PgnGame, review: &Review, annotator: &str) {
    let line = game.tree.mainline();
    let root = game.tree.node(ROOT).comment.clone();
    if let Some(e) = review.positions.first() {
        let eval = format!("[%eval {}]", e.text());
        let summary = format!("{annotator}: {}", review.summary());
        game.tree.node_mut(ROOT).comment = join(&[&eval, &summary, &strip_eval(&root)]);
    }
    let mut pos = game.start;
    for (i, &id) in line.iter().enumerate() {
        let Some(m) = game.tree.node(id).mv else {
            break;
        };
        let before = pos;
        pos.do_move(m);
        let (Some(eval), Some(judged), Some(prev)) = (
            review.positions.get(i + 1),
            review.moves.get(i),
            review.positions.get(i),
        ) else {
            break;
        };
        let eval_part = if eval.outcome.is_some() {
            String::new()
        } else {
            format!("[%eval {}]", eval.text())
        };
        let best = prev.lines.first().and_then(|l| l.first()).copied();
        let verdict = match (judged.judgment, best) {
            (Some(j), Some(b)) => format!("{}. {} was best.", j.word(), san(&before, b)),
            (Some(j), None) => format!("{}.", j.word()),
            _ => String::new(),
        };
        let node = game.tree.node_mut(id);
        let old = strip_eval(&node.comment);
        node.comment = join(&[&eval_part, &verdict, &old]);
        node.nags.retain(|&n| !(1..=6).contains(&n));
        if let Some(j) = judged.judgment {
            node.nags.insert(0, j.nag());
        }
        if matches!(judged.judgment, Some(Judgment::Mistake | Judgment::Blunder)) {
            let parent = game.tree.node(id).parent.unwrap_or(ROOT);
            for l in &prev.lines {
                add_line(game, parent, &before, l);
            }
        }
    }
    game.tags.retain(|(k, _)| k != "Annotator");
    game.tags.push(("Annotator".into(), annotator.into()));
}

/// Adds `line` (played from `pos`) as a variation after `parent`, unless the
/// position already has a continuation with its first move.
fn add_line(game: &mut PgnGame, parent: NodeId, pos: &Position, line: &[Move]) {
    let Some(&first) = line.first() else { return };
    if game
        .tree
        .node(parent)
        .children
        .iter()
        .any(|&c| game.tree.node(c).mv == Some(first))
    {
        return;
    }
    let mut p = *pos;
    let mut at = parent;
    for &m in line.iter().take(LINE_PLIES) {
        if !p.is_legal(m) {
            break;
        }
        at = game.tree.push(at, m);
        p.do_move(m);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evals_are_written_as_lichess_writes_them() {
        assert_eq!(eval_text(Score::cp(17)), "0.17");
        assert_eq!(eval_text(Score::cp(-150)), "-1.5");
        assert_eq!(eval_text(Score::cp(300)), "3.0");
        assert_eq!(eval_text(Score::cp(0)), "0.0");
        assert_eq!(eval_text(Score::mate_after(5)), "#3");
        assert_eq!(eval_text(Score::mated_after(4)), "#-2");
    }

    #[test]
    fn losses_are_judged_by_the_thresholds() {
        assert_eq!(Judgment::of_loss(0.05), None);
        assert_eq!(Judgment::of_loss(0.1), Some(Judgment::Inaccuracy));
        assert_eq!(Judgment::of_loss(0.25), Some(Judgment::Mistake));
        assert_eq!(Judgment::of_loss(0.9), Some(Judgment::Blunder));
        assert_eq!(Judgment::Blunder.symbol(), "??");
        assert_eq!(Judgment::Inaccuracy.symbol(), "?!");
        let s = SideSummary {
            inaccuracies: 1,
            mistakes: 2,
            blunders: 0,
            moves: 4,
            cp_loss: 100,
        };
        assert_eq!(
            s.text(),
            "1 inaccuracy, 2 mistakes, 0 blunders, average centipawn loss 25"
        );
    }

    #[test]
    fn comments_lose_their_old_eval() {
        assert_eq!(
            strip_eval("[%eval 0.3] [%clk 0:01:00] x"),
            "[%clk 0:01:00] x"
        );
        assert_eq!(strip_eval("[%eval 0.3"), "");
    }
}
