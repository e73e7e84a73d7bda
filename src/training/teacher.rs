//! What `lancer train --teacher` learns from beside the data's labels: an evaluation's
//! static judgement of each position, blended with the search's score.

use super::optim::sigmoid32;
use crate::eval::nnue;
use crate::rules::{Position, Variant};

/// The evaluation a training learns from beside its labels: the hand-made one and
/// perhaps a network.
pub struct Teacher {
    net: Option<nnue::Net>,
    builtin: Option<&'static nnue::Net>,
}

impl Teacher {
    /// The teacher `name` names for `v` (see [`super::train::TrainConfig::teacher`]).
    pub fn new(v: &'static Variant, name: &str) -> Result<Teacher, String> {
        if name == "builtin" {
            return Ok(Teacher {
                net: None,
                builtin: nnue::builtin(v),
            });
        }
        let net = nnue::load(name).map_err(|e| format!("train: teacher {e}"))?;
        if !net.covers(v) {
            return Err(format!("train: teacher {name} cannot judge {}", v.name));
        }
        Ok(Teacher {
            net: Some(net),
            builtin: None,
        })
    }

    /// Its static evaluation of `pos` for the side to move, centipawns.
    pub fn judge(&self, pos: &Position) -> f32 {
        match self.net.as_ref().or(self.builtin) {
            Some(n) if !n.residual => n.evaluate(pos) as f32,
            Some(n) => (crate::eval::evaluate(pos) + n.evaluate(pos)) as f32,
            None => crate::eval::evaluate(pos) as f32,
        }
    }
}

/// The score whose expected result is the share `w` of the teacher's `t` and the rest
/// of the search's `score` (centipawns, side to move).
pub fn blend(score: f32, t: f32, w: f32) -> f32 {
    let scale = nnue::SCALE as f32;
    let p = (1.0 - w) * sigmoid32(score / scale) + w * sigmoid32(t / scale);
    let p = p.clamp(1e-6, 1.0 - 1e-6);
    scale * (p / (1.0 - p)).ln()
}
