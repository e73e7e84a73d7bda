//! The evaluation's weights: one flat table of (middlegame, endgame) pairs per variant.
//!
//! Every term of the evaluation is a weight times a count (pieces, squares, attack
//! units, ...), so the evaluation is linear in these weights and `lancer tune` can fit
//! them to game results. The hand-set values ([`defaults`]) are where tuning starts and
//! what a variant gets when `weights.ini` has no section for it. The tuned values live
//! in `weights.ini` (beside this file, embedded in the build), one section per variant.

use super::MgEg;
use crate::rules::piece::{ALL_KINDS, NKINDS};
use crate::rules::variant::{Goal, Variant};
use crate::rules::Kind;

/// Piece value on the board, per kind.
pub const VALUE: usize = 0;
/// What a held unit (8-Piece jailer) changes from its value, per kind.
pub const HELD: usize = VALUE + NKINDS;
/// Value of a piece in hand (drop variants), per kind.
pub const HAND: usize = HELD + NKINDS;
/// Square tables: per half-square of distance from the centre, per kind.
pub const CENTRE: usize = HAND + NKINDS;
/// Square tables: per rank advanced, per kind.
pub const ADVANCE: usize = CENTRE + NKINDS;
/// A pawn on a central file past its second rank, per file step towards the centre.
pub const PAWN_CENTRAL: usize = ADVANCE + NKINDS;
/// The king per rank advanced, up to the fourth rank.
pub const KING_RANK: usize = PAWN_CENTRAL + 1;
/// The king per rank advanced beyond the fourth.
pub const KING_RANK_FAR: usize = KING_RANK + 1;
/// Square tables: per kind and relative rank (0..8).
pub const RANK: usize = KING_RANK_FAR + 1;
/// Square tables: per kind and file, counted from the nearer edge (0..4).
pub const FILE: usize = RANK + 8 * NKINDS;
/// Mobility per reachable square, per kind.
pub const MOBILITY: usize = FILE + 4 * NKINDS;
/// A lancer that faces the edge or a friendly wall (no move at all).
pub const LANCER_STUCK: usize = MOBILITY + NKINDS;
/// An enemy unit a jailer holds.
pub const JAILER_HOLD: usize = LANCER_STUCK + 1;
/// A diagonal along which a sentry can jump-capture.
pub const SENTRY_CHANCE: usize = JAILER_HOLD + 1;
/// A piece outside every bearer's range (Royal Standard's mobility rule).
pub const OUT_OF_RANGE: usize = SENTRY_CHANCE + 1;
/// A frozen standard-bearer.
pub const FROZEN_BEARER: usize = OUT_OF_RANGE + 1;
/// King danger by attack units (the last entry: that many or more).
pub const KING_DANGER: usize = FROZEN_BEARER + 1;
/// Entries of the king-danger table.
pub const DANGER_SIZE: usize = 17;
/// An own pawn in front of the king.
pub const SHELTER: usize = KING_DANGER + DANGER_SIZE;
/// A pawn with another own pawn on its file.
pub const DOUBLED: usize = SHELTER + 1;
/// A pawn with no own pawn on the files beside it.
pub const ISOLATED: usize = DOUBLED + 1;
/// A passed pawn, per relative rank.
pub const PASSED: usize = ISOLATED + 1;
/// A passed pawn while its side may not promote (Lighthouse's one-queen limit), per rank.
pub const PASSED_BLOCKED: usize = PASSED + 8;
/// A passed pawn past its third rank: own king's distance to its promotion square, per
/// rank beyond the third.
pub const PASSED_KING_OWN: usize = PASSED_BLOCKED + 8;
/// The same for the enemy king.
pub const PASSED_KING_THEIR: usize = PASSED_KING_OWN + 1;
/// An enemy piece (not a pawn) attacked by an own pawn.
pub const THREAT_BY_PAWN: usize = PASSED_KING_THEIR + 1;
/// An enemy rook, queen or lancer attacked by an own minor piece.
pub const THREAT_BY_MINOR: usize = THREAT_BY_PAWN + 1;
/// An enemy piece attacked and not defended.
pub const HANGING: usize = THREAT_BY_MINOR + 1;
/// Drop variants: per kind in hand, a safe empty square where a drop would check
/// (up to three counted).
pub const DROP_CHECK: usize = HANGING + 1;
/// A file next to or under the own king without an own pawn (checkmate variants).
pub const KING_OPEN_FILE: usize = DROP_CHECK + NKINDS;
/// A friendly piece on a lancer's ray, which it jumps.
pub const LANCER_JUMP: usize = KING_OPEN_FILE + 1;
/// A pawn that its neighbours cannot support (they are all ahead) and whose stop
/// square an enemy pawn guards.
pub const BACKWARD: usize = LANCER_JUMP + 1;
/// An enemy standard-bearer that an own piece attacks (it can be displaced and
/// frozen).
pub const BEARER_ATTACKED: usize = BACKWARD + 1;
/// An enemy standard-bearer next to the own king (the king can displace it, and it
/// can capture the king).
pub const BEARER_BY_KING: usize = BEARER_ATTACKED + 1;
/// A windmill's rings: own standard-bearers next to it, each a pivot.
pub const WINDMILL_PIVOTS: usize = BEARER_BY_KING + 1;
/// The n-move counter: the evaluation is scaled by `1 − w · halfmove / limit / 256`
/// (a scale, not a term: see [`super::counter_scale`]).
pub const COUNTER: usize = WINDMILL_PIVOTS + 1;
/// Per kind, each square of the enemy king's zone a piece of that kind attacks (the
/// danger table above grows with the same squares, by fixed weights per kind).
pub const KING_ATTACK: usize = COUNTER + 1;
/// Two bishops or more.
pub const BISHOP_PAIR: usize = KING_ATTACK + NKINDS;
/// A rook on a file without pawns.
pub const ROOK_OPEN: usize = BISHOP_PAIR + 1;
/// A rook on a file without its own pawns but with the enemy's.
pub const ROOK_SEMI_OPEN: usize = ROOK_OPEN + 1;
/// A knight or bishop in the enemy's half, guarded by a pawn, that no enemy pawn can
/// ever attack.
pub const OUTPOST: usize = ROOK_SEMI_OPEN + 1;
/// Per kind, how far a piece's mobility falls short of 3 squares (a trapped piece
/// loses more than the linear mobility weight says).
pub const LOW_MOBILITY: usize = OUTPOST + 1;
/// Per relative rank, a pawn guarded by a pawn or standing beside one.
pub const CONNECTED: usize = LOW_MOBILITY + NKINDS;
/// Per relative rank, a passed pawn whose next square is empty.
pub const PASSED_FREE: usize = CONNECTED + 8;
/// Per bishop, own pawns on its square colour.
pub const BISHOP_PAWNS: usize = PASSED_FREE + 8;
/// A knight or bishop right behind an own pawn.
pub const MINOR_BEHIND_PAWN: usize = BISHOP_PAWNS + 1;
/// Space: central squares of the own three ranks behind the first that no enemy pawn
/// attacks and no own pawn takes.
pub const SPACE: usize = MINOR_BEHIND_PAWN + 1;
/// Per kind (knight, bishop, rook, queen), a check it can give on a square the enemy
/// does not guard.
pub const SAFE_CHECK: usize = SPACE + 1;
/// The kinds of [`SAFE_CHECK`]'s four weights, in order.
pub const CHECK_KINDS: [Kind; 4] = [Kind::Knight, Kind::Bishop, Kind::Rook, Kind::Queen];
/// Enemy queens attacked by a rook or lancer.
pub const THREAT_BY_ROOK: usize = SAFE_CHECK + 4;
/// Undefended enemy pieces the king attacks.
pub const THREAT_BY_KING: usize = THREAT_BY_ROOK + 1;
/// Enemy pieces a safe pawn push would attack.
pub const PAWN_PUSH_THREAT: usize = THREAT_BY_KING + 1;
/// The king's distance to its nearest own pawn.
pub const KING_PAWN_DIST: usize = PAWN_PUSH_THREAT + 1;
/// Own pawns advanced (ranks 4 to 6) on the enemy king's file or the files beside it.
pub const PAWN_STORM: usize = KING_PAWN_DIST + 1;
/// Having the move.
pub const TEMPO: usize = PAWN_STORM + 1;
/// Number of weights.
pub const NPARAMS: usize = TEMPO + 1;

/// The groups of weights, as `eval` lists them and `lancer tune --terms` picks them.
pub const GROUPS: [&str; 9] = [
    "material", "squares", "mobility", "pieces", "king", "pawns", "threats", "tempo", "counter",
];

/// The group (index into [`GROUPS`]) of weight `i`.
pub fn group(i: usize) -> usize {
    match i {
        _ if i < CENTRE => 0,
        _ if i < MOBILITY => 1,
        _ if i < LANCER_STUCK => 2,
        _ if i < KING_DANGER => 3,
        _ if i < DOUBLED => 4,
        _ if i < THREAT_BY_PAWN => 5,
        _ if i < DROP_CHECK => 6,
        _ if i < LANCER_JUMP => 4,
        LANCER_JUMP => 3,
        BACKWARD => 5,
        _ if i < WINDMILL_PIVOTS => 6,
        WINDMILL_PIVOTS => 3,
        COUNTER => 8,
        _ if i < BISHOP_PAIR => 4,
        _ if i < LOW_MOBILITY => 3,
        _ if i < CONNECTED => 2,
        _ if i < BISHOP_PAWNS => 5,
        _ if i < SAFE_CHECK => 3,
        _ if i < THREAT_BY_ROOK => 4,
        _ if i < KING_PAWN_DIST => 6,
        KING_PAWN_DIST => 5,
        _ if i < TEMPO => 4,
        _ => 7,
    }
}

/// The name of weight `i` in `weights.ini`.
pub fn name(i: usize) -> String {
    let kind = |base: usize| ALL_KINDS[i - base].ini_name();
    match i {
        _ if i < HELD => format!("value.{}", kind(VALUE)),
        _ if i < HAND => format!("held.{}", kind(HELD)),
        _ if i < CENTRE => format!("hand.{}", kind(HAND)),
        _ if i < ADVANCE => format!("centre.{}", kind(CENTRE)),
        _ if i < PAWN_CENTRAL => format!("advance.{}", kind(ADVANCE)),
        PAWN_CENTRAL => "pawn_central".into(),
        KING_RANK => "king_rank".into(),
        KING_RANK_FAR => "king_rank_far".into(),
        _ if i < FILE => format!(
            "rank.{}.{}",
            ALL_KINDS[(i - RANK) / 8].ini_name(),
            (i - RANK) % 8
        ),
        _ if i < MOBILITY => format!(
            "file.{}.{}",
            ALL_KINDS[(i - FILE) / 4].ini_name(),
            (i - FILE) % 4
        ),
        _ if i < LANCER_STUCK => format!("mobility.{}", kind(MOBILITY)),
        LANCER_STUCK => "lancer_stuck".into(),
        JAILER_HOLD => "jailer_hold".into(),
        SENTRY_CHANCE => "sentry_chance".into(),
        OUT_OF_RANGE => "out_of_range".into(),
        FROZEN_BEARER => "frozen_bearer".into(),
        _ if i < SHELTER => format!("king_danger.{}", i - KING_DANGER),
        SHELTER => "shelter".into(),
        DOUBLED => "doubled".into(),
        ISOLATED => "isolated".into(),
        _ if i < PASSED_BLOCKED => format!("passed.{}", i - PASSED),
        _ if i < PASSED_KING_OWN => format!("passed_blocked.{}", i - PASSED_BLOCKED),
        PASSED_KING_OWN => "passed_king_own".into(),
        PASSED_KING_THEIR => "passed_king_their".into(),
        THREAT_BY_PAWN => "threat_by_pawn".into(),
        THREAT_BY_MINOR => "threat_by_minor".into(),
        HANGING => "hanging".into(),
        _ if i < KING_OPEN_FILE => format!("drop_check.{}", kind(DROP_CHECK)),
        KING_OPEN_FILE => "king_open_file".into(),
        LANCER_JUMP => "lancer_jump".into(),
        BACKWARD => "backward".into(),
        BEARER_ATTACKED => "bearer_attacked".into(),
        BEARER_BY_KING => "bearer_by_king".into(),
        WINDMILL_PIVOTS => "windmill_pivots".into(),
        COUNTER => "counter".into(),
        _ if i < BISHOP_PAIR => format!("king_attack.{}", kind(KING_ATTACK)),
        BISHOP_PAIR => "bishop_pair".into(),
        ROOK_OPEN => "rook_open".into(),
        ROOK_SEMI_OPEN => "rook_semi_open".into(),
        OUTPOST => "outpost".into(),
        _ if i < CONNECTED => format!("low_mobility.{}", kind(LOW_MOBILITY)),
        _ if i < PASSED_FREE => format!("connected.{}", i - CONNECTED),
        _ if i < BISHOP_PAWNS => format!("passed_free.{}", i - PASSED_FREE),
        BISHOP_PAWNS => "bishop_pawns".into(),
        MINOR_BEHIND_PAWN => "minor_behind_pawn".into(),
        SPACE => "space".into(),
        _ if i < THREAT_BY_ROOK => format!("safe_check.{}", CHECK_KINDS[i - SAFE_CHECK].ini_name()),
        THREAT_BY_ROOK => "threat_by_rook".into(),
        THREAT_BY_KING => "threat_by_king".into(),
        PAWN_PUSH_THREAT => "pawn_push_threat".into(),
        KING_PAWN_DIST => "king_pawn_dist".into(),
        PAWN_STORM => "pawn_storm".into(),
        _ => "tempo".into(),
    }
}

/// One variant's weights.
#[derive(Clone, Debug, PartialEq)]
pub struct Params {
    pub w: [MgEg; NPARAMS],
}

/// The hand-set value of a piece on the board (middlegame, endgame). Chess values; the
/// lancer 4.75, jailer ~3.75 and sentry ~2.35 pawns as their inventor gives them;
/// Lighthouse's values shrink the long-range pieces on its 4-file board; The Royal
/// Standard's windmill is an estimate (a short-range piece tied to its bearers).
fn value(v: &Variant, k: Kind) -> MgEg {
    let small = v.small_board_values;
    match k {
        Kind::Pawn => MgEg::new(90, 120),
        Kind::Knight if small => MgEg::new(280, 260),
        Kind::Knight => MgEg::new(310, 300),
        Kind::Bishop => MgEg::new(330, 340),
        Kind::ForwardBishop => MgEg::new(330, 330),
        Kind::Rook if small => MgEg::new(430, 470),
        Kind::Rook => MgEg::new(480, 520),
        Kind::Queen if small => MgEg::new(800, 850),
        Kind::Queen => MgEg::new(920, 960),
        Kind::Lancer => MgEg::new(460, 490),
        Kind::Jailer => MgEg::new(370, 380),
        Kind::Sentry => MgEg::new(235, 240),
        Kind::Windmill => MgEg::new(260, 280),
        Kind::King | Kind::Bearer => MgEg::new(0, 0),
    }
}

/// The hand-set weights of variant `v`: where `lancer tune` starts.
pub fn defaults(v: &Variant) -> Params {
    let mut w = [MgEg::default(); NPARAMS];
    let king_capture = v.goal == Goal::KingCapture;
    for k in ALL_KINDS {
        let i = k.idx();
        let val = value(v, k);
        w[VALUE + i] = val;
        // A held unit cannot move, capture or defend until its jailer leaves: it keeps
        // two fifths of its value; a held king is worse off still.
        let keep = MgEg::new(val.mg * 2 / 5, val.eg * 2 / 5);
        w[HELD + i] = MgEg::new(keep.mg - val.mg, keep.eg - val.eg);
        if k == Kind::King {
            w[HELD + i] -= MgEg::new(45, 25);
        }
        // In hand a piece can go anywhere: worth more than on the board.
        w[HAND + i] = MgEg::new(val.mg * 6 / 5, val.eg * 11 / 10);
        w[CENTRE + i] = match k {
            Kind::Pawn => MgEg::new(0, 0),
            Kind::Knight => MgEg::new(-4, -4),
            Kind::Bishop | Kind::ForwardBishop | Kind::Sentry => MgEg::new(-2, -2),
            Kind::Jailer | Kind::Windmill => MgEg::new(-2, -2),
            Kind::Queen => MgEg::new(-1, -2),
            Kind::Rook | Kind::Lancer => MgEg::new(0, -1),
            Kind::King if king_capture => MgEg::new(0, -1),
            Kind::King => MgEg::new(0, -4),
            Kind::Bearer => MgEg::new(-1, -1),
        };
        w[MOBILITY + i] = match k {
            Kind::Knight => MgEg::new(4, 4),
            Kind::Bishop | Kind::ForwardBishop => MgEg::new(4, 5),
            Kind::Rook => MgEg::new(2, 4),
            Kind::Queen => MgEg::new(1, 2),
            Kind::Lancer => MgEg::new(4, 4),
            Kind::Jailer => MgEg::new(2, 3),
            Kind::Sentry => MgEg::new(3, 3),
            Kind::Windmill => MgEg::new(4, 4),
            _ => MgEg::new(0, 0),
        };
    }
    w[ADVANCE + Kind::Pawn.idx()] = MgEg::new(3, 6);
    w[PAWN_CENTRAL] = MgEg::new(4, 0);
    if king_capture {
        w[KING_RANK] = MgEg::new(-3, 0);
        w[KING_RANK_FAR] = MgEg::new(-3, 0);
    } else {
        w[KING_RANK] = MgEg::new(-12, 0);
    }
    w[LANCER_STUCK] = MgEg::new(-25, -20);
    w[JAILER_HOLD] = MgEg::new(12, 10);
    w[SENTRY_CHANCE] = MgEg::new(14, 10);
    w[OUT_OF_RANGE] = MgEg::new(-18, -12);
    w[FROZEN_BEARER] = MgEg::new(-8, -4);
    for u in 0..DANGER_SIZE as i32 {
        let d = (u * u * 2).min(500);
        w[KING_DANGER + u as usize] = MgEg::new(d, d / 4);
    }
    w[SHELTER] = MgEg::new(10, 0);
    w[DOUBLED] = MgEg::new(-6, -14);
    w[ISOLATED] = MgEg::new(-8, -12);
    for rel in 0..8 {
        let b = MgEg::new(4 * rel + rel * rel, 8 * rel + 3 * rel * rel);
        w[PASSED + rel as usize] = b;
        w[PASSED_BLOCKED + rel as usize] = MgEg::new(b.mg / 3, b.eg / 3);
    }
    w[TEMPO] = MgEg::new(12, 12);
    Params { w }
}

/// The tuned weights the build embeds (written by `lancer tune`).
pub const EMBEDDED: &str = include_str!("weights.ini");

/// Applies section `name` of weights file `text` (after the sections it extends) onto
/// `p`; a missing section leaves `p` as it is. The file is read by the variants' INI
/// reader.
fn apply(text: &str, name: &str, p: &mut Params) -> Result<(), String> {
    use crate::rules::ini::{chain, read_sections};
    let secs = read_sections(text, "weights", None).map_err(|e| e.to_string())?;
    let Some(s) = secs.iter().find(|s| s.name == name) else {
        return Ok(());
    };
    // Each name printed once, not once per key: a search thread builds its tables
    // from this, so it runs at every `go`.
    let index: std::collections::HashMap<String, usize> =
        (0..NPARAMS).map(|i| (self::name(i), i)).collect();
    for s in chain(&secs, s).map_err(|e| e.to_string())?.iter().rev() {
        for (key, e) in &s.keys {
            let ln = e.line;
            let val = &e.value;
            let i = *index
                .get(key.as_str())
                .ok_or_else(|| format!("line {ln}: unknown weight '{key}'"))?;
            let nums: Vec<i32> = val
                .split_whitespace()
                .map(|x| x.parse::<i32>())
                .collect::<Result<_, _>>()
                .map_err(|_| format!("line {ln}: '{val}' is not two integers"))?;
            match nums[..] {
                [mg, eg] => p.w[i] = MgEg::new(mg, eg),
                _ => return Err(format!("line {ln}: '{val}' is not two integers")),
            }
        }
    }
    Ok(())
}

/// Whether weights file `text` has a section `name`.
pub fn has_section(text: &str, name: &str) -> bool {
    crate::rules::ini::read_sections(text, "weights", None)
        .is_ok_and(|secs| secs.iter().any(|s| s.name == name))
}

/// The weights of `v`: the section of `text` its `weights` key names over the
/// hand-set ones (the hand-set ones alone without the key).
pub fn from_text(v: &Variant, text: &str) -> Result<Params, String> {
    let mut p = defaults(v);
    if let Some(name) = &v.weights {
        apply(text, name, &mut p)?;
    }
    Ok(p)
}

/// The weights of `v` the build embeds; the hand-set ones if the file has none for it.
pub fn for_variant(v: &Variant) -> Params {
    from_text(v, EMBEDDED).unwrap_or_else(|e| {
        log::warn!("weights.ini: {e}; using the hand-set weights");
        defaults(v)
    })
}

/// Writes the weights of `p` that differ from the hand-set ones, as a section `name`.
pub fn section_text(name: &str, v: &Variant, p: &Params) -> String {
    let d = defaults(v);
    let mut s = format!("[{name}]\n");
    for i in 0..NPARAMS {
        if p.w[i] != d.w[i] {
            s += &format!("{} = {} {}\n", self::name(i), p.w[i].mg, p.w[i].eg);
        }
    }
    s
}

/// Replaces (or appends) section `name` of weights-file `text` with `section`.
pub fn replace_section(text: &str, name: &str, section: &str) -> String {
    let mut out = String::new();
    let mut skipping = false;
    let mut done = false;
    for line in text.lines() {
        let t = line.trim();
        if let Some(inner) = t.strip_prefix('[') {
            let n = inner.trim_end_matches(']').split(':').next().unwrap_or("");
            skipping = n.trim() == name;
            if skipping && !done {
                out += section;
                out.push('\n');
                done = true;
            }
        }
        if !skipping {
            out += line;
            out.push('\n');
        }
    }
    if !done {
        if !out.ends_with("\n\n") && !out.is_empty() {
            out.push('\n');
        }
        out += section;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::ini::Variants;

    #[test]
    fn names_are_distinct_and_read_back() {
        let names: std::collections::HashSet<String> = (0..NPARAMS).map(name).collect();
        assert_eq!(names.len(), NPARAMS);
        let vs = Variants::builtin();
        let v = vs.get("chess").unwrap();
        let mut p = defaults(v);
        p.w[PASSED + 3] = MgEg::new(7, -9);
        p.w[VALUE] = MgEg::new(101, 130);
        let text = section_text("chess", v, &p);
        assert_eq!(text.lines().count(), 3, "{text}");
        assert_eq!(from_text(v, &text).unwrap(), p);
    }

    #[test]
    fn the_embedded_file_reads_for_every_variant() {
        for v in Variants::builtin().all() {
            from_text(v, EMBEDDED).unwrap_or_else(|e| panic!("{}: {e}", v.name));
        }
    }

    #[test]
    fn sections_extend_and_errors_name_the_line() {
        let vs = Variants::builtin();
        // Chess960 reads chess's section through variants.ini's `weights` key.
        let v = vs.get("fischerandom").unwrap();
        let p = from_text(v, "[base]\ntempo = 20 5\n[chess : base]\n").unwrap();
        assert_eq!(p.w[TEMPO], MgEg::new(20, 5));
        let e = from_text(v, "[chess]\nbogus = 1 2\n").unwrap_err();
        assert!(e.contains("line 2") && e.contains("bogus"), "{e}");
        let e = from_text(v, "[chess]\ntempo = 1\n").unwrap_err();
        assert!(e.contains("two integers"), "{e}");
        let e = from_text(v, "[chess : nowhere]\n").unwrap_err();
        assert!(e.contains("nowhere"), "{e}");
        let replaced = replace_section("[a]\nx = 1 1\n[b]\ny = 2 2\n", "a", "[a]\nz = 3 3\n");
        assert_eq!(replaced, "[a]\nz = 3 3\n\n[b]\ny = 2 2\n");
    }
}
