//! The networks built into the binary, found by the name a variant's `network` key
//! gives.

use super::Net;
use crate::rules::Variant;
use std::sync::OnceLock;

/// The networks built into the engine, by the name a variant's `network` key gives:
/// each a correction to the hand-made evaluation, trained by `lancer train` over the
/// weights built in now.
const BUILTIN: [(&str, &[u8]); 5] = [
    ("chess", include_bytes!("chess.nnue")),
    ("fullcavalry", include_bytes!("fullcavalry.nnue")),
    ("eightpiece", include_bytes!("eightpiece.nnue")),
    ("royalstandard", include_bytes!("royalstandard.nnue")),
    ("lighthouse", include_bytes!("lighthouse.nnue")),
];

/// The names of the networks built in.
pub fn builtin_names() -> impl Iterator<Item = &'static str> {
    BUILTIN.iter().map(|(n, _)| *n)
}

/// The network built in under `name`, if it exists and reads.
fn builtin_named(name: &str) -> Option<&'static Net> {
    static NETS: OnceLock<Vec<Option<Net>>> = OnceLock::new();
    let i = BUILTIN.iter().position(|(n, _)| *n == name)?;
    NETS.get_or_init(|| {
        BUILTIN
            .iter()
            .map(|(name, b)| match Net::parse(b, name) {
                Ok(n) => Some(n),
                Err(e) => {
                    log::warn!("built-in network {name}: {e}");
                    None
                }
            })
            .collect()
    })[i]
        .as_ref()
}

/// The built-in network variant `v` names (its `network` key), if it covers `v`.
pub fn builtin(v: &Variant) -> Option<&'static Net> {
    builtin_named(v.network.as_deref()?).filter(|n| n.covers(v))
}

/// Whether variant `v`'s `network` key names a network built in. One that cannot judge
/// `v` (a child with another board or other pieces inherits its parent's key) is
/// simply not used.
pub fn check(v: &Variant) -> Result<(), String> {
    match v.network.as_deref() {
        Some(name) if builtin_named(name).is_none() => Err(format!(
            "[{}]: network '{name}' is not built in ({}, or none)",
            v.name,
            builtin_names().collect::<Vec<_>>().join(", ")
        )),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::ini::Variants;
    use crate::rules::Position;

    #[test]
    fn networks_are_found_through_the_variants_inheritance() {
        let vs = Variants::builtin();
        let chess = vs.get("chess").unwrap();
        let net = builtin(chess).expect("the build has a chess network");
        // Chess's network is the whole evaluation (docs/networks.md, chess); the
        // others are corrections to the hand-made one.
        assert!(!net.residual);
        let start = Position::from_efen(
            chess,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        )
        .unwrap();
        // The start is level; a queen up is far from level.
        assert!(net.evaluate(&start).abs() < 100, "{}", net.evaluate(&start));
        let queen_up = Position::from_efen(chess, "4k3/8/8/8/8/8/3Q4/4K3 w - - 0 1").unwrap();
        assert!(net.evaluate(&queen_up) > 500, "{}", net.evaluate(&queen_up));
        // Chess960 and a user variant of chess inherit chess's `network` key.
        let user = Variants::load(&[
            (crate::rules::ini::BUILTIN_INI, "variants.ini"),
            (
                "[mychess : chess]\n[bare : chess]\nnetwork = none\n",
                "user.ini",
            ),
        ])
        .unwrap();
        for name in ["fischerandom", "mychess"] {
            let v = user.get(name).unwrap();
            assert!(std::ptr::eq(builtin(v).unwrap(), net), "{name}");
            check(v).unwrap();
        }
        assert!(builtin(user.get("bare").unwrap()).is_none());
        for v in vs.all() {
            check(v).unwrap_or_else(|e| panic!("{e}"));
            if let Some(n) = builtin(v) {
                assert_eq!(Some(n.name.as_str()), v.network.as_deref());
                assert_eq!(n.residual, n.name != "chess", "{}", n.name);
            }
        }
        // A network for chess's kinds cannot judge a variant with other pieces.
        assert!(!net.covers(vs.get("fullcavalry").unwrap()));
        assert!(!net.covers(vs.get("lighthouse").unwrap()));
        let bad = Variants::load(&[
            (crate::rules::ini::BUILTIN_INI, "variants.ini"),
            (
                "[odd : fullcavalry]\nnetwork = chess\n[gone : chess]\nnetwork = nosuch\n",
                "u.ini",
            ),
        ])
        .unwrap();
        check(bad.get("odd").unwrap()).unwrap();
        let e = check(bad.get("gone").unwrap()).unwrap_err();
        assert!(e.contains("'nosuch' is not built in"), "{e}");
        assert!(builtin(bad.get("odd").unwrap()).is_none());
    }
}
