//! What the page shows, as JSON: the board as the rules have it (squares, holes,
//! pieces with facing, held and frozen marks, hands, side, check, the last move with
//! a displacement), the legal moves with the squares the page clicks, and the game's
//! moves in SAN. The page draws this and holds no rules (docs/serve.md, `lancer
//! serve`).

use crate::rules::bitboard::{square, square_name, squares};
use crate::rules::notation::{move_text, parse_any, san};
use crate::rules::piece::{Kind, Piece, FACING_NAMES, NKINDS};
use crate::rules::variant::{Start, Variant};
use crate::rules::{Color, Game, Move, MoveList, MoveType, Position, Variants};
use serde_json::{json, Map, Value};

/// The side's letter in the page's terms (`w`, `b`).
pub fn side_letter(c: Color) -> &'static str {
    match c {
        Color::White => "w",
        Color::Black => "b",
    }
}

/// The EFEN letter of a piece, upper case for White.
fn letter(v: &Variant, p: Piece) -> String {
    v.piece_char(p).to_string()
}

/// The squares a click picks for `m`: where it starts (`None` for a drop or the
/// pass) and where it lands as the page shows it. Castling lands on the king's
/// square (or on the partner's when the king stays put, as in some Chess960 setups).
pub fn click_squares(pos: &Position, m: Move) -> (Option<u8>, Option<u8>) {
    match m.move_type() {
        MoveType::Drop => (None, Some(m.to())),
        MoveType::Pass => (None, None),
        MoveType::Castle => {
            let (k, _) = pos.castle_targets(m.from(), m.to());
            let to = if k == m.from() { m.to() } else { k };
            (Some(m.from()), Some(to))
        }
        _ => (Some(m.from()), Some(m.to())),
    }
}

/// One legal move for the page: its move text (what the page sends back), SAN, the
/// click squares and what a chooser offers when several moves share them.
fn move_json(pos: &Position, m: Move) -> Value {
    let v = pos.variant();
    let (from, to) = click_squares(pos, m);
    let mut o = Map::new();
    o.insert("text".into(), json!(move_text(pos, m)));
    o.insert("san".into(), json!(san(pos, m)));
    o.insert("from".into(), json!(from.map(square_name)));
    o.insert("to".into(), json!(to.map(square_name)));
    o.insert("pass".into(), json!(m.is_pass()));
    if m.move_type() == MoveType::Drop {
        if let Some(k) = m.kind() {
            o.insert("drop".into(), json!(letter(v, Piece::new(k, pos.side()))));
        }
    }
    if m.move_type() == MoveType::Promotion {
        if let Some(k) = m.kind() {
            o.insert(
                "promotion".into(),
                json!(letter(v, Piece::new(k, pos.side()))),
            );
        }
    }
    if let Some(f) = m.facing() {
        o.insert("facing".into(), json!(FACING_NAMES[(f & 7) as usize]));
    }
    if m.is_displacement() {
        o.insert("bearer".into(), json!(square_name(m.aux())));
    }
    if m.move_type() == MoveType::Castle {
        o.insert("castle".into(), json!(true));
    }
    if let Some((key, _, _)) = result_art(pos, m) {
        o.insert("art".into(), json!(key));
    }
    Value::Object(o)
}

/// The piece a chooser shows for `m` (a promotion, or a lancer that takes a new
/// facing): its art key (`LETTER` or `LETTER:facing`), the piece and its facing.
fn result_art(pos: &Position, m: Move) -> Option<(String, Piece, u8)> {
    if m.move_type() != MoveType::Promotion && m.facing().is_none() {
        return None;
    }
    let after = pos.after(m);
    let sq = match m.move_type() {
        MoveType::Castle => pos.castle_targets(m.from(), m.to()).1,
        _ => m.to(),
    };
    let p = after.piece_at(sq);
    if p.is_none() {
        return None;
    }
    let l = letter(pos.variant(), p);
    if p.kind() == Kind::Lancer {
        let f = after.facing_at(sq) & 7;
        Some((format!("{l}:{}", FACING_NAMES[f as usize]), p, f))
    } else {
        Some((l, p, 0))
    }
}

/// The squares a move changes, and a displaced bearer's way (from, to).
fn last_move_json(before: &Position, m: Move) -> Value {
    let (from, to) = click_squares(before, m);
    let mut marks: Vec<u8> = from.into_iter().chain(to).collect();
    match m.move_type() {
        MoveType::Castle => {
            let (k, r) = before.castle_targets(m.from(), m.to());
            marks = vec![m.from(), m.to(), k, r];
        }
        MoveType::SentryCapture => marks.push(m.aux()),
        _ if m.is_displacement() => marks.push(m.aux()),
        _ => {}
    }
    marks.sort_unstable();
    marks.dedup();
    json!({
        "text": move_text(before, m),
        "san": san(before, m),
        "from": from.map(square_name),
        "to": to.map(square_name),
        "squares": marks.into_iter().map(square_name).collect::<Vec<_>>(),
        "displaced": m.is_displacement().then(|| json!({
            "from": square_name(m.to()),
            "to": square_name(m.aux()),
        })),
    })
}

/// The board of `pos`: squares and holes, pieces, hands, side, check, and the SVG
/// art of each piece shown (keyed `LETTER` or `LETTER:facing`).
pub fn position_json(pos: &Position) -> Value {
    let v = pos.variant();
    let mut holes = Vec::new();
    for r in 0..v.height {
        for f in 0..v.width {
            let sq = square(f, r);
            if !v.on_board(sq) {
                holes.push(square_name(sq));
            }
        }
    }
    let held = pos.held(Color::White) | pos.held(Color::Black);
    let frozen = pos.frozen();
    let mut art = Map::new();
    let mut pieces = Vec::new();
    for sq in squares(pos.occupied()) {
        let p = pos.piece_at(sq);
        if p.is_none() {
            continue;
        }
        let l = letter(v, p);
        let lancer = p.kind() == Kind::Lancer;
        let facing = pos.facing_at(sq) & 7;
        let key = if lancer {
            format!("{l}:{}", FACING_NAMES[facing as usize])
        } else {
            l.clone()
        };
        art.entry(key.clone())
            .or_insert_with(|| json!(crate::diagram::piece_image(p, facing)));
        pieces.push(json!({
            "square": square_name(sq),
            "piece": l,
            "facing": lancer.then(|| FACING_NAMES[facing as usize]),
            "held": held & (1u64 << sq) != 0,
            "frozen": frozen & (1u64 << sq) != 0,
            "art": key,
        }));
    }
    let mut hands = Map::new();
    for c in [Color::White, Color::Black] {
        let mut list = Vec::new();
        if v.drops {
            for k in 0..NKINDS {
                let kind = Kind::from_idx(k);
                // Only what a capture can put in hand (a Lighthouse queen turns
                // into a pawn), or what a set-up position holds.
                if !v.can_hold(kind) && pos.hand(c, kind) == 0 {
                    continue;
                }
                let p = Piece::new(kind, c);
                let l = letter(v, p);
                art.entry(l.clone())
                    .or_insert_with(|| json!(crate::diagram::piece_image(p, 0)));
                list.push(json!({"piece": l, "count": pos.hand(c, kind), "art": l}));
            }
        }
        hands.insert(side_letter(c).into(), Value::Array(list));
    }
    let check = if pos.in_check() {
        pos.king_sq(pos.side()).map(square_name)
    } else {
        None
    };
    json!({
        "variant": v.name,
        "width": v.width,
        "height": v.height,
        "files": (0..v.width).map(|f| ((b'a' + f) as char).to_string()).collect::<Vec<_>>(),
        "holes": holes,
        "pieces": pieces,
        "hands": hands,
        "drops": v.drops,
        "side": side_letter(pos.side()),
        "check": check,
        "efen": pos.efen(),
        "art": art,
    })
}

/// The legal moves of `pos` for the page.
pub fn legal_json(pos: &Position) -> Vec<Value> {
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    list.iter().map(|&m| move_json(pos, m)).collect()
}

/// The position after `ply` moves of `game` (the start for 0).
pub fn position_at(game: &Game, ply: usize) -> Position {
    let mut pos = *game.start();
    for &m in game.moves().iter().take(ply) {
        pos.do_move(m);
    }
    pos
}

/// The game at ply `view`: the board there, its last move, the legal moves (none
/// once `over`), and the whole game's moves in SAN.
pub fn game_json(game: &Game, view: usize, over: bool) -> Value {
    line_json(game.start(), game.moves(), view, over)
}

/// The line `moves` from `start` shown after `view` of its moves: the board there,
/// its last move, the legal moves there (none once `over`), which pieces of the
/// side to move cannot move and why, and the line's moves in SAN and move text.
pub fn line_json(start: &Position, moves: &[Move], view: usize, over: bool) -> Value {
    let view = view.min(moves.len());
    let mut pos = *start;
    let mut sans = Vec::new();
    let mut texts = Vec::new();
    let mut last = Value::Null;
    let mut shown = pos;
    for (i, &m) in moves.iter().enumerate() {
        sans.push(san(&pos, m));
        texts.push(move_text(&pos, m));
        if i + 1 == view {
            last = last_move_json(&pos, m);
        }
        pos.do_move(m);
        if i + 1 == view {
            shown = pos;
        }
    }
    let mut out = position_json(&shown);
    if let Value::Object(o) = &mut out {
        o.insert("last".into(), last);
        let legal = if over { Vec::new() } else { legal_json(&shown) };
        let mut immobile = Map::new();
        if !over {
            for sq in squares(shown.occupied()) {
                let p = shown.piece_at(sq);
                if p.is_none() || p.color() != shown.side() {
                    continue;
                }
                if let Some(why) = why_stuck(&shown, sq) {
                    immobile.insert(square_name(sq), json!(why));
                }
            }
        }
        // The choosers' pieces join the art of the pieces shown.
        if !over {
            let mut list = MoveList::new();
            shown.legal_moves(&mut list);
            if let Some(Value::Object(art)) = o.get_mut("art") {
                for &m in list.iter() {
                    if let Some((key, p, f)) = result_art(&shown, m) {
                        art.entry(key)
                            .or_insert_with(|| json!(crate::diagram::piece_image(p, f)));
                    }
                }
            }
        }
        o.insert("legal".into(), Value::Array(legal));
        o.insert("immobile".into(), Value::Object(immobile));
        o.insert("history".into(), json!(sans));
        o.insert("texts".into(), json!(texts));
        o.insert("ply".into(), json!(view));
        o.insert("plies".into(), json!(moves.len()));
        o.insert("start".into(), json!(start.efen()));
        o.insert("first_side".into(), json!(side_letter(start.side())));
        o.insert("first_move".into(), json!(start.fullmove()));
    }
    out
}

/// Why the side to move's piece on `from` has no legal move, in the rules' terms
/// (held by a jailer, a frozen bearer, the mobility rule, check, or none at all);
/// `None` when it has one.
pub fn why_stuck(pos: &Position, from: u8) -> Option<String> {
    let name = square_name(from);
    let p = pos.piece_at(from);
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    if list.iter().any(|&m| click_squares(pos, m).0 == Some(from)) {
        return None;
    }
    Some(if pos.held(pos.side()) & (1u64 << from) != 0 {
        format!("the piece on {name} is held by a jailer")
    } else if pos.frozen() & (1u64 << from) != 0 {
        format!("the standard-bearer on {name} is frozen this turn")
    } else if p.kind() != Kind::King
        && p.kind() != Kind::Bearer
        && pos.mobility_zone(pos.side()) & (1u64 << from) == 0
    {
        format!("the piece on {name} is not next to one of its standard-bearers (mobility rule)")
    } else if pos.in_check() {
        format!("the piece on {name} has no move that ends the check")
    } else {
        format!("the piece on {name} has no legal move")
    })
}

/// Why a move the page sent is refused, in the rules' terms where they say more
/// than "illegal": not the side's turn, a held piece, a frozen bearer, the mobility
/// rule.
pub fn refusal(pos: &Position, token: &str) -> String {
    let base = match parse_any(pos, token) {
        Ok(_) => return String::new(),
        Err(e) => e.0,
    };
    let v = pos.variant();
    let from = token
        .get(0..2)
        .and_then(crate::rules::bitboard::parse_square);
    if let Some(from) = from.filter(|&s| v.on_board(s)) {
        let p = pos.piece_at(from);
        let name = square_name(from);
        if p.is_none() {
            return format!("{base}: there is no piece on {name}");
        }
        if p.color() != pos.side() {
            return format!("{base}: it is {}'s turn", pos.side().name());
        }
        if let Some(why) = why_stuck(pos, from) {
            return format!("{base}: {why}");
        }
        if pos.in_check() {
            return format!("{base}: {} is in check", pos.side().name());
        }
    }
    base
}

/// A start position: an EFEN, else setup `setup` of a random variant, else the
/// variant's standard start.
pub fn start_position(
    variants: &Variants,
    name: &str,
    efen: Option<&str>,
    setup: Option<usize>,
) -> Result<Position, String> {
    let v = variants
        .get(name)
        .ok_or_else(|| format!("unknown variant '{name}'"))?;
    let text = match (
        efen.map(str::trim).filter(|f| !f.is_empty()),
        setup,
        &v.start,
    ) {
        (Some(f), _, _) => f.to_string(),
        (None, Some(n), Start::Random(r)) => v.setup_fen(*r, n)?,
        (None, Some(_), Start::Fen(_)) => {
            return Err(format!("{} has no numbered setups", v.name));
        }
        (None, None, _) => v.default_start_fen(),
    };
    Position::from_efen(v, &text).map_err(|e| format!("bad EFEN: {e}"))
}

/// Plays `moves` (move text or SAN) from `start`; the error names the first bad one.
/// A list split at commas may have cut a displacement (`a2b1,b1c2`) in two: a token
/// that is no move joined with the next one is tried as well.
pub fn replay<S: AsRef<str>>(start: Position, moves: &[S]) -> Result<Game, String> {
    let mut game = Game::new(start);
    let tokens: Vec<&str> = moves
        .iter()
        .map(|t| t.as_ref().trim())
        .filter(|t| !t.is_empty())
        .collect();
    let mut i = 0;
    while i < tokens.len() {
        let t = tokens[i];
        if game.outcome().is_some() {
            return Err(format!(
                "move {} ('{t}'): the game is over",
                game.moves().len() + 1
            ));
        }
        let pos = *game.position();
        let joined = tokens.get(i + 1).map(|n| format!("{t},{n}"));
        let m = match (parse_any(&pos, t), &joined) {
            (Ok(m), _) => m,
            (Err(_), Some(j)) if parse_any(&pos, j).is_ok() => {
                i += 1;
                parse_any(&pos, j).map_err(|e| e.0)?
            }
            (Err(_), _) => {
                return Err(format!(
                    "move {} ('{t}'): {}",
                    game.moves().len() + 1,
                    refusal(&pos, t)
                ))
            }
        };
        game.play(m);
        i += 1;
    }
    Ok(game)
}

/// The variants for the page's menu, with their random setups' count.
pub fn variants_json(variants: &Variants) -> Value {
    let list: Vec<Value> = variants
        .all()
        .iter()
        .map(|v| {
            let setups = match &v.start {
                Start::Random(r) => Some(crate::rules::setups::setup_count(*r)),
                Start::Fen(_) => None,
            };
            json!({
                "name": v.name,
                "width": v.width,
                "height": v.height,
                "setups": setups,
                "default_setup": match &v.start {
                    Start::Random(r) => Some(crate::rules::setups::default_index(*r)),
                    Start::Fen(_) => None,
                },
                "start": v.default_start_fen(),
            })
        })
        .collect();
    Value::Array(list)
}
